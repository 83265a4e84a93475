import { LRUCache } from 'lru-cache';
import type { PgrestCaller, PgrestResponse } from '../engine-types.js';
import { singularityError } from '../errors/api-errors.js';
import { runTransaction } from '../exec/transaction.js';
import { selectStatements, type SelectStatements } from '../exec/run-select.js';
import { preferenceApplied } from '../parser/preferences.js';
import { parseQueryParams } from '../parser/query-params.js';
import { headerPath } from '../parser/query-string.js';
import { buildReadPlan, type EmbedTarget } from '../plan/read-plan.js';
import { DeferredErrors } from '../plan/resolve-errors.js';
import type { PgrstError } from '../errors/pgrst-error.js';
import type { QualifiedName, SchemaCache, Table } from '../schema/schema-types.js';
import type { BodyFormat } from '../sql/output-sql.js';
import { qualified } from '../sql/sql-params.js';
import { authorize, shouldCommit, transactionSettings, visibleTo, type EngineState } from './engine-state.js';
import { topLevelRange } from './ranges.js';
import { checkPreferences, type RequestContext } from './request-context.js';
import { decodeHandlerBody, isDefaultSelect, negotiateMedia, type NegotiatedBody } from './media-handlers.js';
import { rangeErrorResponse, rangeStatus } from './response.js';
import { applyResponseGucs } from './response-gucs.js';
import { findTable } from './table-lookup.js';

/** Everything about a read that follows from the request alone, kept for identical requests. */
type PreparedRead = {
  table: Table;
  /** Embedded relations, in the order planning authorized them (replayed for each caller). */
  embedded: EmbedTarget[];
  offset: bigint;
  /** `Content-Location`: the relation and the canonical query string. */
  location: string;
  format: BodyFormat;
  contentType: string;
  /** A media type handler builds the body. */
  custom?: NegotiatedBody['custom'];
  select: SelectStatements;
  /** An unknown name PostgreSQL would refuse, raised once the other checks passed. */
  unresolved?: PgrstError;
};

/** `Content-Location` of a read: the relation's path, then the canonical query string if any. */
function contentLocation(relation: string, canonical: string): string {
  const path = `/${headerPath(relation)}`;
  return canonical !== '' ? `${path}?${canonical}` : path;
}

/** Most distinct reads remembered per schema cache. */
const READ_CACHE_SIZE = 500;
/** Longer query strings are planned every time, which bounds the cache's memory. */
const CACHEABLE_QUERY_LENGTH = 2048;

const readCaches = new WeakMap<EngineState, { schema: SchemaCache; reads: LRUCache<string, PreparedRead> }>();

/** The read cache of the current schema cache (a reload starts an empty one). */
function readCache(state: EngineState, schema: SchemaCache): LRUCache<string, PreparedRead> {
  const held = readCaches.get(state);
  if (held?.schema === schema) return held.reads;
  const reads = new LRUCache<string, PreparedRead>({ max: READ_CACHE_SIZE });
  readCaches.set(state, { schema, reads });
  return reads;
}

function authorizeRead(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
  relation: QualifiedName,
  embedded: boolean,
  kind: EmbedTarget['kind'] = 'relation',
): void {
  authorize(
    state,
    {
      relation: relation.name,
      schema: relation.schema,
      kind,
      action: 'read',
      method: ctx.method,
      embedded,
    },
    caller,
  );
}

/** Parses, plans and renders a read; authorizes the target and every embed on the way. */
function prepareRead(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
  name: string,
): PreparedRead {
  // The query string and Range are judged before the relation is looked up, as in PostgREST.
  const params = parseQueryParams(ctx.request.query);
  const range = topLevelRange(params, ctx.method, ctx.request.headers.range);
  params.ranges.set('', range);
  ctx.clock?.lap('parse');
  const cache = state.store.current;
  const visible = visibleTo(state, ctx.method, caller);
  const table = findTable(cache, ctx.schema, name, visible);
  authorizeRead(state, ctx, caller, table, false);
  const embedded: EmbedTarget[] = [];
  const deferred = new DeferredErrors();
  const root = buildReadPlan(
    {
      cache,
      schema: ctx.schema,
      ...(state.options.maxRows !== undefined ? { maxRows: state.options.maxRows } : {}),
      maxEmbeds: state.limits.maxEmbeds,
      aggregates: state.options.aggregates ?? false,
      ...(state.options.readThrough ? { readThrough: state.options.readThrough } : {}),
      ...(visible ? { visible } : {}),
      authorizeEmbed: (target) => {
        authorizeRead(state, ctx, caller, target, true, target.kind);
        embedded.push({ schema: target.schema, name: target.name, kind: target.kind });
      },
      deferred,
    },
    { relation: table, columns: table.columnsByName, requestName: table.name, computed: table.computedFields },
    params,
    'read',
  );
  const { format, contentType, custom } = negotiateMedia(ctx.accept, cache, {
    identifier: table,
    identifierKind: 'aggregate',
    defaultSelect: isDefaultSelect(params.select),
    allowCsv: true,
  });
  const select = selectStatements({
    root,
    fromSql: qualified(table),
    format,
    // HEAD has no body to build (PostgREST runs no handler for it).
    ...(custom && ctx.method !== 'HEAD' ? { bodyOverride: custom.sql } : {}),
    ...(ctx.prefs.count !== undefined ? { count: ctx.prefs.count } : {}),
    ...(state.options.maxRows !== undefined ? { maxRows: state.options.maxRows } : {}),
  });
  return {
    table,
    embedded,
    offset: root.offset,
    location: contentLocation(table.name, params.canonical),
    format,
    contentType,
    ...(custom ? { custom } : {}),
    select,
    ...(deferred.error ? { unresolved: deferred.error } : {}),
  };
}

/**
 * The remembered read's key: each part with its length in front (`-` for an absent one), so
 * no two different requests give the same key whatever their text. Cheaper than
 * JSON.stringify, which escapes every part.
 */
function readKey(parts: readonly (string | undefined)[]): string {
  let key = '';
  for (const part of parts) key += part === undefined ? '-' : `${part.length}:${part}`;
  return key;
}

/**
 * The read for this request: planned once per distinct request and schema cache, then
 * reused. What it depends on is the key: method, schema, relation, query string and the
 * Range, Accept and `Prefer: count` of the request. The caller is not part of it, so a
 * reused read authorizes the target and its embeds again, in the order planning did (a
 * refusal is then the same one planning would have met first). Failures are not kept.
 */
function readFor(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
  name: string,
): PreparedRead {
  const query = ctx.request.query;
  if (query.length > CACHEABLE_QUERY_LENGTH) return prepareRead(state, ctx, caller, name);
  const reads = readCache(state, state.store.current);
  const key = readKey([
    ctx.method,
    ctx.schema,
    name,
    query,
    ctx.request.headers.range,
    ctx.request.headers.accept,
    ctx.prefs.count,
  ]);
  const known = reads.get(key);
  if (known) {
    authorizeRead(state, ctx, caller, known.table, false);
    for (const target of known.embedded) authorizeRead(state, ctx, caller, target, true, target.kind);
    return known;
  }
  const prepared = prepareRead(state, ctx, caller, name);
  if (!prepared.unresolved) reads.set(key, prepared);
  return prepared;
}

/** GET/HEAD on a table or view. */
export async function handleRead(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
): Promise<PgrestResponse> {
  if (ctx.route.kind !== 'relation') throw new Error('handleRead needs a relation route');
  const { offset, location, format, contentType, custom, select, unresolved } = readFor(
    state,
    ctx,
    caller,
    ctx.route.name,
  );
  checkPreferences(ctx.prefs);
  // PostgreSQL would refuse an unknown name only now, when the statement runs.
  if (unresolved) throw unresolved;
  ctx.clock?.lap('plan');
  // Nothing read decides the transaction's end: the whole request is one round trip.
  const result = select.result(
    await runTransaction(
      state.exec,
      transactionSettings(state, ctx, caller, true),
      select.statements,
      shouldCommit(state, ctx),
    ),
  );
  ctx.clock?.lap('transaction');
  if (format.kind === 'object' && result.page !== 1) throw singularityError(result.page);
  const shownTotal =
    ctx.prefs.count === 'planned' || ctx.prefs.count === 'exact' || ctx.prefs.count === 'estimated'
      ? result.total
      : undefined;
  const ranged = rangeStatus(offset, result.page, shownTotal);
  const headers: Record<string, string> = { 'Content-Type': contentType, 'Content-Range': ranged.contentRange };
  headers['Content-Location'] = location;
  if (ctx.negotiatedByProfile) headers['Content-Profile'] = ctx.schema;
  const applied = preferenceApplied(ctx.prefs, ['count', 'tx', 'handling', 'timezone']);
  if (applied !== undefined) headers['Preference-Applied'] = applied;
  const final = applyResponseGucs(ranged.status, headers, result.gucHeaders, result.gucStatus);
  // HEAD has no body, a 416 included (PostgREST sends it no Content-Length either).
  if (ctx.method === 'HEAD') return { status: final.status, headers: final.headers, body: '' };
  // A 416 keeps the read's headers (PostgREST answers it like the read, with an error body).
  if (ranged.error) return rangeErrorResponse(ranged.error, final);
  if (custom)
    return { status: final.status, headers: final.headers, ...decodeHandlerBody(result.body, custom.decoding) };
  return { status: final.status, headers: final.headers, body: result.body };
}
