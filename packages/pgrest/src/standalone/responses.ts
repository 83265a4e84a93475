import type { PgrestResponse } from '../engine-types.js';

/** PostgREST's error body fields; absent ones are sent as null, never omitted. */
export type PgrstErrorFields = {
  code: string;
  message: string;
  details?: string | null;
  hint?: string | null;
};

/**
 * An error response shaped like PostgREST's: a JSON body with exactly code, message, details and
 * hint, `Content-Type: application/json; charset=utf-8` and the `Proxy-Status` header PostgREST 13+
 * adds to every error.
 */
export function pgrstErrorResponse(
  status: number,
  fields: PgrstErrorFields,
  extraHeaders: Record<string, string> = {},
): PgrestResponse {
  const body = JSON.stringify({
    code: fields.code,
    details: fields.details ?? null,
    hint: fields.hint ?? null,
    message: fields.message,
  });
  return {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Proxy-Status': `PostgREST; error=${fields.code}`,
      ...extraHeaders,
    },
    body,
  };
}
