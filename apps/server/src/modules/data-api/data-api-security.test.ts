import http from 'node:http';
import { DATA_API_RELATIONS, ROLES, sourceGuardMessage, type Role } from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * /api/db attacked: every way we found to reach a relation off the allow-list, a relation the
 * caller's roles may not use, or a row another source owns. Each case asserts the refusal
 * exactly (status, code, message) and, for writes, that the rows are as they were.
 */

/** Tests sign in as a role through this header; no header means nobody is signed in. */
const rolesFromHeader = async (request: FastifyRequest): Promise<readonly Role[] | null> => {
  const header = request.headers['x-test-roles'];
  if (typeof header !== 'string') return null;
  return header === ''
    ? []
    : (header.split(',').filter((role) => (ROLES as readonly string[]).includes(role)) as Role[]);
};

const ADA = '0a000000-0000-4000-8000-00000000000a';
const BOB = '0b000000-0000-4000-8000-00000000000b';
const SYSTEM = '00000000-0000-0000-0000-000000000001';
const CONFIG_TEAM = '1c000000-0000-4000-8000-000000000001';
const UI_TEAM = '1a000000-0000-4000-8000-000000000002';
const CRD_BACKEND = '2c000000-0000-4000-8000-000000000001';
const IDENTITY = '3d000000-0000-4000-8000-000000000001';

type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';

/** A PostgREST error body with no details or hint. */
const pgrst = (code: string, message: string) => ({ code, message, details: null, hint: null });
const notFoundTable = (name: string) =>
  pgrst('PGRST205', `Could not find the table 'public.${name}' in the schema cache`);
/** The engine's answer to a function that does not exist (here: is off the list), by its parameters. */
const notFoundFunction = (name: string, params: string[]) => {
  const list = [...params].sort();
  return {
    code: 'PGRST202',
    message: `Could not find the function public.${name}${list.length === 0 ? ' without parameters' : `(${list.join(', ')})`} in the schema cache`,
    details: `Searched for the function public.${name}${
      list.length === 0 ? ' without parameters' : ` with parameter${list.length > 1 ? 's' : ''} ${list.join(', ')}`
    }, but no matches were found in the schema cache.`,
    hint: null,
  };
};
/** The engine's answer to an embed of a relation that does not exist (here: is off the list). */
const noRelationship = (origin: string, target: string) => ({
  code: 'PGRST200',
  message: `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
});
const configFileTeams = sourceGuardMessage('teams', 'ConfigFile');

describe('/api/db under attack', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp({ resolveRoles: rolesFromHeader });
    const pool = testApp.database.pool;
    await pool.query(
      `INSERT INTO people (id, name, email) VALUES ($1, 'Ada Admin', 'ada@example.com'), ($2, 'Bob Builder', 'bob@example.com')`,
      [ADA, BOB],
    );
    await pool.query(`INSERT INTO role_assignments (person_id, role) VALUES ($1, 'admin'), ($2, 'admin')`, [ADA, BOB]);
    await pool.query(
      `INSERT INTO teams (id, name, source, created_by) VALUES ($1, 'platform', 'ConfigFile', $3), ($2, 'sre', 'UI', $3)`,
      [CONFIG_TEAM, UI_TEAM, SYSTEM],
    );
    await pool.query(`INSERT INTO team_members (team_id, person_id, source) VALUES ($1, $2, 'ConfigFile')`, [
      CONFIG_TEAM,
      BOB,
    ]);
    await pool.query(
      `INSERT INTO logging_backends (id, name, spec, source) VALUES ($1, 'loki', '{}', 'KubernetesCRD')`,
      [CRD_BACKEND],
    );
    await pool.query(`INSERT INTO identities (id, traits) VALUES ($1, '{"email": "ida@example.com"}')`, [IDENTITY]);
  });
  afterAll(() => testApp.close());

  const call = (
    method: Method,
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
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });

  const teamRows = async () =>
    (await testApp.database.pool.query('SELECT id, name, source, deleted_at FROM teams ORDER BY id')).rows;
  const guardedRows = async () =>
    (
      await testApp.database.pool.query<{ snapshot: string }>(
        `SELECT json_build_object(
           'teams', (SELECT json_agg(t ORDER BY id) FROM teams t WHERE source <> 'UI'),
           'team_members', (SELECT json_agg(m ORDER BY team_id, person_id) FROM team_members m WHERE source <> 'UI'),
           'logging_backends', (SELECT json_agg(l ORDER BY id) FROM logging_backends l WHERE source <> 'UI'),
           'role_assignments', (SELECT json_agg(r ORDER BY person_id, role) FROM role_assignments r),
           'identities', (SELECT json_agg(i ORDER BY id) FROM identities i)
         )::text AS snapshot`,
      )
    ).rows[0]!.snapshot;

  describe('callers', () => {
    it('answers 401 to nobody, whatever the method', async () => {
      for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'] as const) {
        const response = await call(method, '/api/db/teams', undefined);
        expect(response.statusCode, method).toBe(401);
        if (method !== 'HEAD') {
          expect(response.json()).toMatchObject({
            error: { code: 'unauthorized', message: 'Sign in to use Lookout.' },
          });
        }
      }
    });

    it('refuses writes to every role without write on the resource, naming the roles', async () => {
      for (const roles of ['viewer', '', 'commander', 'responder']) {
        const response = await call('POST', '/api/db/teams', roles, { name: 'new', created_by: SYSTEM });
        expect(response.statusCode, roles).toBe(403);
        expect(response.json(), roles).toEqual(
          pgrst(
            '42501',
            // a person without roles is a viewer
            `Your roles (${roles === '' ? 'viewer' : roles}) do not allow write on database, which guards teams.`,
          ),
        );
      }
      const editor = await call('POST', '/api/db/teams', 'editor', { name: 'new', created_by: SYSTEM });
      expect(editor.statusCode).toBe(201);
    });

    it('refuses identities to roles that do not read identities, however it is asked', async () => {
      for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
        const response = await call(method, '/api/db/identities', 'commander,responder');
        expect(response.statusCode, method).toBe(403);
        if (method !== 'HEAD') {
          expect(response.json()).toEqual(
            pgrst(
              '42501',
              'Your roles (commander, responder) do not allow read on identities, which guards identities.',
            ),
          );
        }
      }
    });
  });

  describe('relations off the allow-list', () => {
    it('answers a relation off the list as one that does not exist, and never suggests it', async () => {
      // installation and identity_credentials exist; the others are one letter off them, so a
      // close-name hint would name the hidden ones.
      for (const name of ['installation', 'installatio', 'identity_credentials', 'identity_credential']) {
        const response = await call('GET', `/api/db/${name}`, 'admin');
        expect(response.statusCode, name).toBe(404);
        expect(response.json(), name).toEqual(notFoundTable(name));
        expect(response.headers['proxy-status'], name).toBe('PostgREST; error=PGRST205');
      }
      // A broken query string is refused before the name is looked up, for both alike.
      const broken = await call('GET', '/api/db/installation?select=id(', 'admin');
      const missing = await call('GET', '/api/db/installatio?select=id(', 'admin');
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual(missing.json());
    });

    it('answers the same 404 to every method, OPTIONS and HEAD included', async () => {
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'] as const) {
        const response = await call(
          method,
          '/api/db/identity_credentials?id=eq.1',
          'admin',
          method === 'GET' || method === 'DELETE' || method === 'OPTIONS' ? undefined : {},
        );
        expect(response.statusCode, method).toBe(404);
        expect(response.json(), method).toEqual(notFoundTable('identity_credentials'));
      }
      expect((await call('HEAD', '/api/db/identity_credentials', 'admin')).statusCode).toBe(404);
    });

    it('answers functions off the list as missing ones, by GET and POST, whatever the parameters', async () => {
      // lookout_try_uuid(value text) exists; lookout_try_uuidx does not. A function that
      // exists would be described by its parameters ("Perhaps you meant to call …(value)").
      const cases: [Method, string, unknown, string[]][] = [
        ['GET', '/api/db/rpc/lookout_try_uuid?value=x', undefined, ['value']],
        ['GET', '/api/db/rpc/lookout_try_uuid?foo=x', undefined, ['foo']],
        ['POST', '/api/db/rpc/lookout_try_uuid', { value: 'x' }, ['value']],
        ['POST', '/api/db/rpc/lookout_person_deleted_drop_roles', {}, []],
        ['GET', '/api/db/rpc/lookout_try_uuidx?value=x', undefined, ['value']],
      ];
      for (const [method, url, body, params] of cases) {
        const response = await call(method, url, 'admin', body);
        expect(response.statusCode, url).toBe(404);
        const name = url.split('/rpc/')[1]!.split('?')[0]!;
        const expected = notFoundFunction(name, params);
        // The engine adds the JSON-body alternative to a POST's details.
        if (method === 'POST') {
          expected.details = expected.details.replace(
            ', but no',
            ' or with a single unnamed json/jsonb parameter, but no',
          );
        }
        expect(response.json(), url).toEqual(expected);
      }
      const options = await call('OPTIONS', '/api/db/rpc/lookout_try_uuid', 'admin');
      expect(options.statusCode).toBe(404);
      expect(options.json()).toMatchObject({ code: 'PGRST202' });
      expect(options.headers.allow).toBeUndefined();
    });

    it('does not read other spellings of a name as the name', async () => {
      const cases: [string, string][] = [
        ['/api/db/public.people', 'public.people'],
        ['/api/db/%22people%22', '"people"'],
        ['/api/db/People', 'People'],
        // decoded once by the router: the engine must not decode it a second time
        ['/api/db/%2570eople', '%70eople'],
        ['/api/db/people+roles', 'people+roles'],
      ];
      for (const [url, name] of cases) {
        const response = await call('GET', url, 'admin');
        expect(response.statusCode, url).toBe(404);
        // The hint may name a listed relation ("Perhaps you meant the table 'public.people'").
        const { hint: _hint, ...rest } = notFoundTable(name);
        expect(response.json(), url).toMatchObject(rest);
      }
      const deeper = await call('GET', '/api/db/people%2F..%2Fidentity_credentials', 'admin');
      expect(deeper.statusCode).toBe(404);
      expect(deeper.json()).toEqual(pgrst('PGRST125', 'Invalid path specified in request URL'));
    });

    it('refuses other schemas through Accept-Profile and Content-Profile', async () => {
      const read = await call('GET', '/api/db/people', 'admin', undefined, { 'accept-profile': 'pg_catalog' });
      expect(read.statusCode).toBe(406);
      expect(read.json()).toEqual({
        code: 'PGRST106',
        message: 'Invalid schema: pg_catalog',
        details: null,
        hint: 'Only the following schemas are exposed: public',
      });
      const write = await call(
        'POST',
        '/api/db/people',
        'admin',
        { name: 'x' },
        {
          'content-profile': 'information_schema',
        },
      );
      expect(write.statusCode).toBe(406);
      expect(write.json().code).toBe('PGRST106');
    });

    it('lists only what the caller may read at the root and in OPTIONS', async () => {
      const root = await call('GET', '/api/db/', 'viewer');
      expect(root.statusCode).toBe(200);
      const paths = Object.keys((root.json() as { paths: Record<string, unknown> }).paths);
      expect(paths).toContain('/teams');
      for (const hidden of ['/installation', '/identity_credentials', '/role_assignments', '/identities']) {
        expect(paths).not.toContain(hidden);
      }
      const options = await call('OPTIONS', '/api/db/teams', 'viewer');
      expect(options.statusCode).toBe(200);
      expect(options.headers.allow).toBe('OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE');
    });
  });

  describe('embedding', () => {
    it('treats a relation off the list as missing however it is embedded (no relationship, PGRST200)', async () => {
      const selects = [
        // ambiguous by name: the candidates would name role_assignments' foreign keys (PGRST201)
        'name,role_assignments(role)',
        'name,role_assignments!inner()',
        'name,...role_assignments(role)',
        'name,role_assignments!role_assignments_person_id_fkey(role)',
        'name,role_assignments!person_id(role)',
        'name,role_assignments!role_assignments_created_by_fkey!inner(role)',
      ];
      for (const select of selects) {
        const response = await call('GET', `/api/db/people?select=${encodeURIComponent(select)}`, 'admin');
        expect(response.statusCode, select).toBe(400);
        expect(response.json(), select).toMatchObject(noRelationship('people', 'role_assignments'));
        // A hint may quote the name asked for, never suggest it.
        expect(String(response.json().hint), select).not.toContain("meant 'role_assignments'");
      }
      // several levels down, through an allowed many-to-many
      const nested = await call(
        'GET',
        `/api/db/teams?select=${encodeURIComponent('name,people!team_members(name,role_assignments!role_assignments_person_id_fkey(role))')}`,
        'admin',
      );
      expect(nested.statusCode).toBe(400);
      expect(nested.json()).toMatchObject(noRelationship('people', 'role_assignments'));
      // in a write's representation
      const written = await call(
        'PATCH',
        `/api/db/people?id=eq.${ADA}&select=${encodeURIComponent('name,role_assignments!person_id(role)')}`,
        'admin',
        { title: 'x' },
        { prefer: 'return=representation' },
      );
      expect(written.statusCode).toBe(400);
      expect(written.json()).toMatchObject(noRelationship('people', 'role_assignments'));
      // from a table the caller may read, the hidden table's own child
      const child = await call('GET', '/api/db/identities?select=id,identity_credentials(config)', 'admin');
      expect(child.statusCode).toBe(400);
      expect(child.json()).toMatchObject(noRelationship('identities', 'identity_credentials'));
    });

    it('does not suggest hidden relations in hints, and keeps hints naming listed ones', async () => {
      // identities' only relationships lead off the list: it reads as a relation without any,
      // so the hint suggests another origin, as PostgREST does for one.
      const hidden = await call('GET', '/api/db/identities?select=id,identity_credential(config)', 'admin');
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json()).toEqual({
        code: 'PGRST200',
        message: "Could not find a relationship between 'identities' and 'identity_credential' in the schema cache",
        details:
          "Searched for a foreign key relationship between 'identities' and 'identity_credential' in the schema 'public', but no matches were found.",
        hint: expect.stringMatching(/^Perhaps you meant '[a-z_]+' instead of 'identities'\.$/),
      });
      // Which listed relation is closest changes as areas add tables; it is never a hidden one.
      const suggested = /'([a-z_]+)' instead/.exec(hidden.json().hint)?.[1] ?? '';
      expect(Object.keys(DATA_API_RELATIONS), suggested).toContain(suggested);
      const listed = await call('GET', '/api/db/teams?select=name,peopl(name)', 'viewer');
      expect(listed.statusCode).toBe(400);
      expect(listed.json().hint).toBe("Perhaps you meant 'people' instead of 'peopl'.");
    });

    it('does not filter or order by a relation that is not embedded (PGRST108)', async () => {
      for (const query of ['role_assignments.role=eq.admin', 'order=role_assignments(role)']) {
        const response = await call('GET', `/api/db/people?select=name&${query}`, 'admin');
        expect(response.statusCode, query).toBe(400);
        expect(response.json(), query).toEqual({
          code: 'PGRST108',
          message: "'role_assignments' is not an embedded resource in this request",
          details: null,
          hint: "Verify that 'role_assignments' is included in the 'select' query parameter.",
        });
      }
    });
  });

  describe('read-only relations', () => {
    it('refuses writes to identities and people_roles however the path is spelled', async () => {
      const before = await guardedRows();
      const identitiesReadOnly = pgrst(
        'PGRST117',
        'identities is read-only here; change users with /api/auth/invite_user, /api/people/update and DELETE /api/people/{id}.',
      );
      for (const path of ['identities', '/identities', 'identities/', '%69dentities']) {
        const response = await call('PATCH', `/api/db/${path}?id=eq.${IDENTITY}`, 'admin', { state: 'inactive' });
        expect(response.statusCode, path).toBe(405);
        expect(response.json(), path).toEqual(identitiesReadOnly);
      }
      // decoded twice it would be identities: once is all it gets
      const twice = await call('PATCH', `/api/db/%2569dentities?id=eq.${IDENTITY}`, 'admin', { state: 'inactive' });
      expect(twice.statusCode).toBe(404);
      expect(twice.json()).toMatchObject({ code: 'PGRST205', message: notFoundTable('%69dentities').message });
      const roles = await call('POST', '/api/db//people%5Froles', 'admin', { id: ADA, roles: ['viewer'] });
      expect(roles.statusCode).toBe(405);
      expect(roles.json()).toEqual(
        pgrst('PGRST117', 'people_roles is read-only here; change roles with POST /api/rbac/{id}/update_role.'),
      );
      expect(await guardedRows()).toBe(before);
    });
  });

  describe('removing people', () => {
    const removal = pgrst(
      'PGRST117',
      'people rows cannot be removed here (their roles and team memberships would go with them); use DELETE /api/people/{id}.',
    );

    it('refuses a delete or soft delete, which would drop roles and memberships of other sources', async () => {
      const before = await guardedRows();
      const cases: [Method, string, unknown, Record<string, string>][] = [
        ['DELETE', `/api/db/people?id=eq.${BOB}`, undefined, {}],
        ['DELETE', `/api/db//people/?id=eq.${BOB}`, undefined, {}],
        ['PATCH', `/api/db/people?id=eq.${BOB}`, { deleted_at: 'now()' }, {}],
        // the key spelled with a JSON escape is the same key to PostgreSQL
        ['PATCH', `/api/db/people?id=eq.${BOB}`, '{"deleted_\\u0061t": "now()"}', {}],
        ['PATCH', `/api/db/people?id=eq.${BOB}&columns=deleted_at`, { title: 'x' }, { prefer: 'missing=default' }],
        ['PUT', `/api/db/people?id=eq.${BOB}`, { id: BOB, name: 'Bob Builder', deleted_at: 'now()' }, {}],
        [
          'POST',
          '/api/db/people?on_conflict=id',
          [{ id: BOB, name: 'Bob Builder', deleted_at: 'now()' }],
          { prefer: 'resolution=merge-duplicates' },
        ],
      ];
      for (const [method, url, body, headers] of cases) {
        const response = await call(method, url, 'editor', body, headers);
        expect(response.statusCode, `${method} ${url}`).toBe(405);
        expect(response.json(), `${method} ${url}`).toEqual(removal);
      }
      // whatever the body's format: the columns are the ones the engine read from it
      for (const [contentType, body] of [
        ['text/csv', 'deleted_at\n2020-01-01'],
        ['application/x-www-form-urlencoded', 'deleted%5Fat=2020-01-01'],
      ]) {
        const response = await call('PATCH', `/api/db/people?id=eq.${BOB}`, 'editor', body, {
          'content-type': contentType!,
        });
        expect(response.statusCode, contentType).toBe(405);
        expect(response.json(), contentType).toEqual(removal);
      }
      // callers without write on database get the usual 403
      const viewer = await call('DELETE', `/api/db/people?id=eq.${BOB}`, 'viewer');
      expect(viewer.statusCode).toBe(403);
      expect(viewer.json()).toEqual(
        pgrst('42501', 'Your roles (viewer) do not allow write on database, which guards people.'),
      );
      expect(await guardedRows()).toBe(before);
    });

    it('still lets an editor change other columns of a person', async () => {
      const response = await call(
        'PATCH',
        `/api/db/people?id=eq.${BOB}`,
        'editor',
        { title: 'Lead' },
        {
          prefer: 'return=representation',
        },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([expect.objectContaining({ id: BOB, title: 'Lead', deleted_at: null })]);
    });
  });

  describe('source guard', () => {
    it('refuses every way of changing a ConfigFile row, and leaves it as it was', async () => {
      const before = await guardedRows();
      const full = { id: CONFIG_TEAM, name: 'taken', created_by: SYSTEM };
      const cases: [Method, string, unknown, Record<string, string>][] = [
        ['PATCH', `/api/db/teams?id=eq.${CONFIG_TEAM}`, { name: 'taken' }, {}],
        ['PATCH', `/api/db/teams?id=eq.${CONFIG_TEAM}`, { source: 'UI' }, {}],
        ['PATCH', `/api/db/teams?id=eq.${CONFIG_TEAM}&columns=source`, {}, { prefer: 'missing=default' }],
        ['PATCH', `/api/db/teams?id=eq.${CONFIG_TEAM}`, { name: 'taken' }, { prefer: 'return=representation' }],
        ['PATCH', `/api/db/teams?id=eq.${CONFIG_TEAM}`, { name: 'taken' }, { prefer: 'tx=commit' }],
        [
          'PATCH',
          `/api/db/teams?id=eq.${CONFIG_TEAM}`,
          { name: 'taken' },
          { prefer: 'max-affected=5,handling=strict' },
        ],
        [
          'PATCH',
          `/api/db/teams?or=(id.eq.${CONFIG_TEAM},id.eq.${UI_TEAM})&order=name.asc&limit=1`,
          { name: 'taken' },
          {},
        ],
        ['PUT', `/api/db/teams?id=eq.${CONFIG_TEAM}`, { ...full, source: 'UI' }, {}],
        ['PUT', `/api/db/teams?id=eq.${CONFIG_TEAM}`, full, {}],
        ['POST', '/api/db/teams', full, { prefer: 'resolution=merge-duplicates' }],
        [
          'POST',
          '/api/db/teams?on_conflict=id',
          [{ ...full, id: UI_TEAM, name: 'sre' }, full],
          { prefer: 'resolution=merge-duplicates,return=representation' },
        ],
        ['DELETE', `/api/db/teams?id=eq.${CONFIG_TEAM}`, undefined, { prefer: 'return=representation' }],
        ['DELETE', `/api/db/teams?name=like.*`, undefined, {}],
      ];
      for (const [method, url, body, headers] of cases) {
        const response = await call(method, url, 'admin', body, headers);
        expect(response.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(response.json(), `${method} ${url}`).toEqual(pgrst('LK403', configFileTeams));
      }
      const members = await call('DELETE', `/api/db/team_members?team_id=eq.${CONFIG_TEAM}`, 'admin');
      expect(members.statusCode).toBe(403);
      expect(members.json()).toEqual(pgrst('LK403', sourceGuardMessage('team_members', 'ConfigFile')));
      const moved = await call('PATCH', `/api/db/team_members?person_id=eq.${BOB}`, 'admin', { team_id: UI_TEAM });
      expect(moved.statusCode).toBe(403);
      const backend = await call('PATCH', `/api/db/logging_backends?id=eq.${CRD_BACKEND}`, 'admin', {
        source: 'UI',
      });
      expect(backend.statusCode).toBe(403);
      expect(backend.json()).toEqual(pgrst('LK403', sourceGuardMessage('logging_backends', 'KubernetesCRD')));
      expect(await guardedRows()).toBe(before);
    });

    it('skips a colliding guarded row under ignore-duplicates without changing it', async () => {
      const before = await guardedRows();
      const response = await call(
        'POST',
        '/api/db/teams?on_conflict=id',
        'admin',
        { id: CONFIG_TEAM, name: 'taken', created_by: SYSTEM },
        { prefer: 'resolution=ignore-duplicates,return=representation' },
      );
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual([]);
      expect(await guardedRows()).toBe(before);
    });

    it('refuses creating rows of another source in every body format', async () => {
      const before = await teamRows();
      const cases: [unknown, Record<string, string>][] = [
        [{ name: 'a', source: 'ConfigFile', created_by: SYSTEM }, {}],
        [{ name: 'a', source: null, created_by: SYSTEM }, {}],
        [{ name: 'a', source: 'UI ', created_by: SYSTEM }, {}],
        [{ name: 'a', source: ['UI'], created_by: SYSTEM }, {}],
        // the last of duplicate keys is the value PostgreSQL stores, and the guard reads it too
        [`{"name": "a", "source": "UI", "source": "ConfigFile", "created_by": "${SYSTEM}"}`, {}],
        [
          [
            { name: 'a', source: 'UI', created_by: SYSTEM },
            { name: 'b', source: 'ConfigFile', created_by: SYSTEM },
          ],
          {},
        ],
        [`name,source,created_by\na,ConfigFile,${SYSTEM}`, { 'content-type': 'text/csv' }],
      ];
      for (const [body, headers] of cases) {
        const response = await call('POST', '/api/db/teams', 'admin', body, headers);
        expect(response.statusCode, JSON.stringify(body)).toBe(403);
        expect(response.json().code, JSON.stringify(body)).toBe('LK403');
      }
      const nullSource = await call('POST', '/api/db/teams', 'admin', { name: 'a', source: null, created_by: SYSTEM });
      expect(nullSource.json()).toEqual(pgrst('LK403', sourceGuardMessage('teams', 'null')));
      // a UI row cannot be handed to another source either
      const handOver = await call('PATCH', `/api/db/teams?id=eq.${UI_TEAM}`, 'admin', { source: 'ConfigFile' });
      expect(handOver.statusCode).toBe(403);
      expect(handOver.json()).toEqual(pgrst('LK403', configFileTeams));
      expect(await teamRows()).toEqual(before);
    });

    it('creates UI rows when columns= or missing=default leave the source out', async () => {
      const response = await call(
        'POST',
        '/api/db/teams?columns=name,created_by',
        'admin',
        { name: 'columns-only', source: 'ConfigFile', created_by: SYSTEM },
        { prefer: 'return=representation,missing=default' },
      );
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual([expect.objectContaining({ name: 'columns-only', source: 'UI' })]);
    });

    it('shows only the written relation in a constraint violation, as PostgREST does', async () => {
      // people: teams name a duplicate themselves (migration 15), so PostgreSQL's own message
      // shows on another unique index.
      const response = await call('POST', '/api/db/people', 'admin', { name: 'Ada Again', email: 'ada@example.com' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        code: '23505',
        message: 'duplicate key value violates unique constraint "people_email_live_key"',
        details: 'Key (lower(email))=(ada@example.com) already exists.',
        hint: null,
      });
    });
  });

  describe('parsers', () => {
    it('refuses a JSON path of 4,500 levels with a 400 that names the bound, instead of a stack overflow', async () => {
      // Sent as curl sends it, with `>` unencoded (13,500 characters, within the query string bound).
      const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            path: `/api/db/canaries?select=spec${'->a'.repeat(4_500)}`,
            headers: { 'x-test-roles': 'viewer' },
          },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(raw.status).toBe(400);
      expect(JSON.parse(raw.body)).toEqual({
        code: 'PGRST100',
        message: 'The select parameter has a JSON path deeper than 64 -> or ->> steps',
        details: `At column 5: ${'->a'.repeat(20)}…`,
        hint: 'Use at most 64 steps: select a shallower path and read the deeper values from the JSON it returns.',
      });
      // Percent-encoded, the same path is longer than the query string bound: also a 400.
      const encoded = await call('GET', `/api/db/canaries?select=spec${'->a'.repeat(4_500)}`, 'viewer');
      expect(encoded.statusCode).toBe(400);
      expect(encoded.json()).toMatchObject({ code: 'PGRST100', message: 'Request too complex' });
      const filtered = await call('GET', `/api/db/canaries?spec${'->a'.repeat(1_000)}=eq.1`, 'viewer');
      expect(filtered.statusCode).toBe(400);
      expect(filtered.json()).toMatchObject({
        code: 'PGRST100',
        message: 'The parameter name has a JSON path deeper than 64 -> or ->> steps',
      });
    });

    it('refuses JSON bodies nested 200,000 deep with a 400 that names the bound, and writes nothing', async () => {
      const before = await teamRows();
      const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
      const expected = {
        code: 'PGRST102',
        message: 'The JSON body nests arrays and objects more than 100 levels deep',
        details: null,
        hint: 'Send a body nested at most 100 levels deep.',
      };
      const teams = await call(
        'POST',
        '/api/db/teams',
        'admin',
        `{"name": "deep", "created_by": "${SYSTEM}", "x": ${deep}}`,
      );
      expect(teams.statusCode).toBe(400);
      expect(teams.json()).toEqual(expected);
      // canaries pass through health's validation first, which leaves such a body to the engine.
      const canaries = await call('POST', '/api/db/canaries', 'admin', `{"name": "deep", "spec": ${deep}}`);
      expect(canaries.statusCode).toBe(400);
      expect(canaries.json()).toEqual(expected);
      expect(await teamRows()).toEqual(before);
    });
  });
});
