import { PgrstError } from './pgrst-error.js';

/*
 * Constructors for PostgREST's own request and schema-cache errors (PGRST1xx and PGRST2xx),
 * with the status codes and wording of PostgREST 14 (src/PostgREST/Error.hs), so clients
 * written against PostgREST can match on them.
 */

/** PGRST100: a query parameter could not be parsed. */
export function queryParamError(message: string, details: string): PgrstError {
  return new PgrstError({ status: 400, code: 'PGRST100', message, details });
}

/**
 * PGRST102 for a JSON body nested deeper than the engine's `maxBodyDepth`. PostgREST has no
 * such bound; PostgreSQL would answer a deep enough body with "stack depth limit exceeded".
 */
export function bodyTooDeep(maxDepth: number): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST102',
    message: `The JSON body nests arrays and objects more than ${maxDepth} levels deep`,
    hint: `Send a body nested at most ${maxDepth} levels deep.`,
  });
}

/** PGRST101: RPC called with a method other than GET/HEAD/POST/OPTIONS. */
export function invalidRpcMethod(method: string): PgrstError {
  return new PgrstError({ status: 405, code: 'PGRST101', message: `Cannot use the ${method} method on RPC` });
}

/** PGRST102: the request body is not what the endpoint accepts. */
export function invalidBody(message: string): PgrstError {
  return new PgrstError({ status: 400, code: 'PGRST102', message });
}

/** Why a range was refused, worded as PostgREST does. */
export type RangeErrorKind =
  { kind: 'negative-limit' } | { kind: 'lower-gt-upper' } | { kind: 'out-of-bounds'; offset: bigint; total: number };

/** PGRST103: the requested range cannot be satisfied. */
export function invalidRange(range: RangeErrorKind): PgrstError {
  const details =
    range.kind === 'negative-limit'
      ? 'Limit should be greater than or equal to zero.'
      : range.kind === 'lower-gt-upper'
        ? 'The lower boundary must be lower than or equal to the upper boundary in the Range header.'
        : `An offset of ${range.offset} was requested, but there are only ${range.total} rows.`;
  return new PgrstError({ status: 416, code: 'PGRST103', message: 'Requested range not satisfiable', details });
}

/** PGRST105: PUT filters must be exactly the primary key with `eq`. */
export function invalidPutFilters(): PgrstError {
  return new PgrstError({
    status: 405,
    code: 'PGRST105',
    message: "Filters must include all and only primary key columns with 'eq' operators",
  });
}

/** PGRST106: the profile header names a schema that is not exposed. */
export function unacceptableSchema(schema: string, exposed: string[]): PgrstError {
  return new PgrstError({
    status: 406,
    code: 'PGRST106',
    message: `Invalid schema: ${schema}`,
    hint: `Only the following schemas are exposed: ${exposed.join(', ')}`,
  });
}

/** PGRST107: none of the accepted media types can be produced. */
export function mediaTypeError(mediaTypes: string[]): PgrstError {
  return new PgrstError({
    status: 406,
    code: 'PGRST107',
    message: `None of these media types are available: ${mediaTypes.join(', ')}`,
  });
}

/** PGRST108: a filter/order/limit targets a resource that is not embedded. */
export function notEmbedded(resource: string): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST108',
    message: `'${resource}' is not an embedded resource in this request`,
    hint: `Verify that '${resource}' is included in the 'select' query parameter.`,
  });
}

/** PGRST109: PATCH/DELETE with `limit`/`offset` but no `order` to pick the rows by. */
export function limitWithoutOrder(): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST109',
    message: "A 'limit' was applied without an explicit 'order'",
    hint: "Apply an 'order' using unique column(s)",
  });
}

/** PGRST110: a limited PATCH/DELETE changed more rows than its `limit` (order not unique). */
export function limitedChangeViolation(rows: number, limit: bigint): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST110',
    message: 'The maximum number of rows allowed to change was surpassed',
    details: `Results contain ${rows} rows changed but the maximum number allowed is ${limit}`,
  });
}

/** PGRST114: PUT does not take limit/offset. */
export function putLimitNotAllowed(): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST114',
    message: 'limit/offset querystring parameters are not allowed for PUT',
  });
}

/** PGRST115: PUT payload primary key differs from the URL filters. */
export function putMatchingPk(): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST115',
    message: 'Payload values do not match URL in primary key column(s)',
  });
}

/** PGRST116: `Accept: application/vnd.pgrst.object+json` but not exactly one row. */
export function singularityError(rows: number): PgrstError {
  return new PgrstError({
    status: 406,
    code: 'PGRST116',
    message: 'Cannot coerce the result to a single JSON object',
    details: `The result contains ${rows} rows`,
  });
}

/** PGRST117: an HTTP method the engine does not serve. */
export function unsupportedMethod(method: string): PgrstError {
  return new PgrstError({ status: 405, code: 'PGRST117', message: `Unsupported HTTP method: ${method}` });
}

/** PGRST118: ordering by an embedded resource that is not to-one. */
export function relatedOrderNotToOne(origin: string, target: string): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST118',
    message: `A related order on '${target}' is not possible`,
    details: `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
  });
}

/** PGRST120: only `is.null` / `not.is.null` may filter an embedded resource itself. */
export function unacceptableFilter(resource: string): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST120',
    message: `Bad operator on the '${resource}' embedded resource`,
    details: 'Only is null or not is null filters are allowed on embedded resources',
  });
}

/** PGRST122: unknown preferences with `Prefer: handling=strict`. */
export function invalidPreferences(prefs: string[]): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST122',
    message: 'Invalid preferences given with handling=strict',
    details: `Invalid preferences: ${prefs.join(', ')}`,
  });
}

/** PGRST123: aggregate functions are disabled (`db-aggregates-enabled`, off by default). */
export function aggregatesNotAllowed(): PgrstError {
  return new PgrstError({ status: 400, code: 'PGRST123', message: 'Use of aggregate functions is not allowed' });
}

/** PGRST124: `Prefer: max-affected` exceeded with `handling=strict`. */
export function maxAffectedViolation(rows: number): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST124',
    message: 'Query result exceeds max-affected preference constraint',
    details: `The query affects ${rows} rows`,
  });
}

/** PGRST125: a path with more segments than `relation` or `rpc/fn`. */
export function invalidResourcePath(): PgrstError {
  return new PgrstError({ status: 404, code: 'PGRST125', message: 'Invalid path specified in request URL' });
}

/** PGRST126: the root was asked for while `openapi-mode` is `disabled`. */
export function openApiDisabled(): PgrstError {
  return new PgrstError({ status: 404, code: 'PGRST126', message: 'Root endpoint metadata is disabled' });
}

/** PGRST128: `max-affected` with `handling=strict` on a function not returning a set. */
export function maxAffectedRpcViolation(): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST128',
    message: 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
  });
}

/** PGRST200: no relationship between two relations. */
export function noRelationship(
  parent: string,
  child: string,
  hintName: string | undefined,
  schema: string,
  suggestion: string | null,
): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST200',
    message: `Could not find a relationship between '${parent}' and '${child}' in the schema cache`,
    details: `Searched for a foreign key relationship between '${parent}' and '${child}${
      hintName !== undefined ? `' using the hint '${hintName}` : ''
    }' in the schema '${schema}', but no matches were found.`,
    hint: suggestion,
  });
}

/** PGRST201: more than one relationship matches an embed. */
export function ambiguousRelationship(parent: string, child: string, details: unknown[], hint: string): PgrstError {
  return new PgrstError({
    status: 300,
    code: 'PGRST201',
    message: `Could not embed because more than one relationship was found for '${parent}' and '${child}'`,
    details,
    hint,
  });
}

/** PGRST202: no function matches the name and argument names. */
export function noFunction(message: string, details: string, hint: string | null): PgrstError {
  return new PgrstError({ status: 404, code: 'PGRST202', message, details, hint });
}

/** PGRST203: several overloaded functions match. */
export function ambiguousFunction(message: string): PgrstError {
  return new PgrstError({
    status: 300,
    code: 'PGRST203',
    message,
    hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  });
}

/** PGRST204: a column named in the payload or `columns=` does not exist. */
export function columnNotFound(relation: string, column: string): PgrstError {
  return new PgrstError({
    status: 400,
    code: 'PGRST204',
    message: `Could not find the '${column}' column of '${relation}' in the schema cache`,
  });
}

/** PGRST205: the relation is not in the schema cache (or hidden by `authorize`). */
export function tableNotFound(schema: string, relation: string, suggestion: string | null): PgrstError {
  return new PgrstError({
    status: 404,
    code: 'PGRST205',
    message: `Could not find the table '${schema}.${relation}' in the schema cache`,
    hint: suggestion !== null ? `Perhaps you meant the table '${schema}.${suggestion}'` : null,
  });
}

/**
 * PGRST100 for a parameter beyond one of the parser's bounds (a JSON path deeper than
 * `MAX_JSON_PATH_DEPTH`). PostgREST has none and hands such paths to PostgreSQL, which fails
 * with "stack depth limit exceeded"; this says which bound was hit and how to stay within it.
 */
export function parseLimitExceeded(
  parameter: string,
  problem: string,
  excerpt: string,
  column: number,
  hint: string,
): PgrstError {
  const shown = excerpt.length > 60 ? `${excerpt.slice(0, 60)}…` : excerpt;
  return new PgrstError({
    status: 400,
    code: 'PGRST100',
    message: `The ${parameter} has ${problem}`,
    details: `At column ${column}: ${shown}`,
    hint,
  });
}

/**
 * PGRST100 for requests beyond the engine's bounds (URL length, nesting, embeds). PostgREST
 * has no such limits; the engine refuses instead of letting one request exhaust the server.
 */
export function requestTooComplex(details: string): PgrstError {
  return new PgrstError({ status: 400, code: 'PGRST100', message: 'Request too complex', details });
}
