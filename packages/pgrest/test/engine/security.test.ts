import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgrestAccess } from '../../src/engine-types.js';
import { startEngine, type EngineHarness } from './helpers.js';
import { LOOKOUT_SQL } from './lookout-fixture.js';

const EXTRA_SQL = `
do $$ begin
  if not exists (select from pg_roles where rolname = 'pgrest_test_anon') then create role pgrest_test_anon nologin; end if;
  if not exists (select from pg_roles where rolname = 'pgrest_test_user') then create role pgrest_test_user nologin; end if;
end $$;
grant usage on schema public to pgrest_test_anon, pgrest_test_user;
grant select on people to pgrest_test_anon, pgrest_test_user;
create function whoami() returns json language sql stable as $$ select current_setting('request.jwt.claims', true)::json $$;
create function slow() returns int language sql as $$ select 1 from pg_sleep(2) $$;
grant execute on function whoami() to pgrest_test_anon, pgrest_test_user;
`;

let h: EngineHarness;
const accesses: PgrestAccess[] = [];
const UI_TEAM = '10000000-0000-0000-0000-000000000001';
const SCRAPED_TEAM = '10000000-0000-0000-0000-000000000002';

beforeAll(async () => {
  h = await startEngine(LOOKOUT_SQL + EXTRA_SQL, {
    statementTimeoutMs: 500,
    authorize: (access) => {
      accesses.push(access);
      if (access.relation === 'agents' && access.embedded)
        return { allowed: false, status: 403, message: 'no agents for you' };
      if (access.relation === 'properties') return { allowed: false, status: 404, message: 'Not found' };
      if (access.relation === 'incidents' && access.action === 'write')
        return { allowed: false, status: 403, message: 'read only' };
      return { allowed: true };
    },
    rowGuard: (relation) =>
      relation === 'teams' || relation === 'canaries'
        ? { column: 'source', allowed: 'UI', message: (value) => `Rows created by ${value} cannot be changed` }
        : undefined,
  });
});
afterAll(async () => {
  await h.close();
});

describe('authorize hook', () => {
  it('hides or forbids the target with PostgREST error bodies', async () => {
    // Hidden: answered as a missing relation, with the engine's message rather than the hook's.
    const hidden = await h.get('properties');
    expect(hidden.status).toBe(404);
    expect(hidden.json).toEqual({
      code: 'PGRST205',
      message: "Could not find the table 'public.properties' in the schema cache",
      details: null,
      hint: null,
    });
    const forbidden = await h.request('PATCH', 'incidents?id=eq.x', { body: { title: 'x' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toEqual({ code: '42501', message: 'read only', details: null, hint: null });
  });

  it('checks every embedded relation before running SQL', async () => {
    accesses.length = 0;
    const r = await h.get('checks?select=name,canaries(name),agents!checks_agent_id_fkey(name)');
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ message: 'no agents for you' });
    expect(accesses).toContainEqual({
      relation: 'checks',
      schema: 'public',
      kind: 'relation',
      action: 'read',
      method: 'GET',
      embedded: false,
    });
    expect(accesses).toContainEqual({
      relation: 'canaries',
      schema: 'public',
      kind: 'relation',
      action: 'read',
      method: 'GET',
      embedded: true,
    });
  });

  it('reports RPC calls as function reads (GET) and writes (POST)', async () => {
    accesses.length = 0;
    await h.get('rpc/whoami');
    await h.request('POST', 'rpc/whoami', { body: {} });
    // Besides the lookups' visibility questions (embedded reads), one decision per call.
    const decisions = accesses.filter((access) => !access.embedded);
    expect(decisions.map((access) => [access.kind, access.action])).toEqual([
      ['function', 'read'],
      ['function', 'write'],
    ]);
  });
});

describe('row guard', () => {
  it('refuses changes to rows whose source is not UI (LK403)', async () => {
    const patch = await h.request('PATCH', `teams?id=eq.${SCRAPED_TEAM}`, { body: { name: 'x' } });
    expect(patch.status).toBe(403);
    expect(patch.json).toEqual({
      code: 'LK403',
      message: 'Rows created by KubernetesScraper cannot be changed',
      details: null,
      hint: null,
    });
    const del = await h.request('DELETE', 'teams?name=like.*');
    expect(del.status).toBe(403);
    const stillThere = await h.get('teams?select=name&order=name');
    expect(stillThere.json).toEqual([{ name: 'Platform' }, { name: 'SRE' }]);
  });

  it('lets UI rows change', async () => {
    const patch = await h.request('PATCH', `teams?id=eq.${UI_TEAM}`, {
      body: { icon: 'fire' },
      headers: { prefer: 'return=representation' },
    });
    expect(patch.status).toBe(200);
    expect(patch.json).toMatchObject([{ icon: 'fire' }]);
  });

  it('refuses inserts and updates that set another source', async () => {
    const insert = await h.request('POST', 'canaries', {
      body: { id: '3a000000-0000-0000-0000-000000000001', name: 'x', source: 'Agent' },
    });
    expect(insert.status).toBe(403);
    expect(insert.json).toMatchObject({ code: 'LK403', message: 'Rows created by Agent cannot be changed' });
    const ok = await h.request('POST', 'canaries', { body: { id: '3a000000-0000-0000-0000-000000000002', name: 'y' } });
    expect(ok.status).toBe(201);
    const relabel = await h.request('PATCH', `teams?id=eq.${UI_TEAM}`, { body: { source: 'Other' } });
    expect(relabel.status).toBe(403);
  });

  it('refuses an upsert that would overwrite a guarded row', async () => {
    const r = await h.request('POST', 'teams', {
      body: { id: SCRAPED_TEAM, name: 'taken over' },
      headers: { prefer: 'resolution=merge-duplicates' },
    });
    expect(r.status).toBe(403);
    const name = await h.get(`teams?select=name&id=eq.${SCRAPED_TEAM}`);
    expect(name.json).toEqual([{ name: 'Platform' }]);
  });
});

describe('request text never reaches SQL unquoted', () => {
  it('refuses unknown or malicious column and relation names with 4xx', async () => {
    // `;` separates parameters (as in PostgREST); encoded, it is part of the name.
    const column = await h.get('people?select=id%3Bdrop table people');
    expect(column.status).toBe(400);
    const quoted = await h.get(`people?select=${encodeURIComponent('"id; drop table people"')}`);
    expect(quoted.status).toBe(400);
    expect(quoted.json).toMatchObject({ code: '42703' });
    // PostgREST reads the key up to the first character that cannot continue a name, so
    // this filters on `name`; the rest never reaches SQL.
    const filter = await h.get('people?name%3Bdrop table people--=eq.1');
    expect(filter.status).toBe(200);
    expect(filter.json).toEqual([]);
    const unknown = await h.get('people?nope=eq.1');
    expect(unknown.status).toBe(400);
    const relation = await h.get('people";drop table people;--');
    expect(relation.status).toBe(404);
    const order = await h.get('people?order=name%3Bdelete from people');
    expect(order.status).toBe(400);
    const embed = await h.get('checks?select=name,canaries"%3Bdrop table people%3B--(name)');
    expect(embed.status).toBe(400);
    const cast = await h.get('people?select=name::text%3Bdrop table people');
    expect(cast.status).toBe(400);
  });

  it('binds values with quotes and semicolons and quotes aliases', async () => {
    const value = await h.get(`people?select=name&name=eq.${encodeURIComponent("x'); drop table people; --")}`);
    expect(value.status).toBe(200);
    expect(value.json).toEqual([]);
    const list = await h.get(
      `people?select=name&name=in.(${encodeURIComponent('"a\\"b", \'c\'); drop table people;--')})`,
    );
    expect(list.status).toBe(200);
    const jsonKey = await h.get(
      `checks?select=name&labels->>${encodeURIComponent("a'); drop table people;--")}=is.null`,
    );
    expect(jsonKey.status).toBe(200);
    const alias = await h.get(
      `people?select=${encodeURIComponent('"x\\" from people; drop table people; --"')}:name&limit=1`,
    );
    expect(alias.status).toBe(200);
    expect(alias.json).toEqual([{ 'x" from people; drop table people; --': 'Alice' }]);
    const body = await h.request('POST', 'people', {
      body: { id: '0d000000-0000-0000-0000-000000000001', name: "Robert'); DROP TABLE people;--" },
    });
    expect(body.status).toBe(201);
    const alive = await h.get('people?select=name&id=eq.0d000000-0000-0000-0000-000000000001');
    expect(alive.json).toEqual([{ name: "Robert'); DROP TABLE people;--" }]);
  });
});

describe('roles, claims and limits', () => {
  it('switches to the caller role and maps privilege errors to 401/403', async () => {
    const people = await h.get('people?select=name&limit=1');
    expect(people.status).toBe(200);
    const anon = await h.request('GET', 'checks', { caller: { role: undefined } });
    expect(anon.status).toBe(200);
    const asUser = await h.request('GET', 'checks', { caller: { role: 'pgrest_test_user', claims: { sub: 'u1' } } });
    expect(asUser.status).toBe(403);
    expect(asUser.json).toMatchObject({ code: '42501' });
    const claims = await h.request('GET', 'rpc/whoami', {
      caller: { role: 'pgrest_test_user', claims: { sub: 'u1', role: 'pgrest_test_user' } },
    });
    expect(claims.json).toEqual({ sub: 'u1', role: 'pgrest_test_user' });
  });

  it('ends slow statements with the statement timeout (57014, 500)', async () => {
    const r = await h.request('POST', 'rpc/slow', { body: {} });
    expect(r.status).toBe(500);
    expect(r.json).toMatchObject({ code: '57014' });
  });

  it('bounds the query string and nesting', async () => {
    const long = await h.get(`people?name=eq.${'x'.repeat(20_000)}`);
    expect(long.status).toBe(400);
    const deep = await h.get(`people?or=${'or('.repeat(200)}name.eq.x${')'.repeat(200)}`);
    expect(deep.status).toBe(400);
  });

  it('refuses a JSON path of 4,500 levels with a 400 that names the bound, wherever the path is', async () => {
    const path = `spec${'->a'.repeat(4_500)}`;
    const select = await h.get(`config_items?select=${path.replace('spec', 'labels')}`);
    expect(select.status).toBe(400);
    expect(select.json).toEqual({
      code: 'PGRST100',
      message: 'The select parameter has a JSON path deeper than 64 -> or ->> steps',
      details: `At column 7: ${'->a'.repeat(20)}…`,
      hint: 'Use at most 64 steps: select a shallower path and read the deeper values from the JSON it returns.',
    });
    const filter = await h.get(`canaries?${path}=eq.1`);
    expect(filter.status).toBe(400);
    expect(filter.json).toMatchObject({
      code: 'PGRST100',
      message: expect.stringContaining('parameter name has a JSON path deeper than 64'),
    });
    const order = await h.get(`canaries?order=${path}.desc`);
    expect(order.json).toMatchObject({
      code: 'PGRST100',
      message: expect.stringContaining('order parameter has a JSON path'),
    });
    const logic = await h.get(`canaries?or=(${path}.eq.1,name.eq.x)`);
    expect(logic.json).toMatchObject({
      code: 'PGRST100',
      message: expect.stringContaining('or parameter has a JSON path'),
    });
  });

  it('keeps JSON paths of up to 64 steps', async () => {
    const res = await h.get(`canaries?select=spec${'->a'.repeat(64)}&spec${'->b'.repeat(63)}->>c=is.null`);
    expect(res.status).toBe(200);
  });

  it('refuses JSON bodies nested 200,000 deep with a 400 that names the bound (writes and calls)', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const expected = {
      code: 'PGRST102',
      message: 'The JSON body nests arrays and objects more than 100 levels deep',
      details: null,
      hint: 'Send a body nested at most 100 levels deep.',
    };
    const insert = await h.request('POST', 'canaries', {
      body: `{"id": "0c000000-0000-0000-0000-000000000001", "name": "deep", "spec": ${deep}}`,
    });
    expect(insert.status).toBe(400);
    expect(insert.json).toEqual(expected);
    const patch = await h.request('PATCH', 'canaries?name=eq.deep', { body: `{"spec": {"a": ${deep}}}` });
    expect(patch.json).toEqual(expected);
    const call = await h.request('POST', 'rpc/whoami', { body: deep });
    expect(call.status).toBe(400);
    expect(call.json).toEqual(expected);
    // Brackets inside strings are text, not nesting.
    const text = await h.request('POST', 'canaries', {
      body: { id: '0c000000-0000-0000-0000-000000000002', name: '['.repeat(500), spec: { a: ['x'] } },
    });
    expect(text.status).toBe(201);
  });

  it('reloads the schema on NOTIFY pgrst', async () => {
    await h.db.pool.query('create table late_table (id int primary key); insert into late_table values (1)');
    const before = await h.get('late_table');
    expect(before.status).toBe(404);
    await h.db.pool.query(`notify pgrst, 'reload schema'`);
    let after = await h.get('late_table');
    for (let attempt = 0; attempt < 50 && after.status !== 200; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await h.get('late_table');
    }
    expect(after.json).toEqual([{ id: 1 }]);
  });
});
