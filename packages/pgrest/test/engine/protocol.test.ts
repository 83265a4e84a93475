import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers.js';

const SQL = `
create schema other;
create table items (id int primary key, name text, tags text[], period int4range, doc tsvector, data jsonb);
insert into items select g, 'item ' || g, array['t' || (g % 3)], int4range(g, g + 5), to_tsvector('english', 'fat cats ' || g), jsonb_build_object('n', g)
  from generate_series(1, 30) g;
create table parents (id int primary key, name text);
create table children (id int primary key, parent_id int references parents(id), name text);
insert into parents values (1, 'p1'), (2, 'p2');
insert into children values (1, 1, 'c1'), (2, 1, 'c2'), (3, 2, 'c3');
create table other.things (id int primary key, label text);
insert into other.things values (1, 'from other');
create function add(a int, b int) returns int language sql immutable as $$ select a + b $$;
create function sum_all(variadic v int[]) returns int language sql immutable as $$ select sum(x)::int from unnest(v) x $$;
create function nothing() returns void language sql as $$ select $$;
create function echo(payload json) returns json language sql as $$ select payload $$;
create function check_request() returns void language plpgsql as $$
begin
  if current_setting('request.headers', true)::json->>'x-block' = 'yes' then
    raise exception 'blocked' using errcode = 'P0001';
  end if;
  perform set_config('response.headers', '[{"X-Pre": "ran"}]', true);
end $$;
create function set_status() returns int language plpgsql as $$
begin perform set_config('response.status', '202', true); return 1; end $$;
`;

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine(SQL, {
    schemas: ['public', 'other'],
    maxRows: 20,
    preRequest: 'public.check_request',
    txEnd: 'commit-allow-override',
  });
});
afterAll(async () => {
  await h.close();
});

describe('counts and ranges', () => {
  it('caps reads at maxRows and counts planned/estimated', async () => {
    const capped = await h.get('items?select=id', { prefer: 'count=exact' });
    expect((capped.json as unknown[]).length).toBe(20);
    expect(capped.status).toBe(206);
    expect(capped.headers['content-range']).toBe('0-19/30');
    const planned = await h.get('items?select=id&limit=1', { prefer: 'count=planned' });
    expect(planned.headers['content-range']).toMatch(/^0-0\/\d+$/);
    expect(planned.headers['preference-applied']).toBe('count=planned');
    const estimated = await h.get('items?select=id&id=lte.5', { prefer: 'count=estimated' });
    expect(estimated.headers['content-range']).toBe('0-4/5');
    // Beyond maxRows the planner's estimate is used (here over 20 rows).
    const beyond = await h.get('items?select=id&limit=1', { prefer: 'count=estimated' });
    expect(Number(beyond.headers['content-range']?.split('/')[1])).toBeGreaterThan(20);
  });

  it('answers HEAD without a body', async () => {
    const r = await h.request('HEAD', 'items?id=eq.1');
    expect(r.status).toBe(200);
    expect(r.body).toBe('');
    expect(r.headers['content-range']).toBe('0-0/*');
  });

  it('refuses an inverted Range header', async () => {
    const r = await h.get('items', { range: '5-1' });
    expect(r.status).toBe(416);
    expect(r.json).toMatchObject({ code: 'PGRST103', details: expect.stringContaining('lower boundary') });
  });
});

describe('operators on typed columns', () => {
  it('handles arrays, ranges, full-text search, quantifiers and JSON', async () => {
    const ids = async (query: string): Promise<number[]> =>
      ((await h.get(`items?select=id&order=id&${query}`)).json as { id: number }[]).map((row) => row.id);
    expect(await ids('tags=cs.{t1}&id=lte.7')).toEqual([1, 4, 7]);
    expect(await ids('period=sl.[20,30)')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(await ids('period=adj.[35,40)')).toEqual([30]);
    expect(await ids('doc=fts(english).cats&id=lt.3')).toEqual([1, 2]);
    expect(await ids('doc=wfts.fat&id=lt.3')).toEqual([1, 2]);
    expect(await ids('id=eq(any).{2,4}')).toEqual([2, 4]);
    expect(await ids('name=like(all).{item*,*5}')).toEqual([5, 15, 25]);
    expect(await ids('id=isdistinct.1&id=lt.3')).toEqual([2]);
    expect(await ids('data->n=eq.3')).toEqual([3]);
    expect(await ids('data->>n=in.(3,4)')).toEqual([3, 4]);
    expect(await ids('not.or=(id.gt.2,id.lt.2)')).toEqual([2]);
    expect(await ids('id=not.in.(1,2,3)&id=lt.6')).toEqual([4, 5]);
  });

  it('casts selected columns to catalog types only', async () => {
    const ok = await h.get('items?select=id::text,n:data->n::int&id=eq.3');
    expect(ok.json).toEqual([{ id: '3', n: 3 }]);
    const unknown = await h.get('items?select=id::nosuchtype');
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ code: '42704' });
  });
});

describe('embedding shapes', () => {
  it('spreads a to-many embed into arrays', async () => {
    const r = await h.get('parents?select=name,...children(child:name)&order=id&children.order=id');
    expect(r.json).toEqual([
      { name: 'p1', child: ['c1', 'c2'] },
      { name: 'p2', child: ['c3'] },
    ]);
  });

  it('leaves empty embeds out and uses them as filters', async () => {
    const r = await h.get('parents?select=name,children!inner()&children.name=eq.c3');
    expect(r.json).toEqual([{ name: 'p2' }]);
  });
});

describe('schemas and headers', () => {
  it('switches schema with Accept-Profile and refuses unexposed ones', async () => {
    const r = await h.get('things', { 'accept-profile': 'other' });
    expect(r.json).toEqual([{ id: 1, label: 'from other' }]);
    expect(r.headers['content-profile']).toBe('other');
    const bad = await h.get('things', { 'accept-profile': 'secret' });
    expect(bad.status).toBe(406);
    expect(bad.json).toMatchObject({ code: 'PGRST106', hint: 'Only the following schemas are exposed: public, other' });
  });

  it('runs the pre-request function and applies response GUCs', async () => {
    const r = await h.get('items?id=eq.1');
    expect(r.headers['x-pre']).toBe('ran');
    const blocked = await h.get('items?id=eq.1', { 'x-block': 'yes' });
    expect(blocked.status).toBe(400);
    expect(blocked.json).toMatchObject({ code: 'P0001', message: 'blocked' });
    const status = await h.request('POST', 'rpc/set_status', { body: {} });
    expect(status.status).toBe(202);
  });

  it('honours Prefer: tx=rollback when overriding is allowed', async () => {
    const r = await h.request('POST', 'parents', {
      body: { id: 9, name: 'temp' },
      headers: { prefer: 'tx=rollback, return=representation' },
    });
    expect(r.status).toBe(201);
    expect(r.headers['preference-applied']).toBe('return=representation, tx=rollback');
    const check = await h.get('parents?id=eq.9');
    expect(check.json).toEqual([]);
  });

  it('refuses unknown preferences with handling=strict and enforces max-affected', async () => {
    const strict = await h.get('items', { prefer: 'handling=strict, bogus' });
    expect(strict.status).toBe(400);
    expect(strict.json).toMatchObject({ code: 'PGRST122', details: 'Invalid preferences: bogus' });
    const tooMany = await h.request('PATCH', 'items?id=lte.3', {
      body: { name: 'x' },
      headers: { prefer: 'handling=strict, max-affected=2' },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({ code: 'PGRST124' });
    const unchanged = await h.get('items?select=name&id=eq.1');
    expect(unchanged.json).toEqual([{ name: 'item 1' }]);
  });

  it('answers method and path errors', async () => {
    expect((await h.request('PATCH', 'rpc/add')).json).toMatchObject({ code: 'PGRST101' });
    expect((await h.request('GET', 'a/b/c')).json).toMatchObject({ code: 'PGRST125' });
    const options = await h.request('OPTIONS', 'items');
    expect(options.headers.allow).toBe('OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE');
    const root = await h.get('');
    expect(root.status).toBe(200);
    expect((root.json as { paths: Record<string, unknown> }).paths).toHaveProperty('/items');
  });
});

describe('functions', () => {
  it('calls scalar, void and single-json functions', async () => {
    expect((await h.get('rpc/add?a=1&b=2')).json).toBe(3);
    expect((await h.request('POST', 'rpc/add', { body: { a: 2, b: 5 } })).json).toBe(7);
    const nothing = await h.request('POST', 'rpc/nothing', { body: {} });
    expect(nothing.status).toBe(204);
    const echo = await h.request('POST', 'rpc/echo', { body: { payload: { x: [1, 2] } } });
    expect(echo.json).toEqual({ x: [1, 2] });
    expect((await h.get('rpc/sum_all?v=1&v=2&v=4')).json).toBe(7);
    expect((await h.request('POST', 'rpc/sum_all', { body: { v: [5, 6] } })).json).toBe(11);
  });

  it('answers PGRST202 with the closest parameter set', async () => {
    const r = await h.get('rpc/add?a=1&c=2');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.add(a, c) in the schema cache',
      details:
        'Searched for the function public.add with parameters a, c, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.add(a, b)',
    });
  });
});
