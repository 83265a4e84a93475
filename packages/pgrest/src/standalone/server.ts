import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { PgrestEngine, PgrestOptions } from '../engine-types.js';
import { authenticate, JwkKeyRing } from './auth.js';
import type { StandaloneConfig } from './config.js';
import { createRequestListener } from './http.js';

/** Builds an engine; the standalone server normally uses the package's own `createPgrest`. */
export type EngineFactory = (options: PgrestOptions) => Promise<PgrestEngine>;

export type RunningServer = {
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  engine: PgrestEngine;
  pool: pg.Pool;
  /** Stops accepting requests, then closes the engine and the pool. */
  close: () => Promise<void>;
};

export type ServerDependencies = {
  createEngine?: EngineFactory;
  /** Where unexpected errors are reported; defaults to stderr. */
  onError?: (error: unknown) => void;
};

/**
 * The package's `createPgrest`, resolved when the server starts: the engine entry point is
 * built alongside this command and loading it lazily keeps the standalone layer usable (and
 * testable with an injected factory) independently of it.
 */
async function defaultEngineFactory(): Promise<EngineFactory> {
  const mod = (await import('../index.js')) as Record<string, unknown>;
  if (typeof mod.createPgrest !== 'function')
    throw new Error('the pgrest engine (createPgrest) is not available in this build');
  return mod.createPgrest as EngineFactory;
}

/** Engine options from the PostgREST-style configuration. */
export function engineOptions(config: StandaloneConfig, pool: pg.Pool): PgrestOptions {
  return {
    pool,
    schemas: config.dbSchemas,
    extraSearchPath: config.dbExtraSearchPath,
    txEnd: config.dbTxEnd,
    preparedStatements: config.dbPreparedStatements,
    ...(config.dbAnonRole !== undefined ? { anonRole: config.dbAnonRole } : {}),
    ...(config.dbPreRequest !== undefined ? { preRequest: config.dbPreRequest } : {}),
    ...(config.dbMaxRows !== undefined ? { maxRows: config.dbMaxRows } : {}),
    aggregates: config.dbAggregatesEnabled,
    settings: config.appSettings,
    serverTiming: config.serverTimingEnabled,
    openApiMode: config.openApiMode,
    ...(config.dbRootSpec !== undefined ? { rootSpec: config.dbRootSpec } : {}),
  };
}

/**
 * Starts the standalone server: a pool on `db-uri`, the engine over the configured schemas, and
 * a plain node HTTP server on `server-host:server-port` that authenticates each request with
 * PostgREST's JWT rules before handing it to the engine.
 */
export async function startServer(config: StandaloneConfig, deps: ServerDependencies = {}): Promise<RunningServer> {
  const onError = deps.onError ?? ((error: unknown) => console.error('pgrest: unexpected error:', error));
  const createEngine = deps.createEngine ?? (await defaultEngineFactory());
  // A JSON Web Key that cannot verify anything stops start-up, naming jwt-secret.
  const keys = config.jwtJwks ? new JwkKeyRing(config.jwtJwks) : undefined;
  await keys?.validate();
  const pool = new pg.Pool({
    ...(config.dbUri !== undefined ? { connectionString: config.dbUri } : {}),
    max: config.dbPool,
    application_name: 'pgrest',
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => onError(error));

  let engine: PgrestEngine;
  try {
    engine = await createEngine(engineOptions(config, pool));
  } catch (error) {
    await pool.end();
    throw error;
  }

  const settings = {
    secret: config.jwtSecret,
    ...(keys ? { keys } : {}),
    roleClaimKey: config.jwtRoleClaimKey,
    anonRole: config.dbAnonRole,
    audience: config.jwtAud,
  };
  const server = http.createServer(
    createRequestListener(engine, (headers) => authenticate(headers.authorization, settings), onError, {
      serverTiming: config.serverTimingEnabled,
      ...(config.serverTraceHeader !== undefined ? { traceHeader: config.serverTraceHeader } : {}),
    }),
  );

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.serverPort, config.serverHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await engine.close();
    await pool.end();
    throw error;
  }

  const { port } = server.address() as AddressInfo;
  const displayHost =
    config.serverHost === '0.0.0.0'
      ? '127.0.0.1'
      : config.serverHost === '::'
        ? '[::1]'
        : config.serverHost.includes(':')
          ? `[${config.serverHost}]`
          : config.serverHost;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${displayHost}:${port}`,
    port,
    engine,
    pool,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections would otherwise hold close() open.
          server.closeIdleConnections();
        });
        await engine.close();
        await pool.end();
      })();
      return closing;
    },
  };
}
