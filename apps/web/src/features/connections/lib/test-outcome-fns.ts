import { CONNECTION_MESSAGES, CONNECTION_TEST_OK } from '@lookout/contracts';

/** What a connection test came to, as the page reports it (spec 3 section 8). */
export type TestOutcome =
  { kind: 'ok'; message: string } | { kind: 'unsupported'; message: string } | { kind: 'failed'; message: string };

/** The server's error, pretty-printed when it is JSON (spec 3 section 8). */
export function prettyError(error: string): string {
  try {
    const parsed: unknown = JSON.parse(error);
    if (typeof parsed === 'object' && parsed !== null) return JSON.stringify(parsed, null, 2);
  } catch {
    // Not JSON: shown as the server wrote it.
  }
  return error;
}

const errorOf = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const { error } = body;
  if (typeof error === 'string' && error.trim()) return error;
  // Lookout's error envelope: {error: {message}}.
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return undefined;
};

/**
 * Reads the answer of `POST /api/connection/test/{id}` (ui-calls 3.12): success only for HTTP
 * 200 with `message: "ok"`; otherwise the server's `error`, or 'Testing connection failed!'
 * when it gave none. The server answers a type it cannot test with the spec's
 * 'We currently do not support testing this connection type'.
 */
export function testOutcome(status: number, body: unknown): TestOutcome {
  if (
    status === 200 &&
    typeof body === 'object' &&
    body !== null &&
    'message' in body &&
    body.message === CONNECTION_TEST_OK
  ) {
    return { kind: 'ok', message: CONNECTION_MESSAGES.testOk };
  }
  const error = errorOf(body);
  if (error === CONNECTION_MESSAGES.testUnsupported) return { kind: 'unsupported', message: error };
  return { kind: 'failed', message: error ? prettyError(error) : CONNECTION_MESSAGES.testFailed };
}
