import { createPgrest, type PgrestEngineOptions } from '../../src/engine.js';
import type { PgrestCaller, PgrestEngine, PgrestMethod } from '../../src/engine-types.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

/** A response with parsed JSON, for assertions. */
export type EngineResponse = { status: number; headers: Record<string, string>; body: string; json: unknown };

/** An engine over a fresh database with `setupSql` applied. */
export type EngineHarness = {
  db: TestDatabase;
  engine: PgrestEngine;
  request: (
    method: PgrestMethod,
    pathAndQuery: string,
    init?: { body?: unknown; headers?: Record<string, string>; caller?: PgrestCaller },
  ) => Promise<EngineResponse>;
  get: (pathAndQuery: string, headers?: Record<string, string>) => Promise<EngineResponse>;
  close: () => Promise<void>;
};

/** Starts an engine for one test file. */
export async function startEngine(
  setupSql: string,
  options: Partial<PgrestEngineOptions> = {},
): Promise<EngineHarness> {
  const db = await createTestDatabase(setupSql);
  const engine = await createPgrest({ pool: db.pool, schemas: ['public'], ...options });
  const request: EngineHarness['request'] = async (method, pathAndQuery, init = {}) => {
    const [path = '', query = ''] = pathAndQuery.replace(/^\//, '').split(/\?(.*)/s);
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
    const response = await engine.handle(
      { method, path, query, headers: lower, ...(body !== undefined ? { body } : {}) },
      init.caller,
    );
    let json: unknown;
    try {
      json = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    const responseHeaders = Object.fromEntries(
      Object.entries(response.headers).map(([key, value]) => [
        key.toLowerCase(),
        Array.isArray(value) ? value.join(', ') : value,
      ]),
    );
    return { status: response.status, headers: responseHeaders, body: response.body, json };
  };
  return {
    db,
    engine,
    request,
    get: (pathAndQuery, headers) => request('GET', pathAndQuery, headers ? { headers } : {}),
    close: async () => {
      await engine.close();
      await db.drop();
    },
  };
}
