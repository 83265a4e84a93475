import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/standalone/cli.js';
import { resolveConfig } from '../../src/standalone/config.js';
import { type RunningServer, startServer } from '../../src/standalone/server.js';
import { type TestDatabase, createTestDatabase } from '../test-database.js';

// The standalone server against a real database with PostgREST's role system: an authenticator
// that logs in, an anonymous role and a web_user role it switches to per request (SET LOCAL
// ROLE inside the request's transaction). Expectations follow PostgREST's docs ("Authentication",
// "Transactions > db-tx-end", "db-pre-request", "Errors": 42501 is 401 for anonymous callers and
// 403 for authenticated ones).

const SECRET = 'standalone-test-secret-that-is-long-enough';
const AUTH_PASSWORD = 'authenticator-password';

// Roles are cluster-wide: create them idempotently so reruns and parallel databases coexist.
const SETUP_SQL = `
DO $$ BEGIN CREATE ROLE pgrest_sa_authenticator LOGIN NOINHERIT PASSWORD '${AUTH_PASSWORD}';
EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE pgrest_sa_anon NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE pgrest_sa_web_user NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
GRANT pgrest_sa_anon TO pgrest_sa_authenticator;
GRANT pgrest_sa_web_user TO pgrest_sa_authenticator;

CREATE SCHEMA api;
GRANT USAGE ON SCHEMA api TO pgrest_sa_anon, pgrest_sa_web_user;

-- Readable by everyone.
CREATE TABLE api.items (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO api.items VALUES (1, 'first item'), (2, 'second item'), (3, 'third item');
GRANT SELECT, INSERT ON api.items TO pgrest_sa_anon, pgrest_sa_web_user;

-- Only web_user may read it.
CREATE TABLE api.notes (id int PRIMARY KEY, body text NOT NULL);
INSERT INTO api.notes VALUES (1, 'for members only');
GRANT SELECT ON api.notes TO pgrest_sa_web_user;

-- Nobody but the owner may read it.
CREATE TABLE api.vault (id int PRIMARY KEY);

CREATE FUNCTION api.whoami() RETURNS text LANGUAGE sql STABLE AS $$ SELECT current_user::text $$;
CREATE FUNCTION api.claim(name text) RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT current_setting('request.jwt.claims', true)::json ->> name $$;

-- db-pre-request: refuses requests carrying "X-Blocked: yes".
CREATE FUNCTION api.check_request() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('request.headers', true)::json ->> 'x-blocked' = 'yes' THEN
    RAISE SQLSTATE 'PT403' USING MESSAGE = 'Blocked by pre-request';
  END IF;
END $$;
`;

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string; json: unknown };

/** A raw HTTP request (node:http, so any method and exact headers can be sent). */
function send(
  base: string,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(target, base);
    const req = http.request(url, { method, headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(SECRET));
}

function bearer(jwt: string): Record<string, string> {
  return { authorization: `Bearer ${jwt}` };
}

let db: TestDatabase;
let authenticatorUri: string;
const servers: RunningServer[] = [];

/** Starts a server from PGRST_* variables, the way an operator would configure it. */
async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  const { config } = resolveConfig(new Map(), {
    PGRST_DB_URI: authenticatorUri,
    PGRST_DB_SCHEMAS: 'api',
    PGRST_DB_ANON_ROLE: 'pgrest_sa_anon',
    PGRST_JWT_SECRET: SECRET,
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: '0',
    ...env,
  });
  const server = await startServer(config, { onError: () => undefined });
  servers.push(server);
  return server;
}

let main: RunningServer;
let webUser: string;

beforeAll(async () => {
  db = await createTestDatabase(SETUP_SQL);
  const url = new URL(db.url);
  url.username = 'pgrest_sa_authenticator';
  url.password = AUTH_PASSWORD;
  authenticatorUri = url.toString();
  main = await serve();
  webUser = await token({ role: 'pgrest_sa_web_user', email: 'member@example.com' });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await db?.drop();
});

describe('HTTP translation', () => {
  it('serves a table with query parameters, headers and PostgREST response headers', async () => {
    const res = await send(main.url, 'GET', '/items?select=id,name&order=id&name=like.*item', {
      headers: { range: '0-1', 'range-unit': 'items' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-range']).toBe('0-1/*');
    expect(res.json).toEqual([
      { id: 1, name: 'first item' },
      { id: 2, name: 'second item' },
    ]);
  });

  it('decodes percent-encoded query values', async () => {
    const res = await send(main.url, 'GET', '/items?select=id&name=eq.second%20item');
    expect(res.json).toEqual([{ id: 2 }]);
  });

  it('passes the request body and writes back status and headers', async () => {
    const res = await send(main.url, 'POST', '/items', {
      headers: { 'content-type': 'application/json', prefer: 'return=headers-only' },
      body: JSON.stringify({ id: 10, name: 'posted' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/items?id=eq.10');
    expect(res.text).toBe('');
  });

  it('answers HEAD without a body', async () => {
    const res = await send(main.url, 'HEAD', '/items');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['content-range']).toBe('0-3/*');
  });

  it('answers an unsupported method with 405 / PGRST117', async () => {
    const res = await send(main.url, 'PROPFIND', '/items');
    expect(res.status).toBe(405);
    expect(res.json).toEqual({
      code: 'PGRST117',
      message: 'Unsupported HTTP method: PROPFIND',
      details: null,
      hint: null,
    });
  });
});

describe('CORS (PostgREST defaults, no server-cors-allowed-origins)', () => {
  it('answers a preflight before authentication', async () => {
    const res = await send(main.url, 'OPTIONS', '/notes', {
      headers: {
        origin: 'http://example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, prefer',
      },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD');
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization, content-type, prefer, Accept, Accept-Language, Content-Language',
    );
    expect(res.headers['access-control-max-age']).toBe('86400');
  });

  it('adds the allow-origin and exposed headers to responses, errors included', async () => {
    const ok = await send(main.url, 'GET', '/items?id=eq.1', { headers: { origin: 'http://example.com' } });
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    expect(ok.headers['access-control-expose-headers']).toBe(
      'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit',
    );
    const denied = await send(main.url, 'GET', '/notes', { headers: { origin: 'http://example.com' } });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('*');
  });

  it('adds nothing without an Origin header', async () => {
    const res = await send(main.url, 'GET', '/items?id=eq.1');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('roles: SET LOCAL ROLE per request', () => {
  it('runs anonymous requests as db-anon-role', async () => {
    const res = await send(main.url, 'GET', '/rpc/whoami');
    expect(res.status).toBe(200);
    expect(res.json).toBe('pgrest_sa_anon');
  });

  it('runs JWT requests as the role claim', async () => {
    const res = await send(main.url, 'GET', '/rpc/whoami', { headers: bearer(webUser) });
    expect(res.json).toBe('pgrest_sa_web_user');
  });

  it('never leaks a role into another request sharing the pool', async () => {
    const calls = Array.from({ length: 16 }, (_, i) =>
      send(main.url, 'GET', '/rpc/whoami', i % 2 === 0 ? { headers: bearer(webUser) } : {}),
    );
    const roles = (await Promise.all(calls)).map((r) => r.json);
    expect(roles).toEqual(
      Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 'pgrest_sa_web_user' : 'pgrest_sa_anon')),
    );
  });

  it('exposes the JWT claims as request.jwt.claims', async () => {
    const res = await send(main.url, 'GET', '/rpc/claim?name=email', { headers: bearer(webUser) });
    expect(res.json).toBe('member@example.com');
    const role = await send(main.url, 'GET', '/rpc/claim?name=role');
    expect(role.json).toBe('pgrest_sa_anon');
  });

  it('denies the anonymous role a table it may not read: 401 / 42501 with WWW-Authenticate', async () => {
    const res = await send(main.url, 'GET', '/notes');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json).toMatchObject({ code: '42501', message: 'permission denied for table notes' });
  });

  it('lets the web_user role read that table', async () => {
    const res = await send(main.url, 'GET', '/notes', { headers: bearer(webUser) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([{ id: 1, body: 'for members only' }]);
  });

  it('denies an authenticated role a table it may not read: 403 / 42501', async () => {
    const res = await send(main.url, 'GET', '/vault', { headers: bearer(webUser) });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: '42501', message: 'permission denied for table vault' });
  });

  it('answers 401 for a role that does not exist (PostgREST 14)', async () => {
    const res = await send(main.url, 'GET', '/items', { headers: bearer(await token({ role: 'pgrest_sa_ghost' })) });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: '22023', message: 'role "pgrest_sa_ghost" does not exist' });
  });
});

describe('JWT errors over HTTP', () => {
  it('an expired token is 401 / PGRST303 with WWW-Authenticate', async () => {
    const expired = await token({ role: 'pgrest_sa_web_user', exp: Math.floor(Date.now() / 1000) - 3600 });
    const res = await send(main.url, 'GET', '/items', { headers: bearer(expired) });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token", error_description="JWT expired"');
    expect(res.json).toEqual({ code: 'PGRST303', message: 'JWT expired', details: null, hint: null });
  });

  it('a malformed token is 401 / PGRST301', async () => {
    const res = await send(main.url, 'GET', '/items', { headers: { authorization: 'Bearer not-a-jwt' } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'PGRST301', message: 'Expected 3 parts in JWT; got 1' });
  });

  it('without db-anon-role a request without JWT is 401 / PGRST302', async () => {
    const noAnon = await serve({ PGRST_DB_ANON_ROLE: '' });
    const res = await send(noAnon.url, 'GET', '/items');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json).toEqual({ code: 'PGRST302', message: 'Anonymous access is disabled', details: null, hint: null });
    const withJwt = await send(noAnon.url, 'GET', '/notes', { headers: bearer(webUser) });
    expect(withJwt.status).toBe(200);
  });

  it('reads the role at jwt-role-claim-key', async () => {
    const nested = await serve({ PGRST_JWT_ROLE_CLAIM_KEY: '.app_metadata.role' });
    const jwt = await token({ app_metadata: { role: 'pgrest_sa_web_user' } });
    const res = await send(nested.url, 'GET', '/rpc/whoami', { headers: bearer(jwt) });
    expect(res.json).toBe('pgrest_sa_web_user');
  });
});

describe('db-tx-end', () => {
  async function countItems(id: number): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from api.items where id = $1', [id]);
    return rows[0]?.n ?? -1;
  }

  it('rollback: the response is sent but nothing is committed', async () => {
    const rollback = await serve({ PGRST_DB_TX_END: 'rollback' });
    const res = await send(rollback.url, 'POST', '/items', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 20, name: 'rolled back' }),
    });
    expect(res.status).toBe(201);
    expect(await countItems(20)).toBe(0);
  });

  it('commit-allow-override: Prefer tx=rollback rolls back and is echoed', async () => {
    const override = await serve({ PGRST_DB_TX_END: 'commit-allow-override' });
    const res = await send(override.url, 'POST', '/items', {
      headers: { 'content-type': 'application/json', prefer: 'tx=rollback' },
      body: JSON.stringify({ id: 21, name: 'overridden' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers['preference-applied']).toBe('tx=rollback');
    expect(await countItems(21)).toBe(0);
    const committed = await send(override.url, 'POST', '/items', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 22, name: 'committed' }),
    });
    expect(committed.status).toBe(201);
    expect(await countItems(22)).toBe(1);
  });

  it('commit (default): Prefer tx=rollback is ignored', async () => {
    const res = await send(main.url, 'POST', '/items', {
      headers: { 'content-type': 'application/json', prefer: 'tx=rollback' },
      body: JSON.stringify({ id: 23, name: 'kept' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers['preference-applied']).toBeUndefined();
    expect(await countItems(23)).toBe(1);
  });
});

describe('db-pre-request and db-max-rows', () => {
  it('calls the pre-request function, whose errors answer the request', async () => {
    const guarded = await serve({ PGRST_DB_PRE_REQUEST: 'api.check_request' });
    expect((await send(guarded.url, 'GET', '/items')).status).toBe(200);
    const blocked = await send(guarded.url, 'GET', '/items', { headers: { 'x-blocked': 'yes' } });
    expect(blocked.status).toBe(403);
    expect(blocked.json).toMatchObject({ code: 'PT403', message: 'Blocked by pre-request' });
  });

  it('caps reads at db-max-rows', async () => {
    const capped = await serve({ PGRST_DB_MAX_ROWS: '1' });
    const res = await send(capped.url, 'GET', '/items?order=id');
    expect(res.json).toEqual([{ id: 1, name: 'first item' }]);
    expect(res.headers['content-range']).toBe('0-0/*');
  });
});

describe('the pgrest command with a config file', () => {
  it('starts from a postgrest.conf and serves requests', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pgrest-conf-'));
    try {
      const file = path.join(dir, 'pgrest.conf');
      await writeFile(
        file,
        [
          '# PostgREST configuration format',
          'db-uri = "$(TEST_DB_URI)"',
          'db-schemas = "api"',
          'db-anon-role = "pgrest_sa_anon"',
          `jwt-secret = "${SECRET}"`,
          'server-host = "127.0.0.1"',
          'server-port = 0',
        ].join('\n'),
      );
      const lines: string[] = [];
      const io = {
        out: (l: string) => lines.push(l),
        err: (l: string) => lines.push(l),
        readFile: (p: string) => readFileSync(p, 'utf8'),
      };
      const result = await runCli([file], { TEST_DB_URI: authenticatorUri }, io, { onError: () => undefined });
      if (typeof result === 'number') throw new Error(`pgrest exited with ${result}: ${lines.join('\n')}`);
      servers.push(result);
      expect(lines.at(-1)).toMatch(/^pgrest: listening on http:\/\/127\.0\.0\.1:\d+ \(schemas: api\)$/);
      const res = await send(result.url, 'GET', '/rpc/whoami');
      expect(res.json).toBe('pgrest_sa_anon');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
