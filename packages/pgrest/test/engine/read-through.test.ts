import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers.js';
import { LOOKOUT_SQL } from './lookout-fixture.js';

// `canaries.spec` is read through mask_spec, which hides `password` unless the caller's claims
// say `reveal` (the way Lookout masks credentials for readers who may not write them).
const EXTRA_SQL = `
update canaries set spec = '{"interval": 30, "password": "hunter2", "user": "app"}'
  where id = '30000000-0000-0000-0000-000000000001';
create function mask_spec(v jsonb) returns jsonb language sql stable as $$
  select case
    when coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'reveal', '') = 'yes' then v
    when v ? 'password' then jsonb_set(v, '{password}', '"***"')
    else v
  end
$$;
create function canary_password(canaries) returns text language sql stable as $$ select $1.spec ->> 'password' $$;
create function all_canaries() returns setof canaries language sql stable as $$ select * from canaries $$;
create function check_canary(checks) returns setof canaries rows 1 language sql stable as $$
  select * from canaries where id = $1.canary_id
$$;
`;

const SECRET = 'hunter2';
const REVEAL = { claims: { reveal: 'yes' } };
let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine(LOOKOUT_SQL + EXTRA_SQL, {
    readThrough: (relation) =>
      relation.schema === 'public' && relation.name === 'canaries'
        ? { spec: { schema: 'public', name: 'mask_spec' } }
        : undefined,
  });
});
afterAll(async () => {
  await h.close();
});

const CANARY = 'canaries?id=eq.30000000-0000-0000-0000-000000000001';

describe('readThrough', () => {
  it('applies the function wherever a read outputs the column', async () => {
    for (const query of [
      `${CANARY}&select=spec`,
      `${CANARY}&select=*`,
      `${CANARY}&select=p:spec->>password`,
      `${CANARY}&select=s:spec::text`,
      `${CANARY}&select=canary_password`,
      'checks?select=name,canaries(spec)',
      'checks?select=name,canaries!inner(spec)&canaries.id=eq.30000000-0000-0000-0000-000000000001',
      'checks?select=name,...canaries(spec)',
      'checks?select=name,check_canary(spec)',
      'agents?select=name,canaries(*)',
      'rpc/all_canaries?select=spec',
    ]) {
      const response = await h.get(query);
      expect(response.status, query).toBe(200);
      expect(response.body, query).not.toContain(SECRET);
      expect(response.body, query).toContain('***');
    }
  });

  it('keeps other columns and their order, so a row cast still fits the table', async () => {
    const response = await h.get(`${CANARY}&select=id,name,spec->>user,canary_password`);
    expect(response.json).toEqual([
      { id: '30000000-0000-0000-0000-000000000001', name: 'http-checks', user: 'app', canary_password: '***' },
    ]);
  });

  it('masks CSV output', async () => {
    const response = await h.get(`${CANARY}&select=spec`, { accept: 'text/csv' });
    expect(response.status).toBe(200);
    expect(response.body).not.toContain(SECRET);
  });

  it('filters, orders and counts on the function value, so a value cannot be searched for', async () => {
    for (const filter of [
      'spec->>password=eq.hunter2',
      'spec->>password=like.h*',
      'spec->>password=ilike.*unter*',
      'spec=cs.{"password":"hunter2"}',
      'canary_password=eq.hunter2',
      'or=(spec->>password.like.hunt*,name.eq.none)',
    ]) {
      const response = await h.get(`canaries?select=id&${filter}`, { prefer: 'count=exact' });
      expect(response.status, filter).toBe(200);
      expect(response.json, filter).toEqual([]);
      expect(response.headers['content-range'], filter).toBe('*/0');
    }
    const embedded = await h.get('checks?select=id,canaries!inner(id)&canaries.spec->>password=like.h*');
    expect(embedded.json).toEqual([]);
    const masked = await h.get('canaries?select=id&spec->>password=eq.***');
    expect(masked.json).toEqual([{ id: '30000000-0000-0000-0000-000000000001' }]);
  });

  it('lets the function tell callers apart through the claims, with the same cached plan', async () => {
    const query = `${CANARY}&select=spec->>password`;
    const revealed = await h.request('GET', query, { caller: REVEAL });
    expect(revealed.json).toEqual([{ password: SECRET }]);
    const masked = await h.get(query);
    expect(masked.json).toEqual([{ password: '***' }]);
    const again = await h.request('GET', `canaries?select=id&spec->>password=eq.${SECRET}`, { caller: REVEAL });
    expect(again.json).toEqual([{ id: '30000000-0000-0000-0000-000000000001' }]);
  });

  it('reads the rows a write returns through the function too', async () => {
    const created = await h.request('POST', 'canaries?select=spec', {
      body: { id: '30000000-0000-0000-0000-000000000009', name: 'new', spec: { password: 'pw-new' } },
      headers: { prefer: 'return=representation' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual([{ spec: { password: '***' } }]);
    const patched = await h.request('PATCH', 'canaries?id=eq.30000000-0000-0000-0000-000000000009&select=spec', {
      body: { name: 'renamed' },
      headers: { prefer: 'return=representation' },
      caller: REVEAL,
    });
    expect(patched.json).toEqual([{ spec: { password: 'pw-new' } }]);
  });

  it('leaves relations the host does not name alone', async () => {
    const response = await h.get('checks?select=name&limit=1&order=name');
    expect(response.json).toEqual([{ name: 'github' }]);
  });
});
