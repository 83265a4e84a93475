import { isAxiosError } from 'axios';
import { getErrorMessage } from '@/lib/api-client';

/**
 * Runs a request and turns an HTTP answer the server refused into an Error carrying the
 * server's own text, so error panels and toasts show it rather than axios's "status code 400".
 * Cancellations and parse errors go through as they are.
 */
export async function withServerMessage<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (isAxiosError(error) && error.response) throw new Error(getErrorMessage(error), { cause: error });
    throw error;
  }
}
