import { mediaTypeMime, type MediaType } from '../parser/media-types.js';
import type { SelectItem } from '../parser/ast.js';
import { mediaHandlerKey, type MediaHandler, type QualifiedName, type SchemaCache } from '../schema/schema-types.js';
import type { BodyFormat } from '../sql/output-sql.js';
import { qualified, quoteIdent } from '../sql/sql-params.js';
import { negotiateBody } from './response.js';

/** How the text of a handler's body column becomes the response body. */
export type BodyDecoding = 'text' | 'base64' | 'jsonb';

/** The outcome of content negotiation for a read or a call. */
export type NegotiatedBody = {
  format: BodyFormat;
  contentType: string;
  /**
   * A media type handler chose the body: its SQL expression over the rows `"_r"` of
   * `pgrst_source` (replacing the format's) and how its text is read back.
   */
  custom?: { sql: string; decoding: BodyDecoding };
};

/** What the body is built from, for handler lookups and their SQL. */
export type MediaTarget = {
  /** The relation read (or returned by the function), or the function of a scalar call. */
  identifier: QualifiedName;
  /** Which handlers `identifier` has: a relation's aggregates, or a function's own domain. */
  identifierKind: MediaHandler['kind'];
  /** `select` is absent or `*`: handlers of `identifier` itself may apply. */
  defaultSelect: boolean;
  /** The output column of a scalar call (its value is what handlers receive). */
  scalarColumn?: string;
  /** CSV is offered (not for scalar calls). */
  allowCsv: boolean;
};

/** Media types whose Content-Type carries `charset=utf-8` (PostgREST's known text types). */
const CHARSET_TYPES = new Set([
  'application/json',
  'application/geo+json',
  'text/csv',
  'text/plain',
  'text/xml',
  'application/openapi+json',
  'application/x-www-form-urlencoded',
]);

/** The Content-Type PostgREST sends for a media type: known text types get `; charset=utf-8`. */
export function contentTypeFor(mime: string): string {
  return CHARSET_TYPES.has(mime) ? `${mime}; charset=utf-8` : mime;
}

/** True when `select` is the default one (absent, empty or a bare `*`). */
export function isDefaultSelect(select: SelectItem[]): boolean {
  const [only] = select;
  return (
    select.length === 1 &&
    only?.type === 'field' &&
    only.field.name === '*' &&
    only.field.jsonPath.length === 0 &&
    only.alias === undefined &&
    only.cast === undefined &&
    only.aggregate === undefined
  );
}

function lookup(cache: SchemaCache, target: MediaTarget, mediaType: string): MediaHandler | undefined {
  const handlers = cache.mediaHandlers;
  if (!handlers || handlers.size === 0) return undefined;
  if (target.defaultSelect) {
    // A `*/*` handler of the relation itself answers every media type.
    const own =
      handlers.get(mediaHandlerKey(target.identifierKind, target.identifier, '*/*')) ??
      handlers.get(mediaHandlerKey(target.identifierKind, target.identifier, mediaType));
    if (own) return own;
  }
  // Handlers over `anyelement` are aggregates.
  return handlers.get(mediaHandlerKey('aggregate', undefined, mediaType));
}

function handlerBody(handler: MediaHandler, target: MediaTarget): NegotiatedBody['custom'] {
  const column = target.scalarColumn === undefined ? undefined : `"_r".${quoteIdent(target.scalarColumn)}`;
  let expression: string;
  if (handler.kind === 'function' || !handler.aggregate) {
    // The function's own result is the body (one row: the call of a non-set function).
    const value = target.scalarColumn === undefined ? 'NULL' : `"_s".${quoteIdent(target.scalarColumn)}`;
    expression = `(SELECT ${value} FROM "pgrst_source" AS "_s" LIMIT 1)`;
  } else if (column !== undefined) {
    expression = `${qualified(handler.aggregate)}(${column})`;
  } else if (handler.target) {
    expression = `${qualified(handler.aggregate)}("_r"::${qualified(handler.target)})`;
  } else {
    expression = `${qualified(handler.aggregate)}("_r")`;
  }
  if (handler.baseType === 'bytea') {
    return { sql: `coalesce(encode((${expression})::bytea, 'base64'), '')`, decoding: 'base64' };
  }
  return {
    sql: `coalesce((${expression})::text, '')`,
    decoding: handler.baseType === 'jsonb' ? 'jsonb' : 'text',
  };
}

/** The media type a handler answers with: `*\/*` handlers say `application/octet-stream`. */
function handlerMime(handler: MediaHandler): string {
  return handler.mediaType === '*/*' ? 'application/octet-stream' : handler.mediaType;
}

/**
 * Content negotiation as PostgREST does it ({@link negotiateBody}), with the media type
 * handlers of the target: its own (its `*\/*` handler, then the media type; only with the
 * default select), then those over `anyelement`.
 */
export function negotiateMedia(accept: readonly MediaType[], cache: SchemaCache, target: MediaTarget): NegotiatedBody {
  return negotiateBody<NegotiatedBody>(accept, target.allowCsv, (type) => {
    const handler = lookup(cache, target, mediaTypeMime(type).toLowerCase());
    if (!handler) return undefined;
    return {
      format: { kind: 'json' },
      contentType: contentTypeFor(handlerMime(handler)),
      custom: handlerBody(handler, target),
    };
  });
}

/** The response body of a handler's column text (bytes for `bytea` domains). */
export function decodeHandlerBody(text: string, decoding: BodyDecoding): { body: string; bodyBytes?: Uint8Array } {
  if (decoding === 'base64') {
    const bytes = Buffer.from(text, 'base64');
    return { body: bytes.toString('latin1'), bodyBytes: bytes };
  }
  // PostgREST reads a jsonb body in PostgreSQL's binary format, whose first byte is the
  // format version (1): its responses start with that byte.
  if (decoding === 'jsonb' && text !== '') return { body: `\u0001${text}` };
  return { body: text };
}
