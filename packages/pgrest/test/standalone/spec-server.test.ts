import { readFileSync } from 'node:fs';
import http from 'node:http';
import { SignJWT, compactVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/standalone/config.js';
import { type RunningServer, startServer } from '../../src/standalone/server.js';
import { type TestDatabase, createTestDatabase } from '../test-database.js';

// The server-level cases of PostgREST 14's test-suite (test/spec/Feature/Auth/AuthSpec.hs,
// Auth/NoJwtSecretSpec.hs, Auth/AudienceJwtSecretSpec.hs, OptionsSpec.hs, CorsSpec.hs,
// RollbackSpec.hs, RpcPreRequestGucsSpec.hs, HttpHeaderSpec.hs, ExtraSearchPathSpec.hs,
// Query/NonexistentSchemaSpec.hs, Query/QueryLimitedSpec.hs, Query/PreparedStatementsSpec.hs)
// that server.test.ts, auth.test.ts and the conformance suite do not already cover, run
// against the standalone server configured the way each spec configures PostgREST. Fixtures
// are in spec-server-fixtures.sql; statuses, codes, messages and header values are PostgREST's.

const FIXTURES = readFileSync(new URL('./spec-server-fixtures.sql', import.meta.url), 'utf8');
/** The fixtures' hidden.jwt_secret() signs with the same secret. */
const SECRET = 'reallyreallyreallyreallyverysafe';
const JSON_CT = 'application/json; charset=utf-8';
const OBJECT_CT = 'application/vnd.pgrst.object+json; charset=utf-8';
const SINGULAR = { accept: 'application/vnd.pgrst.object+json' };

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string; json: unknown };

/** A raw HTTP request, so that any method, header and body reach the server exactly. */
function send(
  base: string,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const headers = { ...options.headers };
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(target, base), { method, headers }, (res) => {
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
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function sign(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(SECRET));
}

async function bearer(claims: Record<string, unknown>): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await sign(claims)}` };
}

function expectError(res: Reply, status: number, body: Record<string, unknown>): void {
  expect(res.status, `status ${res.status}, body ${res.text}`).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_CT);
  expect(Object.keys(res.json as object).sort()).toEqual(['code', 'details', 'hint', 'message']);
  expect(res.json).toMatchObject(body);
}

let db: TestDatabase;
let authenticatorUri: string;
const servers: RunningServer[] = [];

/**
 * A server configured like PostgREST's baseCfg (anonymous role, JWT secret, a pre-request
 * function, rollback-allow-override) with `env` on top; an empty value unsets a setting.
 */
async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  const { config } = resolveConfig(new Map(), {
    PGRST_DB_URI: authenticatorUri,
    PGRST_DB_SCHEMAS: 'api',
    PGRST_DB_ANON_ROLE: 'pgrest_ss_anonymous',
    PGRST_JWT_SECRET: SECRET,
    PGRST_DB_PRE_REQUEST: 'api.role_from_uid',
    PGRST_DB_TX_END: 'rollback-allow-override',
    PGRST_DB_POOL: '3',
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: '0',
    ...env,
  });
  const server = await startServer(config, { onError: () => undefined });
  servers.push(server);
  return server;
}

let base: RunningServer;
const AUTHOR = { role: 'pgrest_ss_author', id: 'jdoe' };

beforeAll(async () => {
  db = await createTestDatabase(FIXTURES);
  const url = new URL(db.url);
  url.username = 'pgrest_ss_authenticator';
  url.password = 'spec-server-password';
  authenticatorUri = url.toString();
  base = await serve();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await db?.drop();
});

describe('AuthSpec', () => {
  it('denies the anonymous role a table it has no grant on: 401 with WWW-Authenticate', async () => {
    const res = await send(base.url, 'GET', '/authors_only');
    expectError(res, 401, {
      code: '42501',
      message: 'permission denied for table authors_only',
      details: null,
      hint: null,
    });
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['content-length']).toBe('96');
  });

  it('denies an authenticated role a table it has no grant on: 403', async () => {
    const res = await send(base.url, 'GET', '/private_table', { headers: await bearer({ role: 'pgrest_ss_author' }) });
    expectError(res, 403, {
      code: '42501',
      message: 'permission denied for table private_table',
      details: null,
      hint: null,
    });
    expect(res.headers['content-length']).toBe('97');
  });

  it('denies the anonymous role a function it may not execute: 401', async () => {
    const res = await send(base.url, 'POST', '/rpc/privileged_hello', { body: { name: 'anonymous' } });
    expect(res.status).toBe(401);
  });

  it('lets the author role execute that function', async () => {
    const res = await send(base.url, 'POST', '/rpc/privileged_hello', {
      headers: await bearer({ role: 'pgrest_ss_author' }),
      body: { name: 'jdoe' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.json).toBe('Privileged hello to jdoe');
  });

  it('returns the tokens a function signs, which the server then accepts', async () => {
    const res = await send(base.url, 'POST', '/rpc/login', { headers: SINGULAR, body: { id: 'jdoe', pass: '1234' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(OBJECT_CT);
    const { token } = res.json as { token: string };
    const { payload } = await compactVerify(token, new TextEncoder().encode(SECRET));
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ role: 'pgrest_ss_author', id: 'jdoe' });
    const authed = await send(base.url, 'GET', '/authors_only', { headers: { authorization: `Bearer ${token}` } });
    expect(authed.status).toBe(200);
  });

  it('lets SQL functions sign registered and custom claims', async () => {
    const res = await send(base.url, 'POST', '/rpc/mint_claims', { headers: SINGULAR, body: '{}' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(OBJECT_CT);
    const { token } = res.json as { token: string };
    const { payload } = await compactVerify(token, new TextEncoder().encode(SECRET));
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      iss: 'joe',
      sub: 'fun',
      aud: 'everyone',
      exp: 9999999999,
      nbf: 1300819380,
      iat: 1300819380,
      jti: 'foo',
      role: 'pgrest_ss_author',
      'http://example.com/flag': true,
    });
  });

  it('exposes registered and custom claims to SQL', async () => {
    const headers = await bearer({
      sub: 'fun',
      jti: 'foo',
      nbf: 1300819380,
      exp: 9999999999,
      'http://example.com/flag': true,
      iss: 'joe',
      role: 'pgrest_ss_author',
      iat: 1300819380,
    });
    const res = await send(base.url, 'POST', '/rpc/echo_claims', { headers, body: '{}' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        iss: 'joe',
        sub: 'fun',
        exp: 9999999999,
        nbf: 1300819380,
        iat: 1300819380,
        jti: 'foo',
        'http://example.com/flag': true,
      },
    ]);
  });

  it('lets a role read the tables granted to it, whatever other claims the token has', async () => {
    expect((await send(base.url, 'GET', '/authors_only', { headers: await bearer(AUTHOR) })).status).toBe(200);
    const extra = await bearer({ ...AUTHOR, key1: 'value1', key2: 'value2', key3: 'value3', a: 1, b: 2, c: 3 });
    expect((await send(base.url, 'GET', '/authors_only', { headers: extra })).status).toBe(200);
  });

  it('accepts an unexpired token and a token issued now', async () => {
    const unexpired = await bearer({ ...AUTHOR, exp: 9999999999 });
    expect((await send(base.url, 'GET', '/authors_only', { headers: unexpired })).status).toBe(200);
    const issuedNow = await bearer({ role: 'pgrest_ss_author', iat: Math.floor(Date.now() / 1000) });
    expect((await send(base.url, 'GET', '/authors_only', { headers: issuedNow })).status).toBe(200);
  });

  it('is 401 / PGRST301 for an empty bearer token', async () => {
    const res = await send(base.url, 'GET', '/authors_only', { headers: { authorization: 'Bearer ' } });
    expectError(res, 401, {
      code: 'PGRST301',
      message: 'Empty JWT is sent in Authorization header',
      details: null,
      hint: null,
    });
    expect(res.headers['www-authenticate']).toBe(
      'Bearer error="invalid_token", error_description="Empty JWT is sent in Authorization header"',
    );
    expect(res.headers['content-length']).toBe('100');
  });

  it('is 401 / PGRST303 for an expired token', async () => {
    const res = await send(base.url, 'GET', '/authors_only', { headers: await bearer({ ...AUTHOR, exp: 1446678149 }) });
    expectError(res, 401, { code: 'PGRST303', message: 'JWT expired' });
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token", error_description="JWT expired"');
  });

  it('is 401 / PGRST301 for a token that is not a JWT', async () => {
    const res = await send(base.url, 'GET', '/authors_only', {
      headers: {
        authorization:
          'Bearer ey9zdGdyZXN0X3Rlc3RfYXV0aG9yIiwiaWQiOiJqZG9lIn0.y4vZuu1dDdwAl0-S00MCRWRYMlJ5YAMSir6Es6WtWx0',
      },
    });
    expectError(res, 401, {
      code: 'PGRST301',
      message: 'Expected 3 parts in JWT; got 2',
      details: null,
      hint: null,
    });
    expect(res.headers['www-authenticate']).toBe(
      'Bearer error="invalid_token", error_description="Expected 3 parts in JWT; got 2"',
    );
  });

  it('treats a token without claims, or without a role claim, as anonymous (401 on that table)', async () => {
    expect((await send(base.url, 'GET', '/authors_only', { headers: await bearer({}) })).status).toBe(401);
    expect((await send(base.url, 'GET', '/authors_only', { headers: await bearer({ id: 'jdoe' }) })).status).toBe(401);
  });

  it('recovers after errors on the same connections', async () => {
    await send(base.url, 'POST', '/authors_only', { body: { owner: 'jdoe', secret: 'test content' } });
    const headers = await bearer(AUTHOR);
    await send(base.url, 'POST', '/rpc/fail_hard', { headers });
    expect((await send(base.url, 'GET', '/authors_only', { headers })).status).toBe(200);
  });

  const badClaims: Array<[string, Record<string, unknown>, string]> = [
    ['exp', { exp: 'invalid' }, "The JWT 'exp' claim must be a number"],
    ['nbf', { nbf: 'invalid' }, "The JWT 'nbf' claim must be a number"],
    ['iat', { iat: 'invalid' }, "The JWT 'iat' claim must be a number"],
    ['aud (an object)', { aud: { invalid: 'value' } }, "The JWT 'aud' claim must be a string or an array of strings"],
    [
      'aud (an array with an object)',
      { aud: [{ invalid: 'value' }, 'test'] },
      "The JWT 'aud' claim must be a string or an array of strings",
    ],
  ];
  for (const [name, claims, message] of badClaims) {
    it(`is 401 / PGRST303 when the ${name} claim has the wrong type`, async () => {
      const res = await send(base.url, 'GET', '/authors_only', {
        headers: await bearer({ ...claims, role: 'pgrest_ss_author' }),
      });
      expectError(res, 401, { code: 'PGRST303', details: null, hint: null, message });
    });
  }

  describe('a pre-request function switching roles from another claim', () => {
    it('switches to the author role (uid 1)', async () => {
      const res = await send(base.url, 'POST', '/rpc/whoami', { headers: await bearer({ uid: 1 }), body: {} });
      expect(res.status).toBe(200);
      expect(res.json).toBe('pgrest_ss_author');
    });

    it('switches to another role (uid 2)', async () => {
      const res = await send(base.url, 'POST', '/rpc/whoami', { headers: await bearer({ uid: 2 }), body: {} });
      expect(res.status).toBe(200);
      expect(res.json).toBe('pgrest_ss_fallback');
    });

    it('answers its exception (uid 3): 400 / P0001 with the hint', async () => {
      const res = await send(base.url, 'POST', '/rpc/whoami', { headers: await bearer({ uid: 3 }), body: {} });
      expectError(res, 400, {
        code: 'P0001',
        message: 'Disabled ID --> 3',
        details: null,
        hint: 'Please contact administrator',
      });
    });
  });

  it("accepts 'Bearer' and 'bearer' as the scheme", async () => {
    const token = await sign(AUTHOR);
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await send(base.url, 'GET', '/authors_only', { headers: { authorization: `${scheme} ${token}` } });
      expect(res.status).toBe(200);
    }
  });
});

describe('NoJwtSecretSpec: a server without jwt-secret', () => {
  let noSecret: RunningServer;
  beforeAll(async () => {
    noSecret = await serve({ PGRST_JWT_SECRET: '' });
  });

  it('is 500 / PGRST300 for a request with a token', async () => {
    const res = await send(noSecret.url, 'GET', '/authors_only', {
      headers: await bearer({ role: 'pgrest_ss_author' }),
    });
    expectError(res, 500, { code: 'PGRST300', message: 'Server lacks JWT secret', details: null, hint: null });
  });

  it('serves requests without a token', async () => {
    expect((await send(noSecret.url, 'GET', '/items')).status).toBe(200);
  });
});

describe('AudienceJwtSecretSpec', () => {
  const claims = (aud: unknown) => ({ exp: 9999999999, role: 'pgrest_ss_author', id: 'jdoe', aud });
  const notInAudience = { code: 'PGRST303', details: null, hint: null, message: 'JWT not in audience' };

  describe('with jwt-aud', () => {
    let withAud: RunningServer;
    beforeAll(async () => {
      withAud = await serve({ PGRST_JWT_AUD: 'youraudience' });
    });
    const get = async (aud: unknown) =>
      send(withAud.url, 'GET', '/authors_only', { headers: await bearer(claims(aud)) });

    it('accepts an audience string that matches', async () => {
      expect((await get('youraudience')).status).toBe(200);
    });

    it('refuses an audience string that does not match, or is empty', async () => {
      expectError(await get('notyouraudience'), 401, notInAudience);
      expectError(await get(''), 401, notInAudience);
    });

    it('accepts an audience array containing it', async () => {
      expect((await get(['youraudience'])).status).toBe(200);
      expect((await get(['notyouraudience', 'youraudience', 'anotheraudience'])).status).toBe(200);
    });

    it('refuses an audience array without it', async () => {
      expectError(await get(['notyouraudience']), 401, notInAudience);
      expectError(await get(['notyouraudience', 'stillnotyouraudience', 'anotheraudience']), 401, notInAudience);
    });

    it('ignores an empty or null audience, or none at all', async () => {
      expect((await get([])).status).toBe(200);
      expect((await get(null)).status).toBe(200);
      const noAud = await bearer({ exp: 9999999999, role: 'pgrest_ss_author', id: 'jdoe' });
      expect((await send(withAud.url, 'GET', '/authors_only', { headers: noAud })).status).toBe(200);
      expect((await send(withAud.url, 'GET', '/items')).status).toBe(200);
    });
  });

  describe('without jwt-aud', () => {
    it('ignores the audience claim', async () => {
      for (const aud of ['youraudience', '', ['youraudience'], ['notyouraudience', 'youraudience'], [], null]) {
        const res = await send(base.url, 'GET', '/authors_only', { headers: await bearer(claims(aud)) });
        expect(res.status, JSON.stringify(aud)).toBe(200);
      }
      const noAud = await bearer({ exp: 9999999999, role: 'pgrest_ss_author', id: 'jdoe' });
      expect((await send(base.url, 'GET', '/authors_only', { headers: noAud })).status).toBe(200);
    });
  });
});

describe('OptionsSpec: the Allow header', () => {
  const allow = async (path: string) => {
    const res = await send(base.url, 'OPTIONS', path);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.headers.allow;
  };

  it('lists only read methods for a read-only relation (materialized view)', async () => {
    expect(await allow('/read_only_rows')).toBe('OPTIONS,GET,HEAD');
  });

  it('lists every method for a partitioned table', async () => {
    expect(await allow('/cars')).toBe('OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE');
  });

  it('lists the write methods of auto-updatable views, PUT only with a primary key', async () => {
    expect(await allow('/projects_simple_view')).toBe('OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(await allow('/projects_simple_view_no_pk')).toBe('OPTIONS,GET,HEAD,POST,PATCH,DELETE');
  });

  it('lists only read methods for a view that is neither auto-updatable nor has triggers', async () => {
    expect(await allow('/projects_trigger_none')).toBe('OPTIONS,GET,HEAD');
  });

  it('lists the methods INSTEAD OF triggers make possible', async () => {
    expect(await allow('/projects_trigger_all')).toBe('OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(await allow('/projects_trigger_all_no_pk')).toBe('OPTIONS,GET,HEAD,POST,PATCH,DELETE');
    expect(await allow('/projects_trigger_insert')).toBe('OPTIONS,GET,HEAD,POST');
    expect(await allow('/projects_trigger_update')).toBe('OPTIONS,GET,HEAD,PATCH');
    expect(await allow('/projects_trigger_delete')).toBe('OPTIONS,GET,HEAD,DELETE');
  });

  it('lists GET, HEAD and POST for an immutable function, only POST for a volatile one', async () => {
    expect(await allow('/rpc/immutable_answer')).toBe('OPTIONS,GET,HEAD,POST');
    expect(await allow('/rpc/reset_items')).toBe('OPTIONS,POST');
  });

  it('lists GET and HEAD for the root', async () => {
    expect(await allow('/')).toBe('OPTIONS,GET,HEAD');
  });

  it('is 404 for an unknown relation', async () => {
    expect((await send(base.url, 'OPTIONS', '/unknown')).status).toBe(404);
  });
});

describe('CorsSpec', () => {
  it('answers a preflight with the methods and headers wai-cors allows', async () => {
    const res = await send(base.url, 'OPTIONS', '/', {
      headers: {
        accept: '*/*',
        origin: 'http://example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'Foo,Bar',
      },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD');
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization, Foo, Bar, Accept, Accept-Language, Content-Language',
    );
    expect(res.headers['access-control-max-age']).toBe('86400');
  });

  it('exposes the response headers to a CORS request', async () => {
    const res = await send(base.url, 'GET', '/items', { headers: { origin: 'http://example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-expose-headers']).toBe(
      'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit',
    );
  });

  it('answers OPTIONS without a preflight method as an ordinary request', async () => {
    const browser = await send(base.url, 'OPTIONS', '/items', {
      headers: {
        'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.9; rv:32.0) Gecko/20100101 Firefox/32.0',
        origin: 'http://localhost:8000',
        accept: 'text/csv, */*; q=0.01',
        'accept-language': 'en-US,en;q=0.5',
        'accept-encoding': 'gzip, deflate',
        referer: 'http://localhost:8000/',
      },
    });
    expect(browser.status).toBe(200);
    expect(browser.text).toBe('');
    expect(browser.headers['access-control-allow-origin']).toBe('*');
    for (const accept of ['application/json', 'application/geo+json']) {
      const res = await send(base.url, 'OPTIONS', '/projects', { headers: { accept } });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });
});

describe('RollbackSpec', () => {
  type Prefer = { name: string; prefer: string };
  const DEFAULT: Prefer = { name: 'without Prefer tx', prefer: 'return=representation' };
  const COMMIT: Prefer = { name: 'Prefer tx=commit', prefer: 'return=representation, tx=commit' };
  const ROLLBACK: Prefer = { name: 'Prefer tx=rollback', prefer: 'return=representation, tx=rollback' };

  /** Checks Preference-Applied when the spec expects the tx preference to be echoed. */
  const applied = (res: Reply, expected: string | undefined) => {
    if (expected !== undefined) expect(res.headers['preference-applied'] ?? '').toContain(expected);
  };

  function reads(server: () => RunningServer, p: Prefer, echo: string | undefined) {
    it('answers GET, HEAD and RPC calls', async () => {
      const headers = { prefer: p.prefer };
      const get = await send(server().url, 'GET', '/items?id=eq.1', { headers });
      expect(get.json).toEqual([{ id: 1 }]);
      applied(get, echo);
      const head = await send(server().url, 'HEAD', '/items?id=eq.1', { headers });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers['content-type']).toBe(JSON_CT);
      applied(head, echo);
      const rpcGet = await send(server().url, 'GET', '/rpc/find_items?id=1', { headers });
      expect(rpcGet.json).toEqual([{ id: 1 }]);
      applied(rpcGet, echo);
      const rpcPost = await send(server().url, 'POST', '/rpc/find_items', { headers, body: { id: 1 } });
      expect(rpcPost.json).toEqual([{ id: 1 }]);
      applied(rpcPost, echo);
    });
  }

  function raises(server: () => RunningServer, p: Prefer) {
    const violation = {
      code: '23505',
      message: 'duplicate key value violates unique constraint "unique_later_col_key"',
      details: 'Key (col)=(1) already exists.',
      hint: null,
    };
    it('raises immediate constraint violations', async () => {
      const res = await send(server().url, 'POST', '/rpc/break_unique', { headers: { prefer: p.prefer }, body: '' });
      expectError(res, 409, violation);
    });
    it('raises deferred constraint violations', async () => {
      const res = await send(server().url, 'POST', '/rpc/break_unique', {
        headers: { prefer: p.prefer },
        body: { deferred: true },
      });
      expectError(res, 409, violation);
    });
  }

  /** Leaves no row with id <= 0 behind, committing whatever the configuration. */
  async function cleanUp(server: RunningServer) {
    const res = await send(server.url, 'DELETE', '/items?id=lte.0', { headers: { prefer: 'tx=commit' } });
    expect(res.status).toBe(204);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-length']).toBeUndefined();
    await db.pool.query('DELETE FROM api.items WHERE id <= 0');
  }

  async function addZero(server: RunningServer) {
    await db.pool.query('INSERT INTO api.items VALUES (0) ON CONFLICT DO NOTHING');
    const res = await send(server.url, 'POST', '/items', {
      headers: { prefer: 'tx=commit, resolution=ignore-duplicates' },
      body: { id: 0 },
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-length']).toBe('0');
  }

  const ids = async (server: RunningServer, filter: string) => (await send(server.url, 'GET', `/items?${filter}`)).json;

  function persists(server: () => RunningServer, p: Prefer, echo: string | undefined) {
    const headers = { prefer: p.prefer };
    it('persists POST', async () => {
      const res = await send(server().url, 'POST', '/items', { headers, body: { id: 0 } });
      expect(res.status).toBe(201);
      expect(res.json).toEqual([{ id: 0 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.0')).toEqual([{ id: 0 }]);
      await cleanUp(server());
    });
    it('persists PUT', async () => {
      const res = await send(server().url, 'PUT', '/items?id=eq.0', { headers, body: { id: 0 } });
      expect(res.status).toBe(201);
      expect(res.json).toEqual([{ id: 0 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.0')).toEqual([{ id: 0 }]);
      await cleanUp(server());
    });
    it('persists PATCH', async () => {
      await addZero(server());
      const res = await send(server().url, 'PATCH', '/items?id=eq.0', { headers, body: { id: -1 } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual([{ id: -1 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.0')).toEqual([]);
      expect(await ids(server(), 'id=eq.-1')).toEqual([{ id: -1 }]);
      await cleanUp(server());
    });
    it('persists DELETE', async () => {
      await addZero(server());
      const res = await send(server().url, 'DELETE', '/items?id=eq.0', { headers });
      expect(res.status).toBe(200);
      expect(res.json).toEqual([{ id: 0 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.0')).toEqual([]);
    });
  }

  function discards(server: () => RunningServer, p: Prefer, echo: string | undefined) {
    const headers = { prefer: p.prefer };
    it('does not persist POST', async () => {
      const res = await send(server().url, 'POST', '/items', { headers, body: { id: 0 } });
      expect(res.status).toBe(201);
      expect(res.json).toEqual([{ id: 0 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.0')).toEqual([]);
    });
    it('does not persist PUT', async () => {
      const res = await send(server().url, 'PUT', '/items?id=eq.0', { headers, body: { id: 0 } });
      expect(res.status).toBe(201);
      expect(res.json).toEqual([{ id: 0 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.0')).toEqual([]);
    });
    it('does not persist PATCH', async () => {
      const res = await send(server().url, 'PATCH', '/items?id=eq.1', { headers, body: { id: 0 } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual([{ id: 0 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.0')).toEqual([]);
      expect(await ids(server(), 'id=eq.1')).toEqual([{ id: 1 }]);
    });
    it('does not persist DELETE', async () => {
      const res = await send(server().url, 'DELETE', '/items?id=eq.1', { headers });
      expect(res.status).toBe(200);
      expect(res.json).toEqual([{ id: 1 }]);
      applied(res, echo);
      expect(await ids(server(), 'id=eq.1')).toEqual([{ id: 1 }]);
    });
  }

  describe('db-tx-end = rollback-allow-override', () => {
    const server = () => base;
    describe(DEFAULT.name, () => {
      reads(server, DEFAULT, undefined);
      discards(server, DEFAULT, undefined);
      raises(server, DEFAULT);
    });
    describe(COMMIT.name, () => {
      reads(server, COMMIT, 'tx=commit');
      persists(server, COMMIT, 'tx=commit');
      raises(server, COMMIT);
    });
    describe(ROLLBACK.name, () => {
      reads(server, ROLLBACK, 'tx=rollback');
      discards(server, ROLLBACK, 'tx=rollback');
      raises(server, ROLLBACK);
    });
  });

  describe('db-tx-end = commit', () => {
    let committing: RunningServer;
    beforeAll(async () => {
      committing = await serve({ PGRST_DB_TX_END: 'commit' });
    });
    const server = () => committing;
    for (const p of [DEFAULT, COMMIT, ROLLBACK]) {
      describe(p.name, () => {
        reads(server, p, undefined);
        persists(server, p, undefined);
        raises(server, p);
      });
    }
  });

  describe('db-tx-end = rollback', () => {
    let rollingBack: RunningServer;
    beforeAll(async () => {
      rollingBack = await serve({ PGRST_DB_TX_END: 'rollback' });
    });
    const server = () => rollingBack;
    for (const p of [DEFAULT, COMMIT, ROLLBACK]) {
      describe(p.name, () => {
        reads(server, p, undefined);
        discards(server, p, undefined);
        raises(server, p);
      });
    }
  });
});

describe('RpcPreRequestGucsSpec: response headers set by db-pre-request', () => {
  let headed: RunningServer;
  beforeAll(async () => {
    headed = await serve({ PGRST_DB_PRE_REQUEST: 'api.header_rules' });
  });

  it('sets them on POST', async () => {
    const res = await send(headed.url, 'POST', '/items', { body: [{ id: 11111 }] });
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['x-custom-header']).toBe('mykey=myval');
  });

  it('sets them on GET and HEAD', async () => {
    const get = await send(headed.url, 'GET', '/items?id=eq.1', { headers: { 'user-agent': 'MSIE 6.0' } });
    expect(get.json).toEqual([{ id: 1 }]);
    expect(get.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    const head = await send(headed.url, 'HEAD', '/items?id=eq.1', { headers: { 'user-agent': 'MSIE 7.0' } });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(JSON_CT);
    expect(head.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    const csv = await send(headed.url, 'HEAD', '/projects', { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename=projects.csv');
  });

  for (const [method, body] of [
    ['PATCH', [{ id: 11111 }]],
    ['PUT', [{ id: 1 }]],
    ['DELETE', undefined],
  ] as const) {
    it(`sets them on ${method}`, async () => {
      const res = await send(headed.url, method, '/items?id=eq.1', body === undefined ? {} : { body });
      expect(res.status, res.text).toBe(204);
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['x-custom-header']).toBe('mykey=myval');
    });
  }

  it('can replace the Content-Type', async () => {
    for (const path of ['/clients?id=eq.1', '/rpc/all_projects']) {
      const res = await send(headed.url, 'HEAD', path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('application/custom+json');
    }
  });
});

describe('HttpHeaderSpec: Vary', () => {
  it('is not sent by default (the default Vary came after PostgREST 14)', async () => {
    const res = await send(base.url, 'GET', '/projects');
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBeUndefined();
  });

  it('can be replaced by the pre-request function', async () => {
    const ownVary = await serve({ PGRST_DB_PRE_REQUEST: 'api.own_vary' });
    const res = await send(ownVary.url, 'GET', '/projects');
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('X-Test-Accept');
  });
});

describe('ExtraSearchPathSpec: db-extra-search-path', () => {
  let extra: RunningServer;
  beforeAll(async () => {
    extra = await serve({ PGRST_DB_EXTRA_SEARCH_PATH: 'public, extensions, EXTRA "@/\\#~_-' });
  });
  const get = (path: string) => send(extra.url, 'GET', path);
  const ok = (res: Reply) => {
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    return res.json;
  };

  it('finds the ltree <@ operator (cd) in public', async () => {
    expect(ok(await get('/ltree_sample?path=cd.Top.Science.Astronomy'))).toEqual([
      { path: 'Top.Science.Astronomy' },
      { path: 'Top.Science.Astronomy.Astrophysics' },
      { path: 'Top.Science.Astronomy.Cosmology' },
    ]);
  });

  it('finds the ltree ~ operator (match) in public', async () => {
    expect(ok(await get('/ltree_sample?path=match.*.Science'))).toEqual([{ path: 'Top.Science' }]);
    expect(ok(await get('/ltree_sample?path=match.*.Astronomy.*'))).toEqual([
      { path: 'Top.Science.Astronomy' },
      { path: 'Top.Science.Astronomy.Astrophysics' },
      { path: 'Top.Science.Astronomy.Cosmology' },
      { path: 'Top.Collections.Pictures.Astronomy' },
      { path: 'Top.Collections.Pictures.Astronomy.Stars' },
      { path: 'Top.Collections.Pictures.Astronomy.Galaxies' },
      { path: 'Top.Collections.Pictures.Astronomy.Astronauts' },
    ]);
    expect(ok(await get('/ltree_sample?path=match.*.Collections.*%7B1,2%7D'))).toEqual([
      { path: 'Top.Collections.Pictures' },
      { path: 'Top.Collections.Pictures.Astronomy' },
    ]);
  });

  it('finds ltree functions used by a computed column', async () => {
    expect(ok(await get('/ltree_sample?select=number_of_labels&path=eq.Top.Science'))).toEqual([
      { number_of_labels: 2 },
    ]);
  });

  it('finds the isn = operator and is_valid function in the extensions schema', async () => {
    expect(ok(await get('/isn_sample?id=eq.978-0-393-04002-9&select=name'))).toEqual([
      { name: 'Mathematics: From the Birth of Numbers' },
    ]);
    expect(ok(await get('/rpc/is_valid_isbn?input=978-0-393-04002-9'))).toBe(true);
  });

  it('finds functions of a schema with quotes and special characters in its name', async () => {
    expect(ok(await get('/rpc/special_extended_schema?val=value'))).toBe('value');
  });

  it('follows relationships through views of a schema on the extra search path', async () => {
    expect((await get('/consumers_extra_view?select=*,orders_view(*)')).status).toBe(200);
  });

  it('is read as a comma-separated list, public by default and possibly empty', () => {
    const env = { PGRST_JWT_SECRET: SECRET };
    expect(resolveConfig(new Map(), env).config.dbExtraSearchPath).toEqual(['public']);
    const listed = { ...env, PGRST_DB_EXTRA_SEARCH_PATH: 'public, extensions' };
    expect(resolveConfig(new Map(), listed).config.dbExtraSearchPath).toEqual(['public', 'extensions']);
    const empty = new Map([['db-extra-search-path', { value: '', source: 'pgrest.conf:1' }]]);
    expect(resolveConfig(empty, env).config.dbExtraSearchPath).toEqual([]);
    // PostgREST 13.0.1+: an empty variable is an empty list too, not the default.
    const emptyEnv = { ...env, PGRST_DB_EXTRA_SEARCH_PATH: '' };
    expect(resolveConfig(new Map(), emptyEnv).config.dbExtraSearchPath).toEqual([]);
    const inFile = new Map([['db-extra-search-path', { value: 'public, extensions', source: 'pgrest.conf:1' }]]);
    expect(resolveConfig(inFile, emptyEnv).config.dbExtraSearchPath).toEqual([]);
  });

  it('is empty with PGRST_DB_EXTRA_SEARCH_PATH= : not even public is searched', async () => {
    const without = await serve({ PGRST_DB_EXTRA_SEARCH_PATH: '' });
    expect((await send(base.url, 'GET', '/ltree_sample?path=cd.Top.Science.Astronomy')).status).toBe(200);
    const res = await send(without.url, 'GET', '/ltree_sample?path=cd.Top.Science.Astronomy');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // PostgreSQL cannot resolve the ltree operator any more (no such operator, or none unique).
    expect(res.json).toMatchObject({ code: expect.stringMatching(/^42/) });
  });

  it('is needed: without it the extensions schema is not searched', async () => {
    expect((await send(base.url, 'GET', '/rpc/special_extended_schema?val=value')).status).toBeGreaterThanOrEqual(400);
  });
});

describe('NonexistentSchemaSpec', () => {
  let nowhere: RunningServer;
  beforeAll(async () => {
    nowhere = await serve({ PGRST_DB_SCHEMAS: 'nonexistent' });
  });

  it('answers the root path', async () => {
    expect((await send(nowhere.url, 'GET', '/')).status).toBe(200);
  });

  it('is 404 for a table of that schema', async () => {
    expect((await send(nowhere.url, 'GET', '/nonexistent_table')).status).toBe(404);
  });
});

describe('QueryLimitedSpec: db-max-rows = 2', () => {
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await serve({ PGRST_DB_MAX_ROWS: '2', PGRST_DB_TX_END: 'rollback' });
  });
  const get = (path: string, headers: Record<string, string> = {}) => send(limited.url, 'GET', path, { headers });

  it('restricts results, and a client range restricts them further', async () => {
    const res = await get('/items?order=id');
    expect(res.json).toEqual([{ id: 1 }, { id: 2 }]);
    expect(res.headers['content-range']).toBe('0-1/*');
    const ranged = await get('/items', { 'range-unit': 'items', range: '0-0' });
    expect(ranged.json).toEqual([{ id: 1 }]);
    expect(ranged.headers['content-range']).toBe('0-0/*');
  });

  it('restricts embedded resources at every level', async () => {
    const res = await get('/users?select=id,tasks(id)&order=id.asc&tasks.order=id.asc');
    expect(res.json).toEqual([
      { id: 1, tasks: [{ id: 1 }, { id: 2 }] },
      { id: 2, tasks: [{ id: 5 }, { id: 6 }] },
    ]);
    expect(res.headers['content-range']).toBe('0-1/*');
  });

  it('still embeds parents, and offsets them like other embeds', async () => {
    const res = await get('/tasks?select=id,project:projects(id)&id=gt.5');
    expect(res.json).toEqual([
      { id: 6, project: { id: 3 } },
      { id: 7, project: { id: 4 } },
    ]);
    expect(res.headers['content-range']).toBe('0-1/*');
    const offset = await get('/tasks?select=id,project:projects(id)&id=gt.5&project.offset=1');
    expect(offset.json).toEqual([
      { id: 6, project: null },
      { id: 7, project: null },
    ]);
    expect(offset.headers['content-range']).toBe('0-1/*');
  });

  describe('count=estimated', () => {
    const head = (path: string) => send(limited.url, 'HEAD', path, { headers: { prefer: 'count=estimated' } });

    it("uses the planner's estimate when there are more rows than db-max-rows", async () => {
      const res = await head('/all_projects_view');
      expect(res.status).toBe(206);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.headers['content-range']).toBe('0-1/2019');
    });

    it('gives the exact count when there are no more rows than db-max-rows', async () => {
      const res = await head('/all_projects_view?id=lt.3');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.headers['content-range']).toBe('0-1/2');
    });

    it('only uses the estimate when it is above the exact count', async () => {
      const res = await head('/projects_above_two_view');
      expect(res.status).toBe(206);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.headers['content-range']).toBe('0-1/3');
    });
  });

  describe('mutations are not restricted', () => {
    const representation = { prefer: 'return=representation' };

    it('inserts and returns every row', async () => {
      const rows = [
        { id: 6, name: 'BeOS' },
        { id: 7, name: 'PopOS' },
        { id: 8, name: 'HaikuOS' },
      ];
      const res = await send(limited.url, 'POST', '/projects?select=id,name', { headers: representation, body: rows });
      expect(res.status).toBe(201);
      expect(res.json).toEqual(rows);
    });

    it('updates and returns every row', async () => {
      const res = await send(limited.url, 'PATCH', '/tasks?id=lte.3&select=id,name&order=id', {
        headers: representation,
        body: { name: 'Renamed' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual([
        { id: 1, name: 'Renamed' },
        { id: 2, name: 'Renamed' },
        { id: 3, name: 'Renamed' },
      ]);
    });

    it('deletes and returns every row', async () => {
      const res = await send(limited.url, 'DELETE', '/items?id=gte.13&select=id&order=id', {
        headers: representation,
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual([{ id: 13 }, { id: 14 }, { id: 15 }]);
    });
  });
});

describe('PreparedStatementsSpec: db-prepared-statements', () => {
  it('uses prepared statements when enabled', async () => {
    const prepared = await serve({ PGRST_DB_PREPARED_STATEMENTS: 'true', PGRST_DB_PRE_REQUEST: '' });
    const res = await send(prepared.url, 'POST', '/rpc/uses_prepared_statements', { body: '' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('true');
  });

  it('uses none when disabled', async () => {
    const unprepared = await serve({ PGRST_DB_PREPARED_STATEMENTS: 'false', PGRST_DB_PRE_REQUEST: '' });
    const view = await send(unprepared.url, 'GET', '/prepared_now');
    expect(view.status).toBe(200);
    expect(view.json).toEqual([{ n: 0 }]);
    const res = await send(unprepared.url, 'POST', '/rpc/never_uses_prepared_statements', { body: '' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('true');
  });
});
