import { DATA_API_RELATIONS, ROLES, type Role } from '@lookout/contracts';
import type { PgrestRequest } from '@lookout/pgrest';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { dataApiRoutes } from './data-api-routes.js';
import type { DataApiService } from './data-api-service.js';

/** Tests sign in as a role through this header; no header means nobody is signed in. */
const rolesFromHeader = async (request: FastifyRequest): Promise<readonly Role[] | null> => {
  const header = request.headers['x-test-roles'];
  if (typeof header !== 'string') return null;
  return header === ''
    ? []
    : (header.split(',').filter((role) => (ROLES as readonly string[]).includes(role)) as Role[]);
};

describe('/api/db', () => {
  let testApp: TestApp;
  let configFileTeam: string;
  let uiTeam: string;

  beforeAll(async () => {
    testApp = await buildTestApp({ resolveRoles: rolesFromHeader });
    const pool = testApp.database.pool;
    const person = await pool.query<{ id: string }>(
      "INSERT INTO people (name, email) VALUES ('Ada Admin', 'ada@example.com') RETURNING id",
    );
    const personId = person.rows[0]!.id;
    const teams = await pool.query<{ id: string; source: string }>(
      `INSERT INTO teams (name, source, created_by) VALUES ('platform', 'ConfigFile', $1), ('sre', 'UI', $1) RETURNING id, source`,
      [personId],
    );
    configFileTeam = teams.rows.find((row) => row.source === 'ConfigFile')!.id;
    uiTeam = teams.rows.find((row) => row.source === 'UI')!.id;
    await pool.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [uiTeam, personId]);
  });
  afterAll(() => testApp.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'HEAD',
    url: string,
    roles: string | undefined,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    testApp.app.inject({
      method,
      url,
      headers: {
        ...(roles === undefined ? {} : { 'x-test-roles': roles }),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  it('answers 401 when nobody is signed in', async () => {
    const response = await call('GET', '/api/db/people', undefined);
    expect(response.statusCode).toBe(401);
  });

  it('reads an allow-listed table with PostgREST semantics: select, filter, order, count', async () => {
    const response = await call(
      'GET',
      '/api/db/people?select=id,name&name=eq.Ada%20Admin&order=name',
      'viewer',
      undefined,
      {
        prefer: 'count=exact',
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ id: expect.any(String), name: 'Ada Admin' }]);
    expect(response.headers['content-range']).toBe('0-0/1');
  });

  it('embeds through foreign keys and a junction table', async () => {
    const response = await call(
      'GET',
      `/api/db/teams?select=name,created_by(name),people!team_members(name)&id=eq.${uiTeam}`,
      'viewer',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { name: 'sre', created_by: { name: 'Ada Admin' }, people: [{ name: 'Ada Admin' }] },
    ]);
  });

  it('reports an ambiguous embed as PostgREST does (300 PGRST201)', async () => {
    const response = await call('GET', '/api/db/teams?select=name,people(name)', 'viewer');
    expect(response.statusCode).toBe(300);
    expect(response.json().code).toBe('PGRST201');
  });

  it('hides relations that are not on the allow-list, even when they exist', async () => {
    const response = await call('GET', '/api/db/installation', 'admin');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      code: expect.any(String),
      message: expect.stringContaining('installation'),
    });
  });

  it('lets a viewer read feature flags but not write them', async () => {
    expect((await call('GET', '/api/db/properties', 'viewer')).statusCode).toBe(200);
    const refused = await call('POST', '/api/db/properties', 'viewer', { name: 'incidents.disable', value: 'true' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('feature_flags');
    const rows = await testApp.database.pool.query("SELECT 1 FROM properties WHERE name = 'incidents.disable'");
    expect(rows.rowCount).toBe(0);
  });

  it('lets an editor create a flag and returns the row', async () => {
    const response = await call(
      'POST',
      '/api/db/properties',
      'editor',
      { name: 'logs.disable', value: 'true' },
      { prefer: 'return=representation' },
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual([expect.objectContaining({ name: 'logs.disable', value: 'true' })]);
  });

  it('refuses a commander writing people (write on database)', async () => {
    const response = await call('PATCH', '/api/db/people?name=eq.Ada%20Admin', 'commander', { title: 'boss' });
    expect(response.statusCode).toBe(403);
  });

  it('treats a user with no roles as a viewer', async () => {
    expect((await call('GET', '/api/db/agents', '')).statusCode).toBe(200);
    expect((await call('POST', '/api/db/agents', '', { name: 'edge' })).statusCode).toBe(403);
  });

  it('refuses to change a row another source owns, naming the source, and keeps the row', async () => {
    const patch = await call('PATCH', `/api/db/teams?id=eq.${configFileTeam}`, 'admin', { name: 'renamed' });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().message).toContain('ConfigFile');
    const remove = await call('DELETE', `/api/db/teams?id=eq.${configFileTeam}`, 'admin');
    expect(remove.statusCode).toBe(403);
    const row = await testApp.database.pool.query('SELECT name FROM teams WHERE id = $1', [configFileTeam]);
    expect(row.rows[0].name).toBe('platform');
  });

  it('refuses to create a row claiming another source', async () => {
    const response = await call('POST', '/api/db/logging_backends', 'admin', {
      name: 'loki',
      // A spec the logs guard accepts: only the claimed source is wrong here.
      spec: { loki: { url: 'https://loki.example' } },
      source: 'KubernetesCRD',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('KubernetesCRD');
  });

  it('changes a UI row and accepts "now()" for a timestamp', async () => {
    const response = await call(
      'PATCH',
      `/api/db/teams?id=eq.${uiTeam}`,
      'admin',
      { deleted_at: 'now()' },
      { prefer: 'return=representation' },
    );
    expect(response.statusCode).toBe(200);
    expect(Date.parse(response.json()[0].deleted_at)).not.toBeNaN();
  });

  it('answers bad input with PostgREST errors, never a 500', async () => {
    const malformed = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/properties',
      headers: { 'x-test-roles': 'admin', 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('PGRST102');

    const missingValue = await call('POST', '/api/db/properties', 'admin', { name: 'only.name' });
    expect(missingValue.statusCode).toBe(400);
    expect(missingValue.json().code).toBe('23502');

    const badFilter = await call('GET', '/api/db/people?name=xx.1', 'admin');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().code).toBe('PGRST100');

    const unknownColumn = await call('GET', '/api/db/people?select=nope', 'admin');
    expect(unknownColumn.statusCode).toBe(400);
  });

  it("understands the web's <column>.filter parameters", async () => {
    const included = await call('GET', '/api/db/teams?select=name&source.filter=ConfigFile', 'viewer');
    expect(included.json()).toEqual([{ name: 'platform' }]);
    const excluded = await call('GET', '/api/db/teams?select=name&source.filter=!ConfigFile', 'viewer');
    expect(excluded.json()).toEqual([{ name: 'sre' }]);
    const wildcard = await call('GET', '/api/db/people?select=name&name.filter=Ada*', 'viewer');
    expect(wildcard.json()).toEqual([{ name: 'Ada Admin' }]);
  });

  it('answers HEAD with headers and no body', async () => {
    const response = await call('HEAD', '/api/db/people', 'viewer', undefined, { prefer: 'count=exact' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['content-range']).toMatch(/\/\d+$/);
  });

  it('describes at its root only the relations the caller may read, and hides the rest from OPTIONS', async () => {
    const root = await call('GET', '/api/db/', 'viewer');
    expect(root.statusCode).toBe(200);
    const paths = Object.keys((root.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/people');
    // Off the allow-list (credentials), and listed but not readable by a viewer (identities).
    expect(paths).not.toContain('/identity_credentials');
    expect(paths).not.toContain('/identities');
    expect(paths.every((path) => path === '/' || path.slice(1) in DATA_API_RELATIONS)).toBe(true);

    const hidden = await testApp.app.inject({
      method: 'OPTIONS',
      url: '/api/db/identity_credentials',
      headers: { 'x-test-roles': 'admin' },
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ code: 'PGRST205' });
    expect(hidden.headers.allow).toBeUndefined();

    const listed = await testApp.app.inject({
      method: 'OPTIONS',
      url: '/api/db/teams',
      headers: { 'x-test-roles': 'viewer' },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.headers.allow).toBe('OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE');
  });

  it('reads a JSON body as UTF-8 bytes, and refuses one that is not UTF-8 with 400 PGRST102', async () => {
    const renamed = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/db/teams?id=eq.${uiTeam}&select=name`,
      headers: { 'x-test-roles': 'admin', 'content-type': 'application/json', prefer: 'return=representation' },
      payload: Buffer.from(JSON.stringify({ name: 'größe 日本' }), 'utf8'),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual([{ name: 'größe 日本' }]);
    await testApp.database.pool.query("UPDATE teams SET name = 'sre' WHERE id = $1", [uiTeam]);
    const refused = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/db/teams?id=eq.${uiTeam}`,
      headers: { 'x-test-roles': 'admin', 'content-type': 'application/json' },
      payload: Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'PGRST102', message: 'Empty or invalid json' });
  });
  it('answers HEAD without a Content-Length and names every error in Proxy-Status', async () => {
    const head = await call('HEAD', '/api/db/people?select=id', 'viewer');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBeUndefined();
    expect(head.headers['content-range']).toBeDefined();
    for (const [method, url, roles] of [
      ['GET', '/api/db/people?select=id(', 'viewer'],
      ['GET', '/api/db/installation', 'admin'],
      ['POST', '/api/db/teams', 'viewer'],
    ] as const) {
      const response = await call(method, url, roles, method === 'POST' ? { name: 'x' } : undefined);
      expect(response.headers['proxy-status'], url).toBe(`PostgREST; error=${response.json().code}`);
    }
  });
});

describe('/api/db request bodies', () => {
  it('reach the engine as the bytes the client sent, binary ones included', async () => {
    const seen: PgrestRequest[] = [];
    const dataApi: DataApiService = {
      handle: async (request) => {
        seen.push(request);
        return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '1' };
      },
      reloadSchema: async () => undefined,
      close: async () => undefined,
    };
    const app = Fastify();
    await app.register(dataApiRoutes, { prefix: '/api/db', dataApi, access: { rolesOf: async () => ['admin'] } });
    try {
      const every = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
      for (const [contentType, payload] of [
        ['application/octet-stream', every],
        ['text/plain', Buffer.from([0x61, 0xff, 0x62])],
        ['application/json', Buffer.from('{"name":"größe"}', 'utf8')],
      ] as const) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/db/rpc/anything',
          headers: { 'content-type': contentType },
          payload,
        });
        expect(response.statusCode).toBe(200);
        const body = seen.at(-1)?.body;
        expect(body instanceof Uint8Array && Buffer.from(body).equals(payload), contentType).toBe(true);
      }
    } finally {
      await app.close();
    }
  });

  it('keeps the session headers from SQL and sends every header value the engine gives', async () => {
    const seen: PgrestRequest[] = [];
    const dataApi: DataApiService = {
      handle: async (request) => {
        seen.push(request);
        return {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'Set-Cookie': ['a=1', 'b=2'] },
          body: request.method === 'HEAD' ? '' : '[]',
        };
      },
      reloadSchema: async () => undefined,
      close: async () => undefined,
    };
    const app = Fastify();
    await app.register(dataApiRoutes, { prefix: '/api/db', dataApi, access: { rolesOf: async () => ['admin'] } });
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/api/db/people',
        headers: { authorization: 'Bearer session-token', cookie: 'ory_kratos_session=x', 'x-request-id': 'r1' },
      });
      expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(seen[0]?.headers).toMatchObject({ 'x-request-id': 'r1' });
      expect(seen[0]?.headers).not.toHaveProperty('authorization');
      expect(seen[0]?.headers).not.toHaveProperty('cookie');
      const head = await app.inject({ method: 'HEAD', url: '/api/db/people' });
      expect(head.headers['content-length']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
