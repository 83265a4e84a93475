import type { PgrestCaller, PgrestEngine, PgrestOptions, PgrestRequest, PgrestResponse } from './engine-types.js';
import { requestTooComplex } from './errors/api-errors.js';
import { fromPgError, isPgError } from './errors/pg-error.js';
import { isPgrstError, PgrstError } from './errors/pgrst-error.js';
import { handleCall } from './http/call-handler.js';
import { allowsTxOverride, type EngineLimits, type EngineState } from './http/engine-state.js';
import { handleMutation } from './http/mutate-handler.js';
import { handleOptions, handleRoot } from './http/info-handler.js';
import { PhaseClock } from './http/phase-clock.js';
import { handleRead } from './http/read-handler.js';
import { buildRequestContext } from './http/request-context.js';
import { errorResponse } from './http/response.js';
import { SchemaCacheStore, type PgrestLogger } from './schema/schema-cache-store.js';

/** Options beyond the shared contract: a logger and request bounds. */
export type PgrestEngineOptions = PgrestOptions & {
  /** Where unexpected failures (500) and listener problems are reported. */
  logger?: PgrestLogger;
  /** Request bounds; defaults keep any single request cheap to refuse. */
  limits?: Partial<EngineLimits>;
  /** Skip `LISTEN pgrst` (schema reloads then only via reloadSchema()). */
  listen?: boolean;
};

const DEFAULT_LIMITS: EngineLimits = {
  maxQueryLength: 16_384,
  maxEmbeds: 64,
  maxBodyLength: 10 * 1024 * 1024,
  maxBodyDepth: 100,
};

/**
 * Creates the engine: loads the schema cache, listens for `NOTIFY pgrst`, and returns the
 * request handler. The pool stays owned by the caller.
 */
export async function createPgrest(options: PgrestEngineOptions): Promise<PgrestEngine> {
  if (options.schemas.length === 0) throw new Error('pgrest: at least one schema must be exposed');
  if (options.rootSpec !== undefined && options.rootSpec.trim() === '') throw new Error('pgrest: rootSpec is empty');
  const store = new SchemaCacheStore(options.pool, options.schemas, options.logger);
  await store.reload();
  if (options.listen !== false) {
    // Reloads on NOTIFY are a convenience: a failed LISTEN (e.g. behind a transaction
    // pooler) must not keep the engine from serving; the store retries in the background.
    await store.listen().catch((error: unknown) => {
      options.logger?.warn('pgrest: cannot LISTEN for schema reloads, retrying in the background', error);
      store.retryListen();
    });
  }
  const state: EngineState = {
    options,
    exec: { pool: options.pool, prepare: options.preparedStatements ?? true },
    store,
    ...(options.logger ? { logger: options.logger } : {}),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    appSettings: customSettings(options.settings),
  };
  return {
    handle: (request, caller) => handle(state, request, caller),
    reloadSchema: () => store.reload(),
    close: () => store.close(),
  };
}

/** A custom setting's name: dot-separated identifiers, at least two (PostgreSQL's rule). */
const CUSTOM_SETTING = /^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)+$/;

/** `options.settings` as pairs; a name PostgreSQL would refuse fails here rather than on every request. */
function customSettings(settings: PgrestEngineOptions['settings']): [string, string][] {
  const pairs = Object.entries(settings ?? {});
  for (const [name] of pairs) {
    if (!CUSTOM_SETTING.test(name)) {
      throw new Error(`pgrest: setting ${JSON.stringify(name)} is not a custom setting name such as app.settings.key`);
    }
  }
  return pairs;
}

/**
 * The handler's answer for the request. Not an async function: it hands back the handler's
 * own promise (one wrapped in another would cost each request extra turns of the microtask
 * queue); what it refuses up front it throws, and `handle` catches both alike.
 */
function dispatch(
  state: EngineState,
  request: PgrestRequest,
  caller: PgrestCaller | undefined,
  clock: PhaseClock | undefined,
): Promise<PgrestResponse> {
  if (request.query.length > state.limits.maxQueryLength) {
    throw requestTooComplex(`the query string is longer than ${state.limits.maxQueryLength} characters`);
  }
  if (request.body !== undefined && request.body.length > state.limits.maxBodyLength) {
    throw new PgrstError({ status: 413, code: 'PGRST102', message: 'Request body too large' });
  }
  const ctx = buildRequestContext(request, {
    schemas: state.options.schemas,
    allowTxOverride: allowsTxOverride(state),
    isTimezone: (name) => state.store.current.timezones.has(name),
    root: {
      disabled: state.options.openApiMode === 'disabled',
      ...(state.options.rootSpec !== undefined ? { spec: state.options.rootSpec } : {}),
    },
  });
  if (clock) {
    ctx.clock = clock;
    clock.lap('parse');
  }
  if (ctx.method === 'OPTIONS') return Promise.resolve(handleOptions(state, ctx, caller));
  switch (ctx.route.kind) {
    case 'root':
      return handleRoot(state, ctx, caller);
    case 'rpc':
      return handleCall(state, ctx, caller);
    case 'relation':
      return ctx.method === 'GET' || ctx.method === 'HEAD'
        ? handleRead(state, ctx, caller)
        : handleMutation(state, ctx, caller);
  }
}

/** Network-level failures reaching PostgreSQL (PostgREST answers these with 503). */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(error.message);
}

async function handle(
  state: EngineState,
  request: PgrestRequest,
  caller: PgrestCaller | undefined,
): Promise<PgrestResponse> {
  const clock = state.options.serverTiming ? new PhaseClock() : undefined;
  try {
    const response = await dispatch(state, request, caller, clock);
    if (!clock) return response;
    // PostgREST times the requests it answers; errors (thrown here) carry no Server-Timing.
    clock.lap('response');
    return { ...response, headers: { ...response.headers, 'Server-Timing': clock.header() } };
  } catch (error) {
    if (isPgrstError(error)) return errorResponse(error);
    if (isPgError(error)) {
      const mapped = fromPgError(error, caller?.role !== undefined);
      if (mapped.status >= 500) state.logger?.error('pgrest: database error', error);
      return errorResponse(mapped);
    }
    if (isConnectionError(error)) {
      state.logger?.error('pgrest: database connection error', error);
      return errorResponse(
        new PgrstError({ status: 503, code: 'PGRST001', message: 'Database client error. Retrying the connection.' }),
      );
    }
    state.logger?.error('pgrest: unexpected failure', error);
    return errorResponse(new PgrstError({ status: 500, code: 'PGRSTX00', message: 'Internal server error' }));
  }
}
