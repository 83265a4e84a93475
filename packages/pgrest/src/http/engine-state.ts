import type { PgrestAccess, PgrestCaller, PgrestMethod, PgrestOptions } from '../engine-types.js';
import { PgrstError } from '../errors/pgrst-error.js';
import type { PgrestLogger, SchemaCacheStore } from '../schema/schema-cache-store.js';
import type { Executor, TransactionSettings } from '../exec/transaction.js';
import type { RequestContext } from './request-context.js';
import type { EmbedTarget } from '../plan/read-plan.js';

/** Bounds on what one request may ask for, so no request can exhaust the server. */
export type EngineLimits = {
  /** Longest accepted query string, in characters. */
  maxQueryLength: number;
  /** Most embedded resources in one select. */
  maxEmbeds: number;
  /** Largest accepted request body, in characters. */
  maxBodyLength: number;
  /** Deepest nesting of arrays and objects in a JSON body. */
  maxBodyDepth: number;
};

/** Everything request handlers share. */
export type EngineState = {
  options: PgrestOptions;
  /** The pool and how statements are sent. */
  exec: Executor;
  store: SchemaCacheStore;
  logger?: PgrestLogger;
  limits: EngineLimits;
  /** `options.settings` as (name, value) pairs, in a fixed order. */
  appSettings: readonly (readonly [string, string])[];
};

/**
 * The authorization of what a request reads besides its target: embedded relations and the
 * functions of computed fields and relationships, all checked for `read`.
 */
export function embedReadAccess(
  state: EngineState,
  method: PgrestMethod,
  caller: PgrestCaller | undefined,
): (target: EmbedTarget) => void {
  return (target) =>
    authorize(
      state,
      { relation: target.name, schema: target.schema, kind: target.kind, action: 'read', method, embedded: true },
      caller,
    );
}

/** PostgREST's code for each kind of refusal of the `authorize` hook. */
const REFUSAL_CODES = { 401: 'PGRST302', 403: '42501', 405: 'PGRST117' } as const;

/** Calls the `authorize` hook and turns a refusal into PostgREST's error body. */
export function authorize(state: EngineState, access: PgrestAccess, caller: PgrestCaller | undefined): void {
  const verdict = state.options.authorize?.(access, caller ?? {});
  if (!verdict || verdict.allowed) return;
  // 404 hides the relation the way a missing one would (lookups normally find it hidden
  // first, see `visibleTo`); 403 is a privilege error (42501, as PostgreSQL reports it); 401
  // asks for credentials (PGRST302, anonymous access); 405 refuses this write (PGRST117).
  const code =
    verdict.status === 404 ? (access.kind === 'function' ? 'PGRST202' : 'PGRST205') : REFUSAL_CODES[verdict.status];
  throw new PgrstError({
    status: verdict.status,
    code,
    message: verdict.message,
    ...(verdict.status === 401 ? { headers: { 'WWW-Authenticate': 'Bearer' } } : {}),
  });
}

/** Whether the request may see a relation or function: the hook does not hide it (404). */
export type Visibility = (target: EmbedTarget) => boolean;

/**
 * The `authorize` hook's view of what exists, for name lookups: a relation or function it
 * answers 404 for is treated as missing (no target, no embedding candidate, no computed field,
 * no close-name hint). Undefined when there is no hook, so lookups skip the question.
 */
export function visibleTo(
  state: EngineState,
  method: PgrestMethod,
  caller: PgrestCaller | undefined,
): Visibility | undefined {
  const hook = state.options.authorize;
  if (!hook) return undefined;
  return (target) => {
    const verdict = hook(
      { relation: target.name, schema: target.schema, kind: target.kind, action: 'read', method, embedded: true },
      caller ?? {},
    );
    return verdict.allowed || verdict.status !== 404;
  };
}

/** Transaction settings for a request. */
export function transactionSettings(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
  readOnly: boolean,
): TransactionSettings {
  const role = caller?.role ?? state.options.anonRole;
  return {
    readOnly,
    ...(role !== undefined ? { role } : {}),
    ...(caller?.claims !== undefined ? { claims: caller.claims } : {}),
    method: ctx.method,
    path: `/${ctx.request.path}`,
    headers: ctx.request.headers,
    statementTimeoutMs: state.options.statementTimeoutMs ?? 30_000,
    ...(state.options.preRequest !== undefined ? { preRequest: state.options.preRequest } : {}),
    searchPath: searchPathOf(state, ctx.schema),
    ...(ctx.prefs.timezone !== undefined ? { timezone: ctx.prefs.timezone } : {}),
    ...(state.appSettings.length > 0 ? { appSettings: state.appSettings } : {}),
  };
}

/** Each engine's search path per request schema, worked out once (the options do not change). */
const searchPaths = new WeakMap<EngineState, Map<string, readonly string[]>>();

/** The request's schema, then db-extra-search-path, each schema once. */
function searchPathOf(state: EngineState, schema: string): readonly string[] {
  let bySchema = searchPaths.get(state);
  if (!bySchema) {
    bySchema = new Map();
    searchPaths.set(state, bySchema);
  }
  let path = bySchema.get(schema);
  if (!path) {
    // Only exposed schemas get here (others are refused first), so the map stays small.
    path = Object.freeze([...new Set([schema, ...(state.options.extraSearchPath ?? ['public'])])]);
    bySchema.set(schema, path);
  }
  return path;
}

/** Whether the transaction commits, from `txEnd` and an allowed `Prefer: tx=`. */
export function shouldCommit(state: EngineState, ctx: RequestContext): boolean {
  const txEnd = state.options.txEnd ?? 'commit';
  if (ctx.prefs.tx !== undefined) return ctx.prefs.tx === 'commit';
  return txEnd.startsWith('commit');
}

/** Whether `Prefer: tx=` may override the configured transaction end. */
export function allowsTxOverride(state: EngineState): boolean {
  return (state.options.txEnd ?? 'commit').endsWith('allow-override');
}
