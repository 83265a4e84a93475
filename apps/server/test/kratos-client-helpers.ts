import { ResponseError } from '@ory/kratos-client-fetch';

/**
 * What a call of the official Kratos client (@ory/kratos-client-fetch) failed with: the
 * status and Kratos's JSON body. Fails the test when the call succeeded instead.
 */
export async function errorOf(promise: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ResponseError)
      return { status: error.response.status, body: (await error.response.json()) as Record<string, unknown> };
    throw error;
  }
  throw new Error('The call succeeded; an error was expected');
}
