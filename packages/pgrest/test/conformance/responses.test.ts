import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgrestRequest } from '../../src/engine-types.js';
import { type Conformance, JSON_CT, expectError, expectStatus, rangeHeaders, startConformance } from './helpers.js';

// Responses as PostgREST 14 writes them. Sources: src/PostgREST/Error.hs (every error carries
// `Proxy-Status: PostgREST; error=<code>`); test/spec/Feature/Query/ErrorSpec.hs ("includes the
// proxy-status header on the response"); src/PostgREST/Response.hs (a 416 past the end is a
// response, not an error; `response.headers` entries are all sent, replacing the engine's header
// of that name); test/spec/Feature/Query/RpcSpec.hs ("can set the same http header twice");
// src/PostgREST/Query/QueryBuilder.hs (embeds are `row_to_json(...)::jsonb` and
// `json_agg(...)::jsonb`); src/PostgREST/ApiRequest.hs and Query/PreQuery.hs (request.headers
// holds every header but Cookie).

const EXTRA_SQL = `
CREATE FUNCTION test.set_cookie_twice() RETURNS void LANGUAGE sql AS $$
  SELECT set_config('response.headers',
    '[{"Set-Cookie": "sessionid=38afes7a8; HttpOnly; Path=/"}, {"Set-Cookie": "id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure; HttpOnly"}]',
    true) $$;
CREATE FUNCTION test.replace_range() RETURNS SETOF test.tags LANGUAGE sql STABLE AS $$
  SELECT set_config('response.headers', '[{"content-range": "custom"}, {"X-Extra": "1"}, {"x-extra": "2"}]', true);
  SELECT * FROM test.tags ORDER BY id LIMIT 1 $$;
CREATE FUNCTION test.request_header(name text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT current_setting('request.headers', true)::json->>name $$;
CREATE FUNCTION test.request_cookies() RETURNS json LANGUAGE sql STABLE AS $$
  SELECT current_setting('request.cookies', true)::json $$;
CREATE FUNCTION test.raise_custom_pgrst() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE SQLSTATE 'PGRST' USING
    MESSAGE = '{"code":"123","message":"ABC","details":"DEF","hint":"XYZ"}',
    DETAIL = '{"status":332,"headers":{"X-Header":"Value"}}';
END $$;
CREATE TABLE test.unique_names (name text PRIMARY KEY);
INSERT INTO test.unique_names VALUES ('taken');
`;

let api: Conformance;
beforeAll(async () => {
  api = await startConformance({ extraSql: EXTRA_SQL });
});
afterAll(async () => {
  await api?.close();
});

describe('Proxy-Status', () => {
  it('names the code of every error the engine answers', async () => {
    // An error of the request (ApiRequest), of the schema cache, of PostgreSQL, and raised by SQL.
    expectError(await api.get('/invalid/nested/paths'), 404, { code: 'PGRST125' });
    expectError(await api.get('/non_existent_table'), 404, { code: 'PGRST205' });
    expectError(await api.get('/books?select=id(('), 400, { code: 'PGRST100' });
    expectError(await api.request('POST', '/unique_names', { body: { name: 'taken' } }), 409, { code: '23505' });
    expectError(await api.get('/rpc/raise_pt402'), 402, { code: 'PT402', message: 'Payment Required' });
    const custom = await api.get('/rpc/raise_custom_pgrst');
    expectError(custom, 332, { code: '123', message: 'ABC', details: 'DEF', hint: 'XYZ' });
    expect(custom.headers['x-header']).toBe('Value');
    // Checked after the query ran: a singular read matching no row.
    expectError(await api.get('/books?id=eq.0', { accept: 'application/vnd.pgrst.object+json' }), 406, {
      code: 'PGRST116',
    });
  });

  it('is absent from answers that are not errors, the 416 of an offset past the end included', async () => {
    const ok = await api.get('/books?select=id&limit=1');
    expectStatus(ok, 200);
    expect(ok.headers['proxy-status']).toBeUndefined();
    const pastEnd = await api.get('/books?select=id', { ...rangeHeaders('100-101'), prefer: 'count=exact' });
    expectStatus(pastEnd, 416);
    expect(pastEnd.json).toMatchObject({ code: 'PGRST103' });
    expect(pastEnd.headers['proxy-status']).toBeUndefined();
    // A negative limit is refused while reading the request: an error, with Proxy-Status.
    const negative = await api.get('/books?limit=-1');
    expectStatus(negative, 416);
    expect(negative.headers['proxy-status']).toBe('PostgREST; error=PGRST103');
  });
});

describe('response.headers', () => {
  it('sends every entry of a header set twice (two Set-Cookie)', async () => {
    const res = await api.engine.handle({ method: 'GET', path: 'rpc/set_cookie_twice', query: '', headers: {} });
    expect(res.status).toBe(204);
    expect(res.headers['Set-Cookie']).toEqual([
      'sessionid=38afes7a8; HttpOnly; Path=/',
      'id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure; HttpOnly',
    ]);
    expect(res.headers['Content-Type']).toBeUndefined();
  });

  it('replaces the engine header of the same name, whatever its case, and keeps repeated names together', async () => {
    const res = await api.engine.handle({ method: 'GET', path: 'rpc/replace_range', query: '', headers: {} });
    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('custom');
    expect(res.headers['Content-Range']).toBeUndefined();
    expect(res.headers['X-Extra']).toEqual(['1', '2']);
    expect(res.headers['Content-Type']).toBe(JSON_CT);
  });
});

describe('HEAD', () => {
  const head = (path: string, query = ''): Promise<Awaited<ReturnType<Conformance['engine']['handle']>>> =>
    api.engine.handle({ method: 'HEAD', path, query, headers: {} } satisfies PgrestRequest);

  it('answers reads, calls and the root with headers only and no Content-Length', async () => {
    for (const [path, query] of [
      ['books', 'select=id'],
      ['rpc/all_books', ''],
      ['rpc/add', 'a=1&b=2'],
      ['', ''],
    ] as const) {
      const res = await head(path, query);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toBe('');
      expect(
        Object.keys(res.headers).map((name) => name.toLowerCase()),
        path,
      ).not.toContain('content-length');
      expect(res.headers['Content-Type'], path).toMatch(/json/);
    }
  });

  it('has no body for a range past the end either', async () => {
    const res = await api.engine.handle({
      method: 'HEAD',
      path: 'books',
      query: 'select=id&offset=100',
      headers: { prefer: 'count=exact' },
    });
    expect(res.status).toBe(416);
    expect(res.body).toBe('');
  });
});

describe('embeds are rendered as jsonb', () => {
  it('a to-one embed: keys in jsonb order (shorter first) with jsonb spacing, inside a json body', async () => {
    const res = await api.get('/books?select=id,authors(name,id)&id=eq.3');
    expectStatus(res, 200);
    expect(res.text).toBe('[{"id":3,"authors":{"id": 2, "name": "Stanislaw Lem"}}]');
  });

  it('a to-many embed: an array of such objects', async () => {
    const res = await api.get('/authors?select=id,books(title,pages)&id=eq.2&books.order=id');
    expectStatus(res, 200);
    expect(res.text).toBe(
      '[{"id":2,"books":[{"pages": 204, "title": "Solaris"}, {"pages": 295, "title": "The Cyberiad"}]}]',
    );
  });

  it('a repeated key keeps its last value, as jsonb does', async () => {
    const res = await api.get('/books?select=id,authors(n:name,n:country)&id=eq.3');
    expect(res.text).toBe('[{"id":3,"authors":{"n": "PL"}}]');
  });

  it('embeds joined for a filter, and empty to-many embeds, are jsonb too', async () => {
    const inner = await api.get('/books?select=id,authors!inner(name,id)&id=eq.3');
    expect(inner.text).toBe('[{"id":3,"authors":{"id": 2, "name": "Stanislaw Lem"}}]');
    const empty = await api.get('/authors?select=id,books(id)&id=eq.2&books.id=eq.0');
    expect(empty.text).toBe('[{"id":2,"books":[]}]');
    const spread = await api.get('/authors?select=id,...books(title)&id=eq.2&books.order=id');
    expect(spread.text).toBe('[{"id":2,"title":["Solaris", "The Cyberiad"]}]');
  });
});

describe('request.headers', () => {
  it('holds the Authorization header, as in PostgREST, and Cookie only as request.cookies', async () => {
    const headers = { authorization: 'Bearer abc.def.ghi', cookie: 'a=1; b=2' };
    const auth = await api.get('/rpc/request_header?name=authorization', headers);
    expect(auth.json).toBe('Bearer abc.def.ghi');
    const cookie = await api.get('/rpc/request_header?name=cookie', headers);
    expect(cookie.json).toBeNull();
    expect((await api.get('/rpc/request_cookies', headers)).json).toEqual({ a: '1', b: '2' });
  });
});
