import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { PgrestCaller, PgrestEngine, PgrestMethod, PgrestOptions, PgrestRequest } from '../../src/engine-types.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

/**
 * Shared harness of the PostgREST 14 conformance suite. Every expectation in this folder is
 * derived from PostgREST's documentation and its own Haskell test-suite, never from this
 * engine's behaviour, so a failing case means "differs from PostgREST".
 */

/** The SQL every conformance file loads into its own fresh database. */
export const FIXTURES_SQL = readFileSync(new URL('./fixtures.sql', import.meta.url), 'utf8');

/** PostgREST's JSON content type, as sent on every JSON body (data and errors). */
export const JSON_CT = 'application/json; charset=utf-8';
/** Content type of a singular (`application/vnd.pgrst.object+json`) response. */
export const OBJECT_CT = 'application/vnd.pgrst.object+json; charset=utf-8';
/** Content type of a CSV response. */
export const CSV_CT = 'text/csv; charset=utf-8';

/** The Accept value that asks PostgREST for a single object instead of an array. */
export const SINGULAR = 'application/vnd.pgrst.object+json';

/** A response as the tests see it: lower-cased header names, raw text and parsed JSON. */
export type TestResponse = {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body when it is non-empty JSON; `undefined` otherwise. */
  json: unknown;
};

export type TestRequestInit = {
  headers?: Record<string, string>;
  /**
   * A string or bytes (`Uint8Array`) are sent as they are; anything else is JSON-encoded with
   * `Content-Type: application/json`.
   */
  body?: unknown;
  caller?: PgrestCaller;
};

export type Conformance = {
  request: (method: PgrestMethod, pathAndQuery: string, init?: TestRequestInit) => Promise<TestResponse>;
  get: (pathAndQuery: string, headers?: Record<string, string>) => Promise<TestResponse>;
  db: TestDatabase;
  engine: PgrestEngine;
  close: () => Promise<void>;
};

type CreatePgrest = (options: PgrestOptions) => Promise<PgrestEngine>;

/**
 * Loads `createPgrest` at run time so this suite type-checks before the engine exists; until the
 * engine lands every case fails here with one clear message instead of a compile error.
 */
async function loadCreatePgrest(): Promise<CreatePgrest> {
  const mod = (await import('../../src/index.js')) as Record<string, unknown>;
  const create = mod.createPgrest;
  if (typeof create !== 'function') throw new Error('packages/pgrest/src/index.ts does not export createPgrest yet');
  return create as CreatePgrest;
}

/**
 * Percent-encodes what a real HTTP client would (spaces, quotes, braces, brackets, carets...),
 * leaving PostgREST's own syntax characters and existing `%XX` escapes untouched, so test URLs
 * can be written readably (`name=eq.Jane Roe`) and still reach the engine as a raw query string.
 */
export function encodeQuery(query: string): string {
  let out = '';
  for (let i = 0; i < query.length; i++) {
    const ch = query.charAt(i);
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(query.slice(i + 1, i + 3))) {
      out += ch;
    } else if (/[A-Za-z0-9\-_.~!$&'()*+,;=:@/?]/.test(ch)) {
      out += ch;
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

/** Splits `/books?select=id` into the engine's `path` and raw `query`. */
export function splitPath(pathAndQuery: string): { path: string; query: string } {
  const q = pathAndQuery.indexOf('?');
  const rawPath = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const rawQuery = q === -1 ? '' : pathAndQuery.slice(q + 1);
  return { path: rawPath.replace(/^\/+/, ''), query: encodeQuery(rawQuery) };
}

/**
 * A fresh database with the fixtures and an engine over it (`schemas: ['test']` unless told
 * otherwise). One per test file keeps files independent and lets them run in parallel.
 */
export async function startConformance(
  options: { extraSql?: string; engine?: Partial<Omit<PgrestOptions, 'pool'>> } = {},
): Promise<Conformance> {
  const createPgrest = await loadCreatePgrest();
  const db = await createTestDatabase(FIXTURES_SQL + (options.extraSql ?? ''));
  let engine: PgrestEngine;
  try {
    engine = await createPgrest({ pool: db.pool, schemas: ['test'], ...options.engine });
  } catch (error) {
    await db.drop();
    throw error;
  }

  const request = requester(engine);

  return {
    request,
    get: (pathAndQuery, headers) => request('GET', pathAndQuery, headers ? { headers } : {}),
    db,
    engine,
    close: async () => {
      await engine.close();
      await db.drop();
    },
  };
}

/** Turns an engine into the tests' `request(method, pathAndQuery, init)` function. */
export function requester(engine: PgrestEngine): Conformance['request'] {
  return async (method: PgrestMethod, pathAndQuery: string, init: TestRequestInit = {}): Promise<TestResponse> => {
    const { path, query } = splitPath(pathAndQuery);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
    let body: string | Uint8Array | undefined;
    if (init.body !== undefined) {
      if (typeof init.body === 'string' || init.body instanceof Uint8Array) {
        body = init.body;
      } else {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const req: PgrestRequest = { method, path, query, headers, ...(body === undefined ? {} : { body }) };
    const res = await engine.handle(req, init.caller);
    const lower: Record<string, string> = {};
    // A header sent several times (two Set-Cookie) reads as its values joined, as HTTP clients show them.
    for (const [name, value] of Object.entries(res.headers)) {
      lower[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    let json: unknown;
    if (res.body !== '' && (lower['content-type'] ?? '').includes('json')) {
      try {
        json = JSON.parse(res.body);
      } catch {
        json = undefined;
      }
    }
    return { status: res.status, headers: lower, text: res.body, json };
  };
}

/**
 * A second engine over the same database with other options (e.g. `maxRows`), for the few cases
 * that need a PostgREST configured differently.
 */
export async function startVariant(
  base: Conformance,
  engineOptions: Partial<Omit<PgrestOptions, 'pool'>>,
): Promise<{ request: Conformance['request']; close: () => Promise<void> }> {
  const createPgrest = await loadCreatePgrest();
  const engine = await createPgrest({ pool: base.db.pool, schemas: ['test'], ...engineOptions });
  return { request: requester(engine), close: () => engine.close() };
}

/** PostgREST's error body: always exactly these four keys, absent values as `null`. */
export type ErrorBody = { code: string; message: string; details: unknown; hint: unknown };

/**
 * Asserts a PostgREST error response: the status, the JSON content type, `Proxy-Status`, a body
 * of exactly `{code, message, details, hint}`, and every field given in `expected` (a RegExp matches a
 * string field; `null` demands null; an omitted field is not checked).
 */
export function expectError(
  res: TestResponse,
  status: number,
  expected: {
    code: string;
    message?: string | RegExp;
    details?: string | RegExp | null;
    hint?: string | RegExp | null;
  },
): ErrorBody {
  expectStatus(res, status);
  expect(res.headers['content-type']).toBe(JSON_CT);
  // PostgREST names every error it raises in Proxy-Status. A 416 for an offset past the end is
  // the one error body sent as a response (without it), so 416s are checked case by case.
  if (status !== 416) expect(res.headers['proxy-status']).toBe(`PostgREST; error=${expected.code}`);
  const body = res.json as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
  expect(body.code).toBe(expected.code);
  for (const key of ['message', 'details', 'hint'] as const) {
    const want = expected[key];
    if (want === undefined) continue;
    if (want instanceof RegExp) expect(body[key]).toMatch(want);
    else expect(body[key]).toBe(want);
  }
  return body as ErrorBody;
}

/** Asserts the status, showing the body when it differs. */
export function expectStatus(res: TestResponse, status: number): void {
  expect(res.status, `status ${res.status}, body ${res.text}`).toBe(status);
}

/** The `id` of every row of a JSON array response, in response order. */
export function ids(res: TestResponse): unknown[] {
  expect(Array.isArray(res.json), `expected a JSON array, got ${res.status} ${res.text}`).toBe(true);
  return (res.json as Array<Record<string, unknown>>).map((row) => row.id);
}

/** Asserts a 200 JSON array response and returns its rows. */
export function expectRows(res: TestResponse, status = 200): Array<Record<string, unknown>> {
  expectStatus(res, status);
  expect(res.headers['content-type']).toBe(JSON_CT);
  expect(Array.isArray(res.json)).toBe(true);
  return res.json as Array<Record<string, unknown>>;
}

/** The headers PostgREST sends with a Range header request. */
export function rangeHeaders(range: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'range-unit': 'items', range, ...extra };
}
