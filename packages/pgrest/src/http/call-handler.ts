import type { PgrestCaller, PgrestResponse } from '../engine-types.js';
import { maxAffectedRpcViolation, maxAffectedViolation, singularityError } from '../errors/api-errors.js';
import { selectStatements, type SelectResult } from '../exec/run-select.js';
import { runInTransaction, runTransaction } from '../exec/transaction.js';
import { preferenceApplied } from '../parser/preferences.js';
import { parseQueryParams } from '../parser/query-params.js';
import { decodeComponent } from '../parser/query-string.js';
import { findRoutine, rawBodyParamType } from '../plan/find-routine.js';
import { buildReadPlan, type RootSource } from '../plan/read-plan.js';
import { DeferredErrors } from '../plan/resolve-errors.js';
import { qualifiedKey, type Column, type Routine } from '../schema/schema-types.js';
import { callCteSql, type CallArgs } from '../sql/call-sql.js';
import { quoteIdent } from '../sql/sql-params.js';
import {
  authorize,
  embedReadAccess,
  shouldCommit,
  transactionSettings,
  visibleTo,
  type EngineState,
} from './engine-state.js';
import { parseJsonBody } from './json-body.js';
import { parsePayload } from './payload.js';
import { bodyBytes, parsedBodyText, utf8Text } from './request-body.js';
import { topLevelRange } from './ranges.js';
import { checkPreferences, type RequestContext } from './request-context.js';
import { decodeHandlerBody, isDefaultSelect, negotiateMedia } from './media-handlers.js';
import { rangeErrorResponse, rangeStatus } from './response.js';
import { applyResponseGucs } from './response-gucs.js';

/**
 * The arguments of a form body: the last value of a repeated key, except for VARIADIC
 * parameters, which take every value as an array (as repeated query parameters do on GET).
 */
function formArguments(body: string, variadicNames: Set<string>): Record<string, unknown> {
  const values = new Map<string, string[]>();
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1));
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return Object.fromEntries(
    [...values].map(([key, list]) => [key, variadicNames.has(key) ? list : (list[list.length - 1] ?? '')]),
  );
}

function rootFor(state: EngineState, routine: Routine): RootSource {
  const cache = state.store.current;
  if (routine.returns.kind === 'composite') {
    const table = routine.returns.relation ? cache.tables.get(qualifiedKey(routine.returns.relation)) : undefined;
    if (table)
      return { relation: table, columns: table.columnsByName, requestName: table.name, computed: table.computedFields };
    const columns = routine.returns.columns ?? [];
    return {
      relation: { schema: routine.schema, name: routine.name },
      columns: new Map(columns.map((column) => [column.name, column])),
      requestName: routine.name,
    };
  }
  const column: Column = {
    name: routine.name,
    type: routine.returns.type,
    baseType: routine.returns.type,
    nullable: true,
    default: null,
    position: 1,
    generated: false,
  };
  return {
    relation: { schema: routine.schema, name: routine.name },
    columns: new Map([[routine.name, column]]),
    requestName: routine.name,
  };
}

/** GET/HEAD/POST on /rpc/<function>. */
export async function handleCall(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
): Promise<PgrestResponse> {
  if (ctx.route.kind !== 'rpc') throw new Error('handleCall needs an rpc route');
  const cache = state.store.current;
  const isPost = ctx.method === 'POST';
  const params = parseQueryParams(ctx.request.query, { isRpcRead: !isPost });

  let args: CallArgs;
  let keys: Set<string>;
  let bodyText = '{}';
  const overloads = cache.routines.get(qualifiedKey({ schema: ctx.schema, name: ctx.route.name })) ?? [];
  const variadicNames = new Set(overloads.flatMap((r) => r.params.filter((p) => p.variadic).map((p) => p.name)));
  const rawType = rawBodyParamType(isPost, ctx.contentType);
  if (rawType !== undefined) {
    // A text, xml or binary body is one argument, never a set of named ones: bytes for a
    // bytea parameter, byte for byte, else its text (or its bytes when they are not UTF-8).
    keys = new Set<string>();
    const body = ctx.request.body ?? '';
    args = { kind: 'single', body: rawType === 'bytea' ? bodyBytes(body) : (utf8Text(body) ?? bodyBytes(body)) };
  } else if (isPost) {
    const raw = parsedBodyText(ctx.request.body, ctx.contentType);
    bodyText = raw === undefined || raw.trim() === '' ? '{}' : raw;
    if (ctx.contentType.kind === 'form') {
      bodyText = JSON.stringify(formArguments(raw ?? '', variadicNames));
    } else if (ctx.contentType.kind === 'csv') {
      // PostgREST reads a CSV body as rows and calls the function with the first one.
      const payload = parsePayload(raw, ctx.contentType, undefined, state.limits.maxBodyDepth);
      bodyText = JSON.stringify(payload.rows[0] ?? Object.fromEntries(payload.keys.map((key) => [key, null])));
    }
    const parsed = parseJsonBody(bodyText, state.limits.maxBodyDepth);
    // An array body calls the function with its first object, as PostgREST does.
    let isArray = Array.isArray(parsed);
    let first: unknown = isArray ? (parsed as unknown[])[0] : parsed;
    const isObject = typeof first === 'object' && first !== null && !Array.isArray(first);
    if (params.columns !== undefined && isObject) {
      // `?columns=` names the arguments; other keys of the body are ignored.
      const object = first as Record<string, unknown>;
      first = Object.fromEntries(params.columns.filter((key) => key in object).map((key) => [key, object[key]]));
      bodyText = JSON.stringify(first);
      isArray = false;
      keys = new Set(params.columns);
    } else {
      keys = isObject ? new Set(Object.keys(first as object)) : new Set<string>();
    }
    args = { kind: 'json', body: bodyText, keys: [...keys], isArray };
  } else {
    const values = new Map<string, string[]>();
    for (const { name, value } of params.rpcParams) values.set(name, [...(values.get(name) ?? []), value]);
    keys = new Set(values.keys());
    args = { kind: 'direct', values: new Map() };
    for (const [name, list] of values) {
      args.values.set(name, variadicNames.has(name) ? list : (list[list.length - 1] ?? ''));
    }
  }
  ctx.clock?.lap('parse');
  const visible = visibleTo(state, ctx.method, caller);
  const routine = findRoutine(cache, ctx.schema, ctx.route.name, keys, isPost, ctx.contentType, visible);
  // A single unnamed json/jsonb parameter receives the whole body (PostgREST's fallback).
  if (isPost && args.kind === 'json' && routine.params.length === 1 && routine.params[0]?.name === '') {
    args = { kind: 'single', body: bodyText };
  }
  authorize(
    state,
    {
      relation: routine.name,
      schema: routine.schema,
      kind: 'function',
      action: isPost ? 'write' : 'read',
      method: ctx.method,
      embedded: false,
    },
    caller,
  );
  const setOf = routine.returns.setOf;
  const range = topLevelRange(params, ctx.method, ctx.request.headers.range);
  params.ranges.set('', range);
  const source = rootFor(state, routine);
  const scalar = routine.returns.kind !== 'composite';
  const deferred = new DeferredErrors();
  const root = buildReadPlan(
    {
      cache,
      schema: ctx.schema,
      ...(state.options.maxRows !== undefined ? { maxRows: state.options.maxRows } : {}),
      maxEmbeds: state.limits.maxEmbeds,
      aggregates: state.options.aggregates ?? false,
      ...(state.options.readThrough ? { readThrough: state.options.readThrough } : {}),
      authorizeEmbed: embedReadAccess(state, ctx.method, caller),
      ...(visible ? { visible } : {}),
      deferred,
    },
    source,
    scalar ? { ...params, select: [{ type: 'field', field: { name: '*', jsonPath: [] } }] } : params,
    'call',
  );
  // Handlers of the relation a function returns apply to its rows; a scalar function's own
  // media type domain is registered under the function.
  const returnedRelation = routine.returns.kind === 'composite' ? routine.returns.relation : undefined;
  const { format, contentType, custom } = negotiateMedia(ctx.accept, cache, {
    identifier: returnedRelation ?? routine,
    identifierKind: returnedRelation ? 'aggregate' : 'function',
    defaultSelect: isDefaultSelect(params.select),
    ...(scalar ? { scalarColumn: routine.name } : {}),
    allowCsv: !scalar,
  });
  // PostgREST's order once the call is planned: 406, then PGRST122, then PGRST128.
  checkPreferences(ctx.prefs);
  if (ctx.prefs.maxAffected !== undefined && ctx.prefs.handling === 'strict' && !setOf) throw maxAffectedRpcViolation();
  // PostgreSQL would refuse an unknown name only now, when the statement runs.
  deferred.raise();
  const column = quoteIdent(routine.name);
  let bodyOverride: string | undefined;
  if (custom) {
    bodyOverride = ctx.method === 'HEAD' ? `''` : custom.sql;
  } else if (scalar) {
    bodyOverride = setOf
      ? `coalesce(json_agg("_r".${column}), '[]'::json)::text`
      : `coalesce((json_agg("_r".${column})->0)::text, 'null')`;
  } else if (!setOf && format.kind !== 'csv') {
    bodyOverride =
      (format.kind === 'object' && format.stripNulls) || (format.kind === 'array' && format.stripNulls)
        ? `json_strip_nulls(json_agg("_r")->0)::text`
        : `coalesce((json_agg("_r")->0)::text, 'null')`;
  }
  const readOnly = !isPost || routine.volatility !== 'volatile';
  const select = selectStatements({
    root,
    fromSql: '"pgrst_call"',
    prelude: (sqlParams) => callCteSql(routine, args, sqlParams),
    format,
    ...(bodyOverride !== undefined ? { bodyOverride } : {}),
    ...(ctx.prefs.count !== undefined ? { count: ctx.prefs.count } : {}),
    ...(state.options.maxRows !== undefined ? { maxRows: state.options.maxRows } : {}),
    call: true,
  });
  const maxAffected = ctx.prefs.handling === 'strict' ? ctx.prefs.maxAffected : undefined;
  const checkResult = (selected: SelectResult): SelectResult => {
    if (maxAffected !== undefined && selected.page > maxAffected) throw maxAffectedViolation(selected.page);
    if (format.kind === 'object' && setOf && selected.page !== 1) throw singularityError(selected.page);
    return selected;
  };
  const settings = transactionSettings(state, ctx, caller, readOnly);
  ctx.clock?.lap('plan');
  // A read-only call whose result cannot be refused runs as one round trip; otherwise the
  // checks on its result decide whether the transaction commits.
  const result =
    readOnly && maxAffected === undefined && !(format.kind === 'object' && setOf)
      ? select.result(await runTransaction(state.exec, settings, select.statements, shouldCommit(state, ctx)))
      : await runInTransaction(state.exec, settings, async (client) => ({
          value: checkResult(select.result(await client.run(select.statements))),
          commit: shouldCommit(state, ctx),
        }));
  ctx.clock?.lap('transaction');
  const shownTotal = ctx.prefs.count !== undefined ? result.total : undefined;
  const ranged = rangeStatus(root.offset, result.page, shownTotal);
  const headers: Record<string, string> = { 'Content-Range': ranged.contentRange };
  const applied = preferenceApplied(ctx.prefs, ['count', 'tx', 'handling', 'timezone', 'maxAffected']);
  if (applied !== undefined) headers['Preference-Applied'] = applied;
  if (routine.returns.kind === 'void') {
    const final = applyResponseGucs(204, headers, result.gucHeaders, result.gucStatus);
    return { status: final.status, headers: final.headers, body: '' };
  }
  headers['Content-Type'] = contentType;
  if (ctx.negotiatedByProfile) headers['Content-Profile'] = ctx.schema;
  const final = applyResponseGucs(ranged.status, headers, result.gucHeaders, result.gucStatus);
  if (ctx.method === 'HEAD') return { status: final.status, headers: final.headers, body: '' };
  if (ranged.error) return rangeErrorResponse(ranged.error, final);
  if (custom)
    return { status: final.status, headers: final.headers, ...decodeHandlerBody(result.body, custom.decoding) };
  return { status: final.status, headers: final.headers, body: result.body };
}
