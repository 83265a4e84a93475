import type { PgrestAccess, PgrestCaller, PgrestResponse } from '../engine-types.js';
import { noFunction } from '../errors/api-errors.js';
import { qualifiedKey } from '../schema/schema-types.js';
import { runTransaction } from '../exec/transaction.js';
import { authorize, shouldCommit, transactionSettings, visibleTo, type EngineState } from './engine-state.js';
import type { RequestContext } from './request-context.js';
import { findTable } from './table-lookup.js';

/** The access a description of `name` amounts to: reading it (its existence and columns). */
function describing(ctx: RequestContext, name: string, kind: PgrestAccess['kind']): PgrestAccess {
  return { relation: name, schema: ctx.schema, kind, action: 'read', method: ctx.method, embedded: false };
}

/** Whether the authorize hook lets the caller see `name` (no hook: everything is visible). */
function visible(state: EngineState, caller: PgrestCaller | undefined, access: PgrestAccess): boolean {
  const hook = state.options.authorize;
  return !hook || hook(access, caller ?? {}).allowed;
}

/**
 * OPTIONS: the methods a resource allows, as PostgREST lists them. Describing a resource
 * reveals that it exists, so it is authorized like a read of it.
 */
export function handleOptions(state: EngineState, ctx: RequestContext, caller?: PgrestCaller): PgrestResponse {
  const cache = state.store.current;
  let allow = 'OPTIONS,GET,HEAD';
  if (ctx.route.kind === 'relation') {
    const table = findTable(cache, ctx.schema, ctx.route.name, visibleTo(state, ctx.method, caller));
    authorize(state, describing(ctx, table.name, 'relation'), caller);
    const hasPk = table.primaryKey.length > 0;
    allow = [
      'OPTIONS,GET,HEAD',
      ...(table.insertable ? ['POST'] : []),
      ...(table.insertable && table.updatable && hasPk ? ['PUT'] : []),
      ...(table.updatable ? ['PATCH'] : []),
      ...(table.deletable ? ['DELETE'] : []),
    ].join(',');
  } else if (ctx.route.kind === 'rpc') {
    const routines = cache.routines.get(qualifiedKey({ schema: ctx.schema, name: ctx.route.name }));
    const shown = visibleTo(
      state,
      ctx.method,
      caller,
    )?.({ schema: ctx.schema, name: ctx.route.name, kind: 'function' });
    if (!routines || routines.length === 0 || shown === false) {
      throw noFunction(
        `Could not find the function ${ctx.schema}.${ctx.route.name} without parameters in the schema cache`,
        `Searched for the function ${ctx.schema}.${ctx.route.name} without parameters, but no matches were found in the schema cache.`,
        null,
      );
    }
    authorize(state, describing(ctx, ctx.route.name, 'function'), caller);
    allow = routines.every((routine) => routine.volatility === 'volatile') ? 'OPTIONS,POST' : 'OPTIONS,GET,HEAD,POST';
  }
  return { status: 200, headers: { 'Access-Control-Allow-Origin': '*', Allow: allow }, body: '' };
}

/**
 * The names the request's role has a privilege on in `schema`, as PostgREST's
 * follow-privileges description reads them: relations it owns (or is a member of the owner
 * of) or holds any table or column privilege on, partitions excluded, and the functions it
 * may execute. Run in the request's read-only transaction, so `SET ROLE` applies; a schema
 * that does not exist has none.
 */
const ACCESSIBLE_NAMES_SQL =
  `SELECT 'relation' AS "kind", c.relname AS "name" FROM pg_catalog.pg_class c ` +
  `JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace ` +
  `WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'f', 'p') AND NOT c.relispartition ` +
  `AND (pg_catalog.pg_has_role(c.relowner, 'USAGE') ` +
  `OR pg_catalog.has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') ` +
  `OR pg_catalog.has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES')) ` +
  `UNION ALL SELECT 'function', p.proname FROM pg_catalog.pg_proc p ` +
  `JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace ` +
  `WHERE n.nspname = $1 AND p.prokind = 'f' AND pg_catalog.has_function_privilege(p.oid, 'EXECUTE')`;

async function accessibleNames(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
): Promise<Set<string>> {
  const [rows = []] = await runTransaction(
    state.exec,
    transactionSettings(state, ctx, caller, true),
    [{ text: ACCESSIBLE_NAMES_SQL, values: [ctx.schema], prepare: true }],
    shouldCommit(state, ctx),
  );
  return new Set(rows.map((row) => `${row.kind ?? ''}:${row.name ?? ''}`));
}

/**
 * GET / : a small OpenAPI 2.0 description of the exposed relations and functions (a
 * subset of what PostgREST generates: paths and column names, enough for discovery), of what
 * `openApiMode` lets the caller see: with `follow-privileges` (the default) what the request's
 * role has a privilege on and the authorize hook allows; with `ignore-privileges` everything the
 * hook does not hide. (`disabled`, and `rootSpec`, never reach this handler.)
 */
export async function handleRoot(
  state: EngineState,
  ctx: RequestContext,
  caller?: PgrestCaller,
): Promise<PgrestResponse> {
  const cache = state.store.current;
  const followPrivileges = (state.options.openApiMode ?? 'follow-privileges') === 'follow-privileges';
  ctx.clock?.lap('plan');
  const privileged = followPrivileges ? await accessibleNames(state, ctx, caller) : undefined;
  ctx.clock?.lap('transaction');
  const shown = (name: string, kind: PgrestAccess['kind']): boolean => {
    if (privileged) return privileged.has(`${kind}:${name}`) && visible(state, caller, describing(ctx, name, kind));
    const hook = state.options.authorize;
    const verdict = hook?.(describing(ctx, name, kind), caller ?? {});
    return !verdict || verdict.allowed || verdict.status !== 404;
  };
  const paths: Record<string, unknown> = { '/': { get: { summary: 'OpenAPI description (this document)' } } };
  const definitions: Record<string, unknown> = {};
  for (const table of cache.tables.values()) {
    if (table.schema !== ctx.schema) continue;
    if (!shown(table.name, 'relation')) continue;
    paths[`/${table.name}`] = {
      get: { tags: [table.name], ...(table.description ? { summary: table.description } : {}) },
      ...(table.insertable ? { post: { tags: [table.name] } } : {}),
      ...(table.updatable ? { patch: { tags: [table.name] } } : {}),
      ...(table.deletable ? { delete: { tags: [table.name] } } : {}),
    };
    definitions[table.name] = {
      type: 'object',
      ...(table.primaryKey.length > 0 ? { required: table.primaryKey } : {}),
      properties: Object.fromEntries(table.columns.map((column) => [column.name, { format: column.type }])),
    };
  }
  for (const routines of cache.routines.values()) {
    for (const routine of routines) {
      if (routine.schema !== ctx.schema) continue;
      if (!shown(routine.name, 'function')) continue;
      paths[`/rpc/${routine.name}`] = {
        post: { tags: ['(rpc) ' + routine.name] },
        ...(routine.volatility !== 'volatile' ? { get: { tags: ['(rpc) ' + routine.name] } } : {}),
      };
    }
  }
  const body = JSON.stringify({
    swagger: '2.0',
    info: { title: 'PostgREST-compatible API', version: '14' },
    basePath: '/',
    schemes: ['http'],
    consumes: ['application/json', 'text/csv'],
    produces: ['application/json', 'text/csv'],
    paths,
    definitions,
  });
  return {
    status: 200,
    headers: {
      'Content-Type': 'application/openapi+json; charset=utf-8',
      ...(ctx.negotiatedByProfile ? { 'Content-Profile': ctx.schema } : {}),
    },
    body: ctx.method === 'HEAD' ? '' : body,
  };
}
