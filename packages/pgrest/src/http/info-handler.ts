import type { PgrestAccess, PgrestCaller, PgrestResponse } from '../engine-types.js';
import { noFunction } from '../errors/api-errors.js';
import { qualifiedKey } from '../schema/schema-types.js';
import { authorize, type EngineState } from './engine-state.js';
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
    const table = findTable(cache, ctx.schema, ctx.route.name);
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
    if (!routines || routines.length === 0) {
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
 * GET / : a small OpenAPI 2.0 description of the exposed relations and functions (a
 * subset of what PostgREST generates: paths and column names, enough for discovery). Like
 * PostgREST's default `openapi-mode` (follow-privileges), it lists only what the caller may
 * reach: relations and functions the authorize hook refuses are left out.
 */
export function handleRoot(state: EngineState, ctx: RequestContext, caller?: PgrestCaller): PgrestResponse {
  const cache = state.store.current;
  const paths: Record<string, unknown> = { '/': { get: { summary: 'OpenAPI description (this document)' } } };
  const definitions: Record<string, unknown> = {};
  for (const table of cache.tables.values()) {
    if (table.schema !== ctx.schema) continue;
    if (!visible(state, caller, describing(ctx, table.name, 'relation'))) continue;
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
      if (!visible(state, caller, describing(ctx, routine.name, 'function'))) continue;
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
