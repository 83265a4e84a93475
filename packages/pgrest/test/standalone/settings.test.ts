import http from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, JwkKeyRing, type AuthSettings } from '../../src/standalone/auth.js';
import { ConfigError, loadConfig, parseJsPath, resolveConfig } from '../../src/standalone/config.js';
import { type RunningServer, startServer } from '../../src/standalone/server.js';
import { type TestDatabase, createTestDatabase } from '../test-database.js';

// The PostgREST settings users rely on, in the standalone server (docs "Configuration":
// app.settings.*, server-timing-enabled, server-trace-header, openapi-mode, db-root-spec,
// jwt-secret as a JWK or JWKS; "Authentication > kid verification"; "Observability >
// Server-Timing Header / Trace Header / Content-Length Header"; src/PostgREST/App.hs and
// Response/Performance.hs for the header formats; Error.hs for PGRST126).

const SECRET = 'settings-test-secret-that-is-long-enough';
const AUTH_PASSWORD = 'authenticator-password';

const SETUP_SQL = `
DO $$ BEGIN CREATE ROLE pgrest_st_authenticator LOGIN NOINHERIT PASSWORD '${AUTH_PASSWORD}';
EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE pgrest_st_anon NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE pgrest_st_user NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
GRANT pgrest_st_anon TO pgrest_st_authenticator;
GRANT pgrest_st_user TO pgrest_st_authenticator;

CREATE SCHEMA api;
GRANT USAGE ON SCHEMA api TO pgrest_st_anon, pgrest_st_user;

CREATE TABLE api.open_items (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO api.open_items VALUES (1, 'one'), (2, 'two');
GRANT SELECT ON api.open_items TO pgrest_st_anon, pgrest_st_user;
-- Only the user role may read it.
CREATE TABLE api.member_notes (id int PRIMARY KEY, body text);
GRANT SELECT ON api.member_notes TO pgrest_st_user;
-- A column privilege is a privilege too.
CREATE TABLE api.half_open (id int PRIMARY KEY, secret text);
GRANT SELECT (id) ON api.half_open TO pgrest_st_anon;

CREATE FUNCTION api.app_setting(name text) RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT current_setting('app.settings.' || name, true) $$;
CREATE FUNCTION api.members_only() RETURNS int LANGUAGE sql STABLE AS $$ SELECT 1 $$;
CREATE FUNCTION api.root() RETURNS json LANGUAGE sql STABLE
  AS $$ SELECT '{"swagger": "2.0", "info": {"title": "Overridden"}}'::json $$;
CREATE FUNCTION api.set_cookie_twice() RETURNS void LANGUAGE sql AS $$
  SELECT set_config('response.headers',
    '[{"Set-Cookie": "a=1; Path=/"}, {"Set-Cookie": "b=2; Path=/"}]', true) $$;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA api FROM PUBLIC;
GRANT EXECUTE ON FUNCTION api.app_setting(text), api.root(), api.set_cookie_twice() TO pgrest_st_anon, pgrest_st_user;
GRANT EXECUTE ON FUNCTION api.members_only() TO pgrest_st_user;
`;

/** A key pair as jose generates it. */
type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string; json: unknown };

function send(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(target, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
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
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const load = (file: string, env: Record<string, string> = {}, files: Record<string, string> = {}) =>
  loadConfig('pgrest.conf', env, (path) => {
    if (path === 'pgrest.conf') return file;
    const content = files[path];
    if (content === undefined) throw new Error(`ENOENT: ${path}`);
    return content;
  });

describe('configuration', () => {
  it('reads app.settings.* from the file and PGRST_APP_SETTINGS_* (which wins, in lower case)', () => {
    const { config, warnings } = load('app.settings.jwt_secret = "from-file"\napp.settings.other = 42', {
      PGRST_APP_SETTINGS_JWT_SECRET: 'from-env',
      PGRST_APP_SETTINGS_Mixed_Case: 'x',
    });
    expect(config.appSettings).toEqual({
      'app.settings.jwt_secret': 'from-env',
      'app.settings.other': '42',
      'app.settings.mixed_case': 'x',
    });
    expect(warnings).toEqual([]);
    expect(configError(() => load('app.settings.bad-name = "x"')).message).toMatch(/^app\.settings\.bad-name/);
  });

  it('reads server-timing-enabled, server-trace-header, openapi-mode and db-root-spec', () => {
    const { config } = load(
      'server-timing-enabled = true\nserver-trace-header = "X-Request-Id"\nopenapi-mode = "ignore-privileges"\ndb-root-spec = "api.root"',
    );
    expect(config).toMatchObject({
      serverTimingEnabled: true,
      serverTraceHeader: 'X-Request-Id',
      openApiMode: 'ignore-privileges',
      dbRootSpec: 'root',
    });
    expect(load('', {}).config).toMatchObject({ serverTimingEnabled: false, openApiMode: 'follow-privileges' });
    expect(load('root-spec = "root"').config.dbRootSpec).toBe('root');
    expect(configError(() => load('openapi-mode = "sometimes"')).message).toMatch(/^openapi-mode: must be one of/);
    expect(configError(() => load('', { PGRST_SERVER_TRACE_HEADER: 'X Id' })).message).toMatch(
      /^server-trace-header: must be an HTTP header name/,
    );
    expect(configError(() => load('', { PGRST_SERVER_TIMING_ENABLED: 'maybe' })).message).toMatch(
      /^server-timing-enabled: must be true or false/,
    );
  });

  it('names every setting it does not support: a warning, or a refusal where serving would differ', () => {
    const { warnings } = load('db-plan-enabled = true', {
      PGRST_LOG_LEVEL: 'info',
      PGRST_JWT_CACHE_MAX_ENTRIES: '10',
      PGRST_NOT_A_SETTING: '1',
    });
    expect(warnings).toEqual([
      'db-plan-enabled is not supported by pgrest and is ignored (pgrest.conf:1)',
      'log-level is not supported by pgrest and is ignored (PGRST_LOG_LEVEL)',
      'jwt-cache-max-entries is not supported by pgrest and is ignored (PGRST_JWT_CACHE_MAX_ENTRIES)',
      'unknown environment variable PGRST_NOT_A_SETTING is ignored',
    ]);
    expect(configError(() => load('server-cors-allowed-origins = "https://a.example"')).message).toMatch(
      /^server-cors-allowed-origins \(pgrest\.conf:1\): is not supported/,
    );
    for (const [name, key] of [
      ['PGRST_SERVER_UNIX_SOCKET', 'server-unix-socket'],
      ['PGRST_ADMIN_SERVER_PORT', 'admin-server-port'],
      ['PGRST_DB_PRE_CONFIG', 'db-pre-config'],
    ]) {
      expect(configError(() => load('', { [name!]: 'x' })).message).toMatch(new RegExp(`^${key} \\(${name}\\)`));
    }
  });

  it("honours the old names' variables (PGRST_DB_SCHEMA, PGRST_MAX_ROWS)", () => {
    const { config, warnings } = load('', { PGRST_DB_SCHEMA: 'api', PGRST_MAX_ROWS: '7' });
    expect(config).toMatchObject({ dbSchemas: ['api'], dbMaxRows: 7 });
    expect(warnings).toEqual([]);
  });

  it('reads jwt-secret as a JSON Web Key, a Key Set, from a file, or as a text secret', async () => {
    const { publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), alg: 'RS256' };
    expect(load(`jwt-secret = "${JSON.stringify(jwk).replace(/"/g, '\\"')}"`).config.jwtJwks).toEqual([jwk]);
    const set = JSON.stringify({ keys: [jwk] });
    expect(load('', { PGRST_JWT_SECRET: set }).config).toMatchObject({ jwtJwks: [jwk], jwtSecret: undefined });
    expect(load('jwt-secret = "@keys.json"', {}, { 'keys.json': `${set}\n` }).config.jwtJwks).toEqual([jwk]);
    expect(
      new TextDecoder().decode(
        load('jwt-secret = "@secret.txt"', {}, { 'secret.txt': `${SECRET}\n` }).config.jwtSecret,
      ),
    ).toBe(SECRET);
    expect(configError(() => load('jwt-secret = "@missing.txt"')).message).toMatch(/^jwt-secret: cannot read/);
    expect(configError(() => load('', { PGRST_JWT_SECRET: '{"keys": []}' })).message).toMatch(/^jwt-secret: /);
    // Text that is not a key is a text secret, held to its minimum length.
    expect(configError(() => load('', { PGRST_JWT_SECRET: '{"not": "a key"}' })).message).toBe(
      'jwt-secret: must be at least 32 characters long',
    );
  });
});

describe('JSON Web Key verification', () => {
  const NOW = Math.floor(Date.now() / 1000);
  let rsa1: KeyPair;
  let rsa2: KeyPair;
  let ec: KeyPair;
  let ring: JwkKeyRing;
  let settings: AuthSettings;
  const jwkOf = async (pair: KeyPair, extra: JWK): Promise<JWK> => ({
    ...(await exportJWK(pair.publicKey)),
    ...extra,
  });
  const sign = (pair: KeyPair, alg: string, kid?: string) =>
    new SignJWT({ role: 'pgrest_st_user' })
      .setProtectedHeader({ alg, ...(kid !== undefined ? { kid } : {}) })
      .sign(pair.privateKey);

  beforeAll(async () => {
    rsa1 = await generateKeyPair('RS256', { extractable: true });
    rsa2 = await generateKeyPair('RS256', { extractable: true });
    ec = await generateKeyPair('ES256', { extractable: true });
    ring = new JwkKeyRing([
      await jwkOf(rsa1, { kid: 'k1', alg: 'RS256', use: 'sig' }),
      await jwkOf(rsa2, { kid: 'k2' }),
      await jwkOf(ec, { kid: 'k3' }),
    ]);
    await ring.validate();
    settings = {
      secret: undefined,
      keys: ring,
      roleClaimKey: parseJsPath('.role'),
      anonRole: undefined,
      audience: undefined,
    };
  });

  it('checks a token naming a kid against that key only', async () => {
    const ok = await authenticate(`Bearer ${await sign(rsa1, 'RS256', 'k1')}`, settings, NOW);
    expect(ok).toMatchObject({ ok: true, caller: { role: 'pgrest_st_user' } });
    expect(await authenticate(`Bearer ${await sign(rsa2, 'RS256', 'k2')}`, settings, NOW)).toMatchObject({ ok: true });
    expect(await authenticate(`Bearer ${await sign(ec, 'ES256', 'k3')}`, settings, NOW)).toMatchObject({ ok: true });
    for (const token of [await sign(rsa1, 'RS256', 'k2'), await sign(rsa1, 'RS256', 'unknown')]) {
      const refused = await authenticate(`Bearer ${token}`, settings, NOW);
      expect(refused.ok).toBe(false);
      if (refused.ok) continue;
      expect(refused.response.status).toBe(401);
      expect(JSON.parse(refused.response.body)).toMatchObject({
        code: 'PGRST301',
        message: 'No suitable key or wrong key type',
      });
      expect(refused.response.headers['Proxy-Status']).toBe('PostgREST; error=PGRST301');
    }
  });

  it('tries each key for a token without a kid, of the algorithm its key type verifies', async () => {
    expect(await authenticate(`Bearer ${await sign(rsa2, 'RS256')}`, settings, NOW)).toMatchObject({ ok: true });
    expect(await authenticate(`Bearer ${await sign(ec, 'ES256')}`, settings, NOW)).toMatchObject({ ok: true });
    const other = await generateKeyPair('RS256');
    const refused = await authenticate(`Bearer ${await sign(other, 'RS256')}`, settings, NOW);
    expect(refused.ok).toBe(false);
    const hmac = await new SignJWT({ role: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    const noHmacKey = await authenticate(`Bearer ${hmac}`, settings, NOW);
    expect(noHmacKey.ok || JSON.parse(noHmacKey.response.body).message).toBe('No suitable key or wrong key type');
  });

  it('refuses a key set it cannot use at start-up, naming jwt-secret', async () => {
    await expect(new JwkKeyRing([{ kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' }]).validate()).rejects.toThrow(
      /^jwt-secret: key 1 cannot be used/,
    );
    await expect(new JwkKeyRing([{ kty: 'XYZ' }]).validate()).rejects.toThrow(
      /^jwt-secret: key 1 has an unsupported "kty"/,
    );
  });
});

describe('the server', () => {
  let db: TestDatabase;
  let authenticatorUri: string;
  const servers: RunningServer[] = [];
  let userToken: string;
  let keyPair: KeyPair;

  async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
    const { config } = resolveConfig(new Map(), {
      PGRST_DB_URI: authenticatorUri,
      PGRST_DB_SCHEMAS: 'api',
      PGRST_DB_ANON_ROLE: 'pgrest_st_anon',
      PGRST_JWT_SECRET: SECRET,
      PGRST_SERVER_HOST: '127.0.0.1',
      PGRST_SERVER_PORT: '0',
      ...env,
    });
    const server = await startServer(config, { onError: () => undefined });
    servers.push(server);
    return server;
  }

  beforeAll(async () => {
    db = await createTestDatabase(SETUP_SQL);
    const url = new URL(db.url);
    url.username = 'pgrest_st_authenticator';
    url.password = AUTH_PASSWORD;
    authenticatorUri = url.toString();
    userToken = await new SignJWT({ role: 'pgrest_st_user' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    keyPair = await generateKeyPair('ES256', { extractable: true });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await db?.drop();
  });

  it('sets app.settings.* in every request, readable with current_setting', async () => {
    const server = await serve({ PGRST_APP_SETTINGS_GREETING: 'hello', PGRST_APP_SETTINGS_OTHER: 'x' });
    expect((await send(server.url, 'GET', '/rpc/app_setting?name=greeting')).json).toBe('hello');
    expect((await send(server.url, 'GET', '/rpc/app_setting?name=other')).json).toBe('x');
  });

  it('sends Server-Timing with PostgREST metric names, on answers but not on errors', async () => {
    const timed = await serve({ PGRST_SERVER_TIMING_ENABLED: 'true' });
    for (const [path, headers] of [
      ['/open_items?select=id', {}],
      ['/member_notes', { authorization: `Bearer ${userToken}` }],
      ['/rpc/app_setting?name=x', {}],
    ] as const) {
      const res = await send(timed.url, 'GET', path, headers);
      expect(res.status, path).toBe(200);
      expect(res.headers['server-timing'], path).toMatch(
        /^jwt;dur=\d+\.\d, parse;dur=\d+\.\d, plan;dur=\d+\.\d, transaction;dur=\d+\.\d, response;dur=\d+\.\d$/,
      );
    }
    const refused = await send(timed.url, 'GET', '/member_notes');
    expect(refused.status).toBe(401);
    expect(refused.headers['server-timing']).toBeUndefined();
    expect((await send(timed.url, 'GET', '/nowhere')).headers['server-timing']).toBeUndefined();
    const plain = await serve();
    expect((await send(plain.url, 'GET', '/open_items')).headers['server-timing']).toBeUndefined();
  });

  it('echoes the trace header on every response, empty when the request has none', async () => {
    const traced = await serve({ PGRST_SERVER_TRACE_HEADER: 'X-Request-Id' });
    const ok = await send(traced.url, 'GET', '/open_items', { 'x-request-id': 'abc-123' });
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const error = await send(traced.url, 'GET', '/nowhere', { 'x-request-id': 'err-1' });
    expect(error.status).toBe(404);
    expect(error.headers['x-request-id']).toBe('err-1');
    const refused = await send(traced.url, 'GET', '/open_items', {
      'x-request-id': 'jwt-1',
      authorization: 'Bearer a.b',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers['x-request-id']).toBe('jwt-1');
    const preflight = await send(traced.url, 'OPTIONS', '/open_items', {
      origin: 'https://a.example',
      'access-control-request-method': 'GET',
      'x-request-id': 'pre-1',
    });
    expect(preflight.headers['x-request-id']).toBe('pre-1');
    expect((await send(traced.url, 'GET', '/open_items')).headers['x-request-id']).toBe('');
  });

  describe('openapi-mode', () => {
    const paths = (res: Reply) => Object.keys((res.json as { paths: Record<string, unknown> }).paths).sort();

    it('follow-privileges (default): what the request role may use', async () => {
      const server = await serve();
      expect(paths(await send(server.url, 'GET', '/'))).toEqual([
        '/',
        '/half_open',
        '/open_items',
        '/rpc/app_setting',
        '/rpc/root',
        '/rpc/set_cookie_twice',
      ]);
      const member = await send(server.url, 'GET', '/', { authorization: `Bearer ${userToken}` });
      expect(paths(member)).toEqual([
        '/',
        '/member_notes',
        '/open_items',
        '/rpc/app_setting',
        '/rpc/members_only',
        '/rpc/root',
        '/rpc/set_cookie_twice',
      ]);
    });

    it('ignore-privileges: everything in the schema', async () => {
      const server = await serve({ PGRST_OPENAPI_MODE: 'ignore-privileges' });
      expect(paths(await send(server.url, 'GET', '/'))).toEqual([
        '/',
        '/half_open',
        '/member_notes',
        '/open_items',
        '/rpc/app_setting',
        '/rpc/members_only',
        '/rpc/root',
        '/rpc/set_cookie_twice',
      ]);
    });

    it('disabled: the root is 404 PGRST126, whatever the method', async () => {
      const server = await serve({ PGRST_OPENAPI_MODE: 'disabled', PGRST_DB_ROOT_SPEC: 'root' });
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST']) {
        const res = await send(server.url, method, '/');
        expect(res.status, method).toBe(404);
        expect(res.headers['proxy-status'], method).toBe('PostgREST; error=PGRST126');
        if (method !== 'HEAD') {
          expect(res.json, method).toEqual({
            code: 'PGRST126',
            message: 'Root endpoint metadata is disabled',
            details: null,
            hint: null,
          });
        }
      }
      expect((await send(server.url, 'GET', '/open_items')).status).toBe(200);
    });
  });

  it('db-root-spec: the root is answered by the function', async () => {
    const server = await serve({ PGRST_DB_ROOT_SPEC: 'root' });
    const res = await send(server.url, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ swagger: '2.0', info: { title: 'Overridden' } });
    const head = await send(server.url, 'HEAD', '/');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBeUndefined();
  });

  it('verifies tokens with a JSON Web Key Set given as jwt-secret', async () => {
    const jwk = { ...(await exportJWK(keyPair.publicKey)), kid: 'es', alg: 'ES256' };
    const server = await serve({ PGRST_JWT_SECRET: JSON.stringify({ keys: [jwk] }) });
    const token = await new SignJWT({ role: 'pgrest_st_user' })
      .setProtectedHeader({ alg: 'ES256', kid: 'es' })
      .sign(keyPair.privateKey);
    const ok = await send(server.url, 'GET', '/member_notes', { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    const hmac = await send(server.url, 'GET', '/member_notes', { authorization: `Bearer ${userToken}` });
    expect(hmac.status).toBe(401);
    expect(hmac.json).toMatchObject({ code: 'PGRST301' });
  });

  it('sends no Content-Length to HEAD, and every Set-Cookie of response.headers', async () => {
    const server = await serve();
    for (const path of ['/open_items', '/rpc/app_setting?name=x', '/']) {
      const head = await send(server.url, 'HEAD', path);
      expect(head.status, path).toBe(200);
      expect(head.headers['content-length'], path).toBeUndefined();
    }
    // OPTIONS and errors keep theirs; a refused HEAD carries its error body's length.
    expect((await send(server.url, 'OPTIONS', '/open_items')).headers['content-length']).toBe('0');
    const missing = await send(server.url, 'HEAD', '/nowhere');
    expect(missing.status).toBe(404);
    expect(Number(missing.headers['content-length'])).toBeGreaterThan(0);
    expect(missing.headers['proxy-status']).toBe('PostgREST; error=PGRST205');
    const cookies = await send(
      server.url,
      'POST',
      '/rpc/set_cookie_twice',
      { 'content-type': 'application/json' },
      '{}',
    );
    expect(cookies.status).toBe(204);
    expect(cookies.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });
});
