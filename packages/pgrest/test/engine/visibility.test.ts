import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgrest } from '../../src/engine.js';
import type { PgrestAccess, PgrestEngine, PgrestVerdict } from '../../src/engine-types.js';
import { startEngine, type EngineHarness } from './helpers.js';

/*
 * The `authorize` hook decides what a request may see: a relation or function it answers 404
 * for is treated as missing wherever the engine looks a name up (target, OPTIONS, embedding
 * candidates, computed fields and relationships, functions, close-name hints, the root). So a
 * hidden name gets exactly the answer a name that does not exist gets, and never shows up in
 * another answer. The hook also sees the columns a write sets, and may refuse it with 405.
 */

const SETUP = `
CREATE TABLE teams (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE members (id int PRIMARY KEY, name text NOT NULL, team_id int REFERENCES teams (id));
-- Two junctions between teams and members: one hidden, one shown.
CREATE TABLE memberships (team_id int REFERENCES teams (id), member_id int REFERENCES members (id),
  PRIMARY KEY (team_id, member_id));
CREATE TABLE team_admins (team_id int REFERENCES teams (id), member_id int REFERENCES members (id),
  PRIMARY KEY (team_id, member_id));
CREATE TABLE secrets (id int PRIMARY KEY, team_id int REFERENCES teams (id), value text);
CREATE FUNCTION team_label(teams) RETURNS text LANGUAGE sql STABLE AS $$ SELECT upper($1.name) $$;
CREATE FUNCTION team_secret_count(teams) RETURNS bigint LANGUAGE sql STABLE
  AS $$ SELECT count(*) FROM secrets WHERE team_id = $1.id $$;
CREATE FUNCTION secret_members(teams) RETURNS SETOF members LANGUAGE sql STABLE
  AS $$ SELECT * FROM members WHERE team_id = $1.id $$;
CREATE FUNCTION hidden_add(x int, y int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT x + y $$;
CREATE FUNCTION shown_add(x int, y int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT x + y $$;
INSERT INTO teams VALUES (1, 'sre');
INSERT INTO members VALUES (1, 'ada', 1), (2, 'bob', 1);
INSERT INTO memberships VALUES (1, 1), (1, 2);
INSERT INTO team_admins VALUES (1, 1);
INSERT INTO secrets VALUES (1, 1, 'hunter2');
`;

const HIDDEN = new Set(['memberships', 'secrets', 'team_secret_count', 'secret_members', 'hidden_add']);
const READ_ONLY = new Set(['team_admins']);

let asked: PgrestAccess[] = [];
function authorize(access: PgrestAccess): PgrestVerdict {
  asked.push(access);
  if (HIDDEN.has(access.relation)) return { allowed: false, status: 404, message: 'hidden' };
  if (access.action === 'write' && READ_ONLY.has(access.relation)) {
    return { allowed: false, status: 405, message: `${access.relation} is read-only here.` };
  }
  if (access.action === 'write' && access.columns?.includes('name') && access.relation === 'members') {
    return { allowed: false, status: 403, message: 'names are set elsewhere' };
  }
  return { allowed: true };
}

let hooked: EngineHarness;
/** The same database without the hook, to show what it hides. */
let open: Pick<EngineHarness, 'get'>;
let openEngine: PgrestEngine;
beforeAll(async () => {
  hooked = await startEngine(SETUP, { authorize });
  openEngine = await createPgrest({ pool: hooked.db.pool, schemas: ['public'], listen: false });
  open = {
    get: async (pathAndQuery) => {
      const [path = '', query = ''] = pathAndQuery.replace(/^\//, '').split(/\?(.*)/s);
      const response = await openEngine.handle({ method: 'GET', path, query, headers: {} });
      return { status: response.status, headers: {}, body: response.body, json: JSON.parse(response.body) as unknown };
    },
  };
});
afterAll(async () => {
  await openEngine?.close();
  await hooked?.close();
});

/** The body a request gets, with `from` spelled `to` (to compare a hidden name with a missing one). */
function renamed(body: unknown, from: string, to: string): unknown {
  return JSON.parse(JSON.stringify(body).replaceAll(from, to));
}

describe('a hidden relation', () => {
  it('answers as a missing one, for every method and OPTIONS', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      const hidden = await hooked.request(
        method,
        '/secrets?id=eq.1',
        method === 'POST' || method === 'PATCH' ? { body: { id: 1 } } : {},
      );
      const missing = await hooked.request(
        method,
        '/zecrets?id=eq.1',
        method === 'POST' || method === 'PATCH' ? { body: { id: 1 } } : {},
      );
      expect(hidden.status, method).toBe(404);
      expect(hidden.headers['proxy-status'], method).toBe('PostgREST; error=PGRST205');
      expect(hidden.json, method).toEqual(renamed(missing.json, 'zecrets', 'secrets'));
    }
    expect((await hooked.get('/secrets')).json).toEqual({
      code: 'PGRST205',
      message: "Could not find the table 'public.secrets' in the schema cache",
      details: null,
      hint: null,
    });
  });

  it('is never suggested by a close-name hint, where a shown one is', async () => {
    expect((await open.get('/secret')).json).toMatchObject({ hint: "Perhaps you meant the table 'public.secrets'" });
    expect((await hooked.get('/secret')).json).toMatchObject({ code: 'PGRST205', hint: null });
    expect((await hooked.get('/team')).json).toMatchObject({ hint: "Perhaps you meant the table 'public.teams'" });
  });

  it('is no embedding candidate: embedding it is a missing relationship', async () => {
    const hidden = await hooked.get('/teams?select=id,secrets(value)');
    const missing = await hooked.get('/teams?select=id,zecrets(value)');
    expect(hidden.status).toBe(400);
    expect(hidden.json).toEqual(renamed(missing.json, 'zecrets', 'secrets'));
    expect(hidden.body).not.toContain('hunter2');
  });

  it('as a junction, leaves the other candidate unambiguous', async () => {
    // Without the hook both junctions are candidates (PGRST201, naming memberships).
    const ambiguous = await open.get('/teams?select=members!inner(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.body).toContain('memberships');
    // With memberships hidden the embed goes through team_admins, and only the many-to-one is left besides it.
    const shown = await hooked.get('/teams?select=name,admins:members!team_admins(name)');
    expect(shown.status).toBe(200);
    expect(shown.json).toEqual([{ name: 'sre', admins: [{ name: 'ada' }] }]);
    const viaHidden = await hooked.get('/teams?select=name,members!memberships(name)');
    expect(viaHidden.status).toBe(400);
    expect(viaHidden.json).toMatchObject({ code: 'PGRST200' });
    // An ambiguity lists shown candidates only.
    const listed = await hooked.get('/teams?select=members(name)');
    expect(listed.body).not.toContain('memberships');
  });
});

describe('a hidden function', () => {
  it('is no computed field: selecting it is an unknown column', async () => {
    expect((await hooked.get('/teams?select=id,team_label')).json).toEqual([{ id: 1, team_label: 'SRE' }]);
    const hidden = await hooked.get('/teams?select=id,team_secret_count');
    const missing = await hooked.get('/teams?select=id,team_zecret_count');
    expect(hidden.status).toBe(400);
    expect(hidden.json).toEqual(renamed(missing.json, 'team_zecret_count', 'team_secret_count'));
    expect((await hooked.get('/teams?select=id&team_secret_count=gt.0')).status).toBe(400);
  });

  it('is no computed relationship', async () => {
    expect((await open.get('/teams?select=secret_members(name)')).status).toBe(200);
    const hidden = await hooked.get('/teams?select=secret_members(name)');
    expect(hidden.status).toBe(400);
    expect(hidden.json).toMatchObject({ code: 'PGRST200' });
  });

  it('answers RPC as a missing function, by GET, POST and OPTIONS, never listing its parameters', async () => {
    for (const [method, path, body] of [
      ['GET', '/rpc/hidden_add?x=1&y=2', undefined],
      ['GET', '/rpc/hidden_add?x=1', undefined],
      ['POST', '/rpc/hidden_add', { x: 1, y: 2 }],
      ['OPTIONS', '/rpc/hidden_add', undefined],
    ] as const) {
      const hidden = await hooked.request(method, path, body ? { body } : {});
      const missing = await hooked.request(method, path.replace('hidden_add', 'hidden_zzz'), body ? { body } : {});
      expect(hidden.status, path).toBe(404);
      expect(hidden.json, path).toEqual(renamed(missing.json, 'hidden_zzz', 'hidden_add'));
    }
    // A shown function with the wrong parameters is described by them.
    expect((await hooked.get('/rpc/shown_add?x=1')).json).toMatchObject({
      hint: 'Perhaps you meant to call the function public.shown_add(x, y)',
    });
  });
});

describe('the root', () => {
  it('describes shown relations and functions only', async () => {
    const root = await hooked.get('/');
    const paths = Object.keys((root.json as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/teams', '/members', '/team_admins', '/rpc/shown_add']));
    for (const hidden of ['/secrets', '/memberships', '/rpc/hidden_add', '/rpc/team_secret_count']) {
      expect(paths).not.toContain(hidden);
    }
  });
});

describe('writes', () => {
  it('hand the hook the columns the payload sets, whatever its format', async () => {
    const cases: [string, string, string][] = [
      ['application/json', '{"id": 9, "team_id": 1}', 'id,team_id'],
      ['text/csv', 'id,team_id\n9,1', 'id,team_id'],
      ['application/x-www-form-urlencoded', 'id=9&team%5Fid=1', 'id,team_id'],
    ];
    for (const [contentType, body, columns] of cases) {
      asked = [];
      await hooked.request('POST', '/members', {
        body,
        headers: { 'content-type': contentType, prefer: 'tx=rollback' },
      });
      const write = asked.find((access) => access.action === 'write' && access.relation === 'members');
      expect(write?.columns?.join(','), contentType).toBe(columns);
    }
    asked = [];
    await hooked.request('PATCH', '/members?id=eq.1&columns=team_id', { body: { team_id: 1, name: 'x' } });
    expect(asked.find((access) => access.action === 'write')?.columns).toEqual(['team_id']);
    asked = [];
    await hooked.request('DELETE', '/members?id=eq.0');
    expect(asked.find((access) => access.action === 'write')?.columns).toBeUndefined();
  });

  it('are refused by the hook before any SQL: 405 is PGRST117, 403 is 42501', async () => {
    const readOnly = await hooked.request('POST', '/team_admins', { body: { team_id: 1, member_id: 2 } });
    expect(readOnly.status).toBe(405);
    expect(readOnly.headers['proxy-status']).toBe('PostgREST; error=PGRST117');
    expect(readOnly.json).toEqual({
      code: 'PGRST117',
      message: 'team_admins is read-only here.',
      details: null,
      hint: null,
    });
    const named = await hooked.request('PATCH', '/members?id=eq.1', {
      body: 'name\nmallory',
      headers: { 'content-type': 'text/csv' },
    });
    expect(named.status).toBe(403);
    expect(named.json).toMatchObject({ code: '42501', message: 'names are set elsewhere' });
    const rows = await hooked.db.pool.query('SELECT name FROM members WHERE id = 1');
    expect(rows.rows).toEqual([{ name: 'ada' }]);
    expect((await hooked.db.pool.query('SELECT count(*)::int AS n FROM team_admins')).rows).toEqual([{ n: 1 }]);
  });
});
