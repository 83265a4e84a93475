import type { PgrestResponse } from '../engine-types.js';
import type { PgrstError } from '../errors/pgrst-error.js';
import { invalidRange, mediaTypeError } from '../errors/api-errors.js';
import { mediaTypeMime, type MediaType } from '../parser/media-types.js';
import type { BodyFormat } from '../sql/output-sql.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** `Proxy-Status: PostgREST; error=<code>`, which PostgREST (13+) adds to every error it answers. */
export function proxyStatus(code: string): Record<string, string> {
  return { 'Proxy-Status': `PostgREST; error=${code}` };
}

/** The JSON error response PostgREST sends for `error`, with its `Proxy-Status` header. */
export function errorResponse(error: PgrstError): PgrestResponse {
  const body = JSON.stringify(error.toBody());
  return {
    status: error.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...proxyStatus(error.code), ...error.headers },
    body,
  };
}

/** `Content-Range` value: `0-24/573`, `*\/573`, `0-24/*`. */
export function contentRange(lower: bigint, upper: bigint, total: number | undefined): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === undefined ? '*' : String(total)}`;
}

/**
 * Status and Content-Range of a read: 206 when a counted result is partial, 416 when the
 * offset is past the total (with PostgREST's PGRST103 body), else 200.
 */
export function rangeStatus(
  offset: bigint,
  pageRows: number,
  total: number | undefined,
): { status: number; contentRange: string; error?: PgrstError } {
  const upper = offset + BigInt(pageRows) - 1n;
  const header = contentRange(offset, upper, total);
  if (total === undefined) return { status: 200, contentRange: header };
  if (offset > BigInt(total)) {
    return { status: 416, contentRange: header, error: invalidRange({ kind: 'out-of-bounds', offset, total }) };
  }
  if (pageRows < total) return { status: 206, contentRange: header };
  return { status: 200, contentRange: header };
}

/**
 * The 416 of a read or call: PostgREST's error body with the headers the successful
 * response would have carried (its Content-Type included, even when that is CSV). PostgREST
 * answers it as a response, not as an error, so it has no `Proxy-Status`.
 */
export function rangeErrorResponse(
  error: PgrstError,
  response: Pick<PgrestResponse, 'status' | 'headers'>,
): PgrestResponse {
  return {
    status: response.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...response.headers },
    body: JSON.stringify(error.toBody()),
  };
}

/** A response format and its Content-Type. */
export type Negotiated = { format: BodyFormat; contentType: string };

/**
 * Picks the response format from the Accept list: the first entry something can produce
 * wins. PostgREST's own vendor types (`vnd.pgrst.object`, `vnd.pgrst.array`) cannot be
 * overridden; then `handled` (media type handlers) may claim an entry; then the built-in JSON
 * (for `application/json` and `*\/*`) and CSV. PGRST107 when nothing can be produced.
 */
export function negotiateBody<T extends Negotiated = Negotiated>(
  accept: readonly MediaType[],
  allowCsv = true,
  handled?: (type: MediaType) => T | undefined,
): Negotiated | T {
  for (const type of accept) {
    if (type.kind !== 'object' && type.kind !== 'array') {
      const claimed = handled?.(type);
      if (claimed) return claimed;
    }
    switch (type.kind) {
      case 'json':
      case 'any':
        return { format: { kind: 'json' }, contentType: 'application/json; charset=utf-8' };
      case 'object':
        return {
          format: { kind: 'object', stripNulls: type.stripNulls },
          contentType: `${mediaTypeMime(type)}; charset=utf-8`,
        };
      case 'array':
        return {
          format: { kind: 'array', stripNulls: type.stripNulls },
          contentType: `${mediaTypeMime(type)}; charset=utf-8`,
        };
      case 'csv':
        if (allowCsv) return { format: { kind: 'csv' }, contentType: 'text/csv; charset=utf-8' };
        break;
      default:
        break;
    }
  }
  throw mediaTypeError(accept.map(mediaTypeMime));
}
