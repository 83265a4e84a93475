import { invalidBody } from '../errors/api-errors.js';
import type { MediaType } from '../parser/media-types.js';

/*
 * A request body arrives as bytes (hosts pass what the client sent) or, for convenience, as a
 * string standing for its UTF-8 encoding. JSON, CSV, form and text bodies are read as UTF-8;
 * a binary body goes to a `bytea` parameter untouched.
 */

export type RawBody = Uint8Array | string;

/** Strict UTF-8: a byte sequence that is not UTF-8 is reported, never replaced. A BOM is kept. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as UTF-8 text, or undefined when its bytes are not UTF-8. */
export function utf8Text(body: RawBody): string | undefined {
  if (typeof body === 'string') return body;
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}

/** The body's bytes. */
export function bodyBytes(body: RawBody): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/**
 * The text of a body the engine parses (JSON, CSV, form). Bytes that are not UTF-8 are refused
 * with PGRST102: for JSON with PostgREST's "Empty or invalid json" (its JSON parser fails on
 * them), for CSV and form bodies with a message of ours (PostgREST fails with a 500 there).
 */
export function parsedBodyText(body: RawBody | undefined, contentType: MediaType): string | undefined {
  if (body === undefined) return undefined;
  const text = utf8Text(body);
  if (text !== undefined) return text;
  if (contentType.kind === 'csv' || contentType.kind === 'form') {
    throw invalidBody('The request body is not valid UTF-8');
  }
  throw invalidBody('Empty or invalid json');
}
