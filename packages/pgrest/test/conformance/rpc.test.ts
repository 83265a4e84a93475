import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Conformance, JSON_CT, expectError, expectStatus, startConformance } from './helpers.js';

// Functions as RPC. Sources: PostgREST docs "Functions as RPC" (GET with query arguments, POST
// with a JSON body, table-valued results can be filtered/ordered/embedded, scalar and void
// results, overloads, a single unnamed json parameter, GET runs read-only); test/spec/Feature/
// Query/RpcSpec.hs; src/PostgREST/Error.hs (PGRST101/202/203 texts, SQLSTATE mapping: P0001 →
// 400, PTxyz → xyz, 25006 → 405).

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

describe('calling functions', () => {
  it('GET passes query parameters as named arguments', async () => {
    const res = await api.get('/rpc/add?a=1&b=2');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.text.trim()).toBe('3');
  });

  it('POST passes the JSON object keys as named arguments', async () => {
    const res = await api.request('POST', '/rpc/add', { body: { a: 40, b: 2 } });
    expectStatus(res, 200);
    expect(res.json).toBe(42);
  });

  it('POST with an array body uses its first object', async () => {
    const res = await api.request('POST', '/rpc/add', {
      body: [
        { a: 1, b: 2 },
        { a: 4, b: 6 },
      ],
    });
    expectStatus(res, 200);
    expect(res.json).toBe(3);
  });

  it('uses the default of an omitted argument', async () => {
    const res = await api.get('/rpc/power_of?base=3');
    expectStatus(res, 200);
    expect(res.json).toBe(9);
  });

  it('passes an array argument from a GET as a PostgreSQL array literal', async () => {
    const res = await api.get('/rpc/array_length_of?arr={1,2,3}');
    expectStatus(res, 200);
    expect(res.json).toBe(3);
  });

  it('passes an array argument from a POST as a JSON array', async () => {
    const res = await api.request('POST', '/rpc/array_length_of', { body: { arr: [1, 2, 3, 4] } });
    expect(res.json).toBe(4);
  });

  it('returns an array result as a JSON array', async () => {
    const res = await api.get('/rpc/years');
    expectStatus(res, 200);
    expect(res.json).toEqual([1961, 1969, 1974]);
  });

  it('returns a text result as a JSON string', async () => {
    const res = await api.get('/rpc/greet');
    expectStatus(res, 200);
    expect(res.json).toBe('Hello, world');
  });

  it('returns a single composite result as an object', async () => {
    const res = await api.get('/rpc/first_book?select=id,title');
    expectStatus(res, 200);
    expect(res.json).toEqual({ id: 1, title: 'The Left Hand of Darkness' });
  });

  it('returns a void function as 204 without Content-Type', async () => {
    const res = await api.request('POST', '/rpc/noop', { body: {} });
    expectStatus(res, 204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
  });

  it('accepts an empty POST body for a function without parameters', async () => {
    const res = await api.request('POST', '/rpc/greet', { body: '' });
    expectStatus(res, 200);
    expect(res.json).toBe('Hello, world');
  });

  it('passes the whole body to a function with a single unnamed json parameter', async () => {
    const res = await api.request('POST', '/rpc/echo_json', { body: { x: [1, 2], y: { z: true } } });
    expectStatus(res, 200);
    expect(res.json).toEqual({ x: [1, 2], y: { z: true } });
  });

  it('lets a POST call a function that writes', async () => {
    const res = await api.request('POST', '/rpc/add_tag', { body: { tag_name: 'horror' } });
    expectStatus(res, 200);
    expect(res.json).toEqual({ id: 6, name: 'horror' });
  });

  it('runs GET read-only: a function that writes fails with 405 / 25006', async () => {
    expectError(await api.get('/rpc/add_tag?tag_name=mystery'), 405, {
      code: '25006',
      message: 'cannot execute INSERT in a read-only transaction',
    });
  });

  it('HEAD answers the headers without a body', async () => {
    const res = await api.request('HEAD', '/rpc/all_books?select=id&order=id&limit=2');
    expectStatus(res, 200);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['content-range']).toBe('0-1/*');
  });
});

describe('set-returning functions', () => {
  it('returns the rows as an array', async () => {
    const res = await api.get('/rpc/books_by_author?author=2&select=id,title');
    expectStatus(res, 200);
    expect(res.json).toEqual([
      { id: 3, title: 'Solaris' },
      { id: 4, title: 'The Cyberiad' },
    ]);
  });

  it('filters, selects and orders the result', async () => {
    const res = await api.get('/rpc/books_by_author?author=2&select=title&order=published_year.desc');
    expect(res.json).toEqual([{ title: 'The Cyberiad' }, { title: 'Solaris' }]);
    const filtered = await api.request('POST', '/rpc/books_by_author?select=title&published_year=gt.1962', {
      body: { author: 2 },
    });
    expectStatus(filtered, 200);
    expect(filtered.json).toEqual([{ title: 'The Cyberiad' }]);
  });

  it('limits and offsets the result with Content-Range', async () => {
    const res = await api.get('/rpc/all_books?select=id&order=id&limit=2&offset=1');
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 2 }, { id: 3 }]);
    expect(res.headers['content-range']).toBe('1-2/*');
  });

  it('counts with count=exact (206 for a partial page)', async () => {
    const res = await api.request('POST', '/rpc/all_books?select=id&order=id&limit=1', {
      headers: { prefer: 'count=exact' },
      body: {},
    });
    expectStatus(res, 206);
    expect(res.headers['content-range']).toBe('0-0/7');
  });

  it('returns TABLE results', async () => {
    const res = await api.get('/rpc/tag_names?id=lte.2');
    expectStatus(res, 200);
    expect(res.json).toEqual([
      { id: 1, name: 'classic' },
      { id: 2, name: 'scifi' },
    ]);
  });

  it('embeds resources related to the returned table type', async () => {
    const res = await api.get('/rpc/books_by_author?author=1&select=title,publishers(name)&order=id');
    expectStatus(res, 200);
    expect(res.json).toEqual([
      { title: 'The Left Hand of Darkness', publishers: { name: 'Ace' } },
      { title: 'The Dispossessed', publishers: { name: 'Harcourt' } },
    ]);
  });

  it('returns an empty array when the function returns no rows', async () => {
    const res = await api.get('/rpc/books_by_author?author=5');
    expectStatus(res, 200);
    expect(res.json).toEqual([]);
  });

  it('applies text arguments with special characters', async () => {
    const res = await api.get('/rpc/search_titles?q=the&select=id&order=id');
    expect(res.json).toEqual([{ id: 1 }, { id: 2 }, { id: 4 }]);
  });
});

describe('overloaded functions', () => {
  it('picks the overload matching the given argument names', async () => {
    expect((await api.get('/rpc/greet')).json).toBe('Hello, world');
    expect((await api.get('/rpc/greet?name=Ann')).json).toBe('Hello, Ann');
    expect((await api.get('/rpc/greet?name=Ann&greeting=Hi')).json).toBe('Hi, Ann');
    expect((await api.request('POST', '/rpc/greet', { body: { name: 'Bo' } })).json).toBe('Hello, Bo');
  });

  it('is 300 / PGRST203 when overloads cannot be told apart', async () => {
    const body = expectError(await api.get('/rpc/ambiguous?x=1'), 300, {
      code: 'PGRST203',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    });
    expect(body.message).toMatch(/^Could not choose the best candidate function between: /);
    expect(body.message).toContain('test.ambiguous(x => integer)');
    expect(body.message).toContain('test.ambiguous(x => text)');
  });
});

describe('function lookup errors', () => {
  it('an unknown function via GET is 404 / PGRST202', async () => {
    expectError(await api.get('/rpc/zzz_unknown'), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.zzz_unknown without parameters in the schema cache',
      details:
        'Searched for the function test.zzz_unknown without parameters, but no matches were found in the schema cache.',
      hint: null,
    });
  });

  it('an unknown function via POST mentions the single json parameter form', async () => {
    expectError(await api.request('POST', '/rpc/zzz_unknown', { body: {} }), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.zzz_unknown without parameters in the schema cache',
      details:
        'Searched for the function test.zzz_unknown without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: null,
    });
  });

  it('hints the closest function name', async () => {
    expectError(await api.get('/rpc/gret'), 404, {
      code: 'PGRST202',
      hint: 'Perhaps you meant to call the function test.greet',
    });
  });

  it('unknown arguments are 404 / PGRST202 naming them and hinting the known ones', async () => {
    expectError(await api.get('/rpc/add?a=1&c=2'), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.add(a, c) in the schema cache',
      details:
        'Searched for the function test.add with parameters a, c, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function test.add(a, b)',
    });
  });

  it('a missing required argument is 404 / PGRST202', async () => {
    expectError(await api.get('/rpc/add?a=1'), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.add(a) in the schema cache',
      details: 'Searched for the function test.add with parameter a, but no matches were found in the schema cache.',
    });
  });

  it('DELETE, PATCH and PUT on a function are 405 / PGRST101', async () => {
    expectError(await api.request('DELETE', '/rpc/add'), 405, {
      code: 'PGRST101',
      message: 'Cannot use the DELETE method on RPC',
      details: null,
      hint: null,
    });
    expectError(await api.request('PATCH', '/rpc/add', { body: {} }), 405, {
      code: 'PGRST101',
      message: 'Cannot use the PATCH method on RPC',
    });
    expectError(await api.request('PUT', '/rpc/add', { body: {} }), 405, {
      code: 'PGRST101',
      message: 'Cannot use the PUT method on RPC',
    });
  });

  it('query-string arguments on a POST are parsed as filters (400 / PGRST100)', async () => {
    expectError(await api.request('POST', '/rpc/greet?name=John', { body: { name: 'John' } }), 400, {
      code: 'PGRST100',
      message: '"failed to parse filter (John)" (line 1, column 1)',
      details: 'unexpected "J" expecting "not" or operator (eq, gt, ...)',
    });
  });

  it('an argument of the wrong type is 400 / 22P02', async () => {
    expectError(await api.get('/rpc/add?a=1&b=x'), 400, {
      code: '22P02',
      message: 'invalid input syntax for type integer: "x"',
    });
  });
});

describe('errors raised by functions', () => {
  it('RAISE EXCEPTION (P0001) is 400 with message, detail and hint', async () => {
    expectError(await api.request('POST', '/rpc/raise_plain', { body: {} }), 400, {
      code: 'P0001',
      message: 'plain failure',
      details: 'some detail',
      hint: 'some hint',
    });
  });

  it('SQLSTATE PTxyz sets the HTTP status xyz', async () => {
    expectError(await api.request('POST', '/rpc/raise_pt402', { body: {} }), 402, {
      code: 'PT402',
      message: 'Payment Required',
      details: 'Quota exceeded',
      hint: 'Upgrade your plan',
    });
  });
});
