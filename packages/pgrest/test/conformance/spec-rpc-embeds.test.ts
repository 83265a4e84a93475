import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSV_CT,
  type Conformance,
  JSON_CT,
  expectError,
  expectRows,
  expectStatus,
  rangeHeaders,
  startConformance,
  startVariant,
} from './helpers.js';

// Cases of PostgREST 14's test/spec/Feature/Query/RpcSpec.hs, EmbedDisambiguationSpec.hs,
// EmbedInnerJoinSpec.hs, RelatedQueriesSpec.hs, ErrorSpec.hs and MultipleSchemaSpec.hs that the
// other files of this suite do not cover, transposed to spec-rpc-embeds-fixtures.sql (loaded
// after the shared fixtures). Statuses, codes and messages are PostgREST's; names are ours.

const EXTRA_SQL = readFileSync(new URL('./spec-rpc-embeds-fixtures.sql', import.meta.url), 'utf8');
const SPECIAL = 'SPECIAL "@/\\#~_-';

let api: Conformance;
beforeAll(async () => {
  api = await startConformance({ extraSql: EXTRA_SQL });
});
afterAll(async () => {
  await api?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  api.request('POST', path, { body, headers });

describe('RpcSpec: paging and counting set-returning functions', () => {
  it('pages with the Range header on GET', async () => {
    const res = await api.get('/rpc/numbered_between?lo=2&hi=4', rangeHeaders('1-1'));
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 4 }]);
    expect(res.headers['content-range']).toBe('1-1/*');
  });

  it('pages with limit and offset on POST, GET and HEAD', async () => {
    const posted = await post('/rpc/numbered_between?limit=1&offset=1', { lo: 2, hi: 4 });
    expectStatus(posted, 200);
    expect(posted.json).toEqual([{ id: 4 }]);
    expect(posted.headers['content-range']).toBe('1-1/*');
    const head = await api.request('HEAD', '/rpc/numbered_between?lo=2&hi=4&limit=1&offset=1');
    expectStatus(head, 200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe(JSON_CT);
    expect(head.headers['content-range']).toBe('1-1/*');
  });

  it('includes the total with count=exact and answers 206 for a partial page', async () => {
    const ranged = await api.get('/rpc/numbered_between?lo=2&hi=4', rangeHeaders('1-1', { prefer: 'count=exact' }));
    expectStatus(ranged, 206);
    expect(ranged.json).toEqual([{ id: 4 }]);
    expect(ranged.headers['content-range']).toBe('1-1/2');
    const posted = await post('/rpc/numbered_between?limit=1&offset=1', { lo: 2, hi: 4 }, { prefer: 'count=exact' });
    expectStatus(posted, 206);
    expect(posted.headers['content-range']).toBe('1-1/2');
    const head = await api.request('HEAD', '/rpc/numbered_between?lo=2&hi=4&limit=1&offset=1', {
      headers: { prefer: 'count=exact' },
    });
    expectStatus(head, 206);
    expect(head.headers['content-range']).toBe('1-1/2');
  });

  it('counts all rows, and only those kept by an !inner embed', async () => {
    const all = await api.request('HEAD', '/rpc/every_venture', { headers: { prefer: 'count=exact' } });
    expectStatus(all, 200);
    expect(all.headers['content-range']).toBe('0-4/5');
    const inner = await api.request('HEAD', '/rpc/every_venture?select=*,firms!inner(*)&firms.id=eq.1', {
      headers: { prefer: 'count=exact' },
    });
    expectStatus(inner, 200);
    expect(inner.headers['content-range']).toBe('0-1/2');
  });

  it('counts 1 for a single scalar, domain or composite result', async () => {
    const exact = { prefer: 'count=exact' };
    const scalar = await api.get('/rpc/add?a=3&b=4', exact);
    expectStatus(scalar, 200);
    expect(scalar.text).toBe('7');
    expect(scalar.headers['content-range']).toBe('0-0/1');
    const domain = await api.get('/rpc/echo_positive?val=8', exact);
    expect(domain.text).toBe('8');
    expect(domain.headers['content-range']).toBe('0-0/1');
    const composite = await api.get('/rpc/make_pair', exact);
    expect(composite.json).toEqual({ x: 10, y: 5 });
    expect(composite.headers['content-range']).toBe('0-0/1');
  });

  it('returns CSV', async () => {
    const posted = await post('/rpc/numbered_between', { lo: 2, hi: 4 }, { accept: 'text/csv' });
    expectStatus(posted, 200);
    expect(posted.headers['content-type']).toBe(CSV_CT);
    expect(posted.text).toBe('id\n3\n4');
    const got = await api.get('/rpc/numbered_between?lo=2&hi=4', { accept: 'text/csv' });
    expect(got.text).toBe('id\n3\n4');
    const head = await api.request('HEAD', '/rpc/numbered_between?lo=2&hi=4', { headers: { accept: 'text/csv' } });
    expectStatus(head, 200);
    expect(head.headers['content-type']).toBe(CSV_CT);
  });

  it('ignores the Range header on POST', async () => {
    const plain = await post('/rpc/numbered_between', { lo: 2, hi: 4 }, rangeHeaders('1-1', { prefer: 'count=exact' }));
    expectStatus(plain, 200);
    expect(plain.json).toEqual([{ id: 3 }, { id: 4 }]);
    expect(plain.headers['content-range']).toBe('0-1/2');
    const paged = await post(
      '/rpc/numbered_between?limit=2&offset=1',
      { lo: 2, hi: 5 },
      rangeHeaders('1-1', { prefer: 'count=exact' }),
    );
    expectStatus(paged, 206);
    expect(paged.json).toEqual([{ id: 4 }, { id: 5 }]);
    expect(paged.headers['content-range']).toBe('1-2/3');
    const noRangeError = await post(
      '/rpc/numbered_between?limit=2&offset=1',
      { lo: 2, hi: 5 },
      rangeHeaders('0-0', { prefer: 'count=exact' }),
    );
    expectStatus(noRangeError, 206);
    expect(noRangeError.headers['content-range']).toBe('1-2/3');
  });

  it('HEAD honours the Range header with limit and offset', async () => {
    const head = await api.request('HEAD', '/rpc/numbered_between?lo=2&hi=5&limit=2&offset=1', {
      headers: rangeHeaders('1-1', { prefer: 'count=exact' }),
    });
    expectStatus(head, 206);
    expect(head.headers['content-range']).toBe('1-2/3');
  });
});

describe('RpcSpec: finding the function', () => {
  it('an overloaded function with unknown arguments: no hint, or the closest parameters', async () => {
    expectError(await api.get('/rpc/multi?wrong_arg=value'), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.multi(wrong_arg) in the schema cache',
      details:
        'Searched for the function test.multi with parameter wrong_arg, but no matches were found in the schema cache.',
      hint: null,
    });
    expectError(await api.get('/rpc/multi?a=1&b=2&wrong_arg=value'), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.multi(a, b, wrong_arg) in the schema cache',
      details:
        'Searched for the function test.multi with parameters a, b, wrong_arg, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function test.multi(a, b, c)',
    });
  });

  it('overloads with the same parameter name are 300 / PGRST203 listing every candidate', async () => {
    expectError(await api.get('/rpc/same_names?arg=value'), 300, {
      code: 'PGRST203',
      message:
        'Could not choose the best candidate function between: test.same_names(arg => integer), test.same_names(arg => xml), test.same_names(arg => text, num => integer)',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    });
  });

  it('works with upper-case function and parameter names', async () => {
    const got = await api.get('/rpc/echoCased?user=mscott&fullName=Michael Scott&SSN=401-32-XXXX');
    expectStatus(got, 200);
    expect(got.json).toEqual({ user: 'mscott', fullName: 'Michael Scott', SSN: '401-32-XXXX' });
    const posted = await post('/rpc/echoCased', { user: 'dschrute', fullName: 'Dwight Schrute', SSN: '030-18-XXXX' });
    expect(posted.json).toEqual({ user: 'dschrute', fullName: 'Dwight Schrute', SSN: '030-18-XXXX' });
  });

  it('picks each overload by its argument names (GET and form POST)', async () => {
    expect((await api.get('/rpc/multi')).json).toEqual([1, 2, 3]);
    expect((await api.get('/rpc/multi?a=1&b=2')).text).toBe('3');
    expect((await api.get('/rpc/multi?a=1&b=2&c=3')).json).toBe('123');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await post('/rpc/multi', '', form)).json).toEqual([1, 2, 3]);
    expect((await post('/rpc/multi', 'a=1&b=2', form)).text).toBe('3');
    expect((await post('/rpc/multi', 'a=1&b=2&c=3', form)).json).toBe('123');
  });

  it('tells apart overloads that differ by a trailing defaulted parameter, and embeds their rows', async () => {
    const none = await post('/rpc/od?select=id,name,members(name)', {});
    expectStatus(none, 200);
    expect(none.json).toEqual([{ id: 2, name: 'Build A', members: [{ name: 'Ann' }] }]);
    expect((await post('/rpc/od', { must_param: 1 })).json).toEqual({ val: 1 });
    const withA = await post('/rpc/od?select=id,name,members(name)&members.order=id', { a: 5 });
    expect(withA.json).toEqual([{ id: 5, name: 'Plan G', members: [{ name: 'Ben' }, { name: 'Cid' }] }]);
    expect((await post('/rpc/od', { a: 2, must_param: 4 })).json).toEqual({ a: 2, val: 4 });
  });
});

describe('RpcSpec: shaping and embedding the result', () => {
  it('returns the rows of a set-returning function as an array, even a single one', async () => {
    const row = [{ id: 1, name: 'Alpha', firm_id: 1 }];
    expect((await post('/rpc/venture_rows', { id: 1 })).json).toEqual(row);
    expect((await api.get('/rpc/venture_rows?id=1')).json).toEqual(row);
  });

  it('filters, selects and pages the result on GET and POST', async () => {
    const ids = [{ id: 2 }, { id: 3 }, { id: 4 }];
    expect((await post('/rpc/every_venture?id=gt.1&id=lt.5&select=id', {})).json).toEqual(ids);
    expect((await api.get('/rpc/every_venture?id=gt.1&id=lt.5&select=id')).json).toEqual(ids);
    for (const res of [
      await post('/rpc/every_venture?id=gt.1&id=lt.5&select=id&limit=2&offset=1', {}),
      await api.get('/rpc/every_venture?id=gt.1&id=lt.5&select=id&limit=2&offset=1'),
    ]) {
      expectStatus(res, 200);
      expect(res.json).toEqual([{ id: 3 }, { id: 4 }]);
      expect(res.headers['content-range']).toBe('1-2/*');
    }
    expect((await post('/rpc/venture_rows?select=id,name', { id: 1 })).json).toEqual([{ id: 1, name: 'Alpha' }]);
    expect((await api.get('/rpc/venture_rows?id=1&select=id,name')).json).toEqual([{ id: 1, name: 'Alpha' }]);
  });

  it('embeds many-to-one and one-to-many resources of the returned table', async () => {
    const want = [{ id: 1, name: 'Alpha', firm: { id: 1 }, steps: [{ id: 1 }, { id: 2 }] }];
    const query = 'select=id,name,firm:firms(id),steps(id)&steps.order=id';
    expect((await post(`/rpc/venture_rows?${query}`, { id: 1 })).json).toEqual(want);
    expect((await api.get(`/rpc/venture_rows?id=1&${query}`)).json).toEqual(want);
  });

  it('embeds a view over a table of a hidden schema, but not the hidden table itself', async () => {
    expectStatus(await post('/rpc/single_venture?select=*,venture_notes(*)', { id: 1 }), 400);
    expectStatus(await api.get('/rpc/single_venture?id=1&select=*,venture_notes(*)'), 400);
    const want = { id: 2, ventureNotes: [{ noteId: 1 }] };
    expect((await post('/rpc/single_venture?select=id,ventureNotes(noteId)', { id: 2 })).json).toEqual(want);
    expect((await api.get('/rpc/single_venture?id=2&select=id,ventureNotes(noteId)')).json).toEqual(want);
  });

  it('embeds many-to-many resources, nested ones too, and embeds on an empty result', async () => {
    const flat = await api.get('/rpc/every_member?select=name,steps(name)&id=gt.1&steps.order=id');
    expectStatus(flat, 200);
    expect(flat.json).toEqual([
      { name: 'Ben', steps: [{ name: 'Plan G' }, { name: 'Build G' }, { name: 'Plan D' }] },
      { name: 'Cid', steps: [{ name: 'Plan A' }, { name: 'Plan G' }] },
    ]);
    const nested = await api.get(
      '/rpc/every_member?select=name,steps(name,venture:ventures(name))&id=gt.1&steps.order=id',
    );
    expect(nested.json).toEqual([
      {
        name: 'Ben',
        steps: [
          { name: 'Plan G', venture: { name: 'Gamma' } },
          { name: 'Build G', venture: { name: 'Gamma' } },
          { name: 'Plan D', venture: { name: 'Delta' } },
        ],
      },
      {
        name: 'Cid',
        steps: [
          { name: 'Plan A', venture: { name: 'Alpha' } },
          { name: 'Plan G', venture: { name: 'Gamma' } },
        ],
      },
    ]);
    const empty = await api.get('/rpc/no_ventures?select=firms(*)');
    expectStatus(empty, 200);
    expect(empty.json).toEqual([]);
  });

  it('embeds one-to-one resources in both directions', async () => {
    expect((await api.get('/rpc/every_capital?select=name,nations(name)')).json).toEqual([
      { name: 'Fredville', nations: { name: 'Freedonia' } },
      { name: 'Sylvan City', nations: { name: 'Sylvania' } },
    ]);
    expect((await api.get('/rpc/every_nation?select=name,capitals(name)')).json).toEqual([
      { name: 'Freedonia', capitals: { name: 'Fredville' } },
      { name: 'Sylvania', capitals: { name: 'Sylvan City' } },
    ]);
  });

  it('embeds from a function returning a domain over a table type', async () => {
    const want = [{ id: 1, name: 'Alpha', firm: { id: 1 }, steps: [{ id: 1 }, { id: 2 }] }];
    const query = 'select=id,name,firm:firms(id),steps(id)&steps.order=id';
    expect((await post(`/rpc/venture_dom_rows?${query}`, { id: 1 })).json).toEqual(want);
    expect((await api.get(`/rpc/venture_dom_rows?id=1&${query}`)).json).toEqual(want);
  });

  it('returns an empty array for an empty set', async () => {
    for (const res of [await post('/rpc/no_ventures', {}), await api.get('/rpc/no_ventures')]) {
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.json).toEqual([]);
    }
  });

  it('names a column like the function without confusing them', async () => {
    const want = [{ same_name: 'hello', value: 1 }];
    expect((await post('/rpc/same_name', {})).json).toEqual(want);
    expect((await api.get('/rpc/same_name')).json).toEqual(want);
  });
});

describe('RpcSpec: return types', () => {
  it('text, with unicode', async () => {
    const res = await post('/rpc/greet', { name: '￥' });
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.json).toBe('Hello, ￥');
  });

  it('setof integers, enum, domain and range values', async () => {
    expect((await post('/rpc/int_rows', {})).json).toEqual([1, 2, 3]);
    expect((await post('/rpc/echo_mood', { val: 'ok' })).json).toBe('ok');
    expect((await post('/rpc/echo_positive', { val: '8' })).json).toBe(8);
    expect((await post('/rpc/make_range', { low: 10, up: 20 })).json).toBe('[10,20)');
  });

  it('a TABLE of scalar columns', async () => {
    expect((await post('/rpc/scalar_row', {})).json).toEqual([{ a: 'scalars', b: 'ok', c: 1, d: '[10,20)' }]);
  });

  it('a composite type, a domain over it, and a single table row', async () => {
    expect((await post('/rpc/make_pair', {})).json).toEqual({ x: 10, y: 5 });
    expect((await post('/rpc/make_pair_dom', {})).json).toEqual({ x: 10, y: 5 });
    expect((await post('/rpc/pair_of', { x: 1, y: 2 })).json).toEqual({ x: 1, y: 2 });
    expect((await post('/rpc/single_venture?select=id', { id: 2 })).json).toEqual({ id: 2 });
  });

  it('null for a scalar function returning NULL', async () => {
    const res = await post('/rpc/null_int', {});
    expectStatus(res, 200);
    expect(res.text).toBe('null');
  });

  it('record and setof record', async () => {
    expect((await post('/rpc/venture_record', '')).json).toEqual({ id: 1, name: 'Alpha', firm_id: 1 });
    expect((await post('/rpc/venture_records', '')).json).toEqual([
      { id: 1, name: 'Alpha', firm_id: 1 },
      { id: 2, name: 'Beta', firm_id: 1 },
    ]);
  });

  it('OUT and INOUT parameters give an object', async () => {
    expect((await api.get('/rpc/one_out?num=5')).json).toEqual({ num_plus_one: 6 });
    expect((await api.get('/rpc/one_json_out?a=1&b=two')).json).toEqual({ my_json: { a: 1, b: 'two' } });
    expect((await api.get('/rpc/one_inout?num=2')).json).toEqual({ num: 3 });
    expect((await api.get('/rpc/many_out')).json).toEqual({ my_json: { a: 1, b: 'two' }, num: 3, str: 'four' });
    expect((await api.get('/rpc/many_inout?num=1&str=two&b=false')).json).toEqual({ num: 1, str: 'two', b: false });
    expect((await api.get('/rpc/many_inout?num=1&str=two')).json).toEqual({ num: 1, str: 'two', b: true });
  });

  it('RETURNS TABLE with one or several columns gives objects', async () => {
    expect((await api.get('/rpc/one_col_table')).json).toEqual([{ a: 'A' }]);
    expect((await api.get('/rpc/two_col_table')).json).toEqual([{ a: 'A', b: 'B' }]);
  });
});

describe('RpcSpec: argument handling', () => {
  const varied = {
    double: 3.1,
    varchar: 'hello',
    boolean: true,
    date: '2019-01-01',
    money: '$0.00',
    enum: 'ok',
    arr: ['a', 'b', 'c'],
    integer: 43,
  };

  it('accepts arguments of many types from a JSON body', async () => {
    const res = await post('/rpc/many_types', {
      double: 3.1,
      varchar: 'hello',
      boolean: true,
      date: '20190101',
      money: 0,
      enum: 'ok',
      arr: ['a', 'b', 'c'],
      integer: 43,
      json: { 'some key': 'some value' },
      jsonb: { 'another key': [1, 2, '3'] },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual({ ...varied, json: { 'some key': 'some value' }, jsonb: { 'another key': [1, 2, '3'] } });
  });

  it('accepts them from a query string and from a form', async () => {
    const query = 'double=3.1&varchar=hello&boolean=true&date=20190101&money=0&enum=ok&arr=%7Ba,b,c%7D&integer=43';
    expect((await api.get(`/rpc/many_types?${query}`)).json).toEqual({ ...varied, json: {}, jsonb: {} });
    const form = await post('/rpc/many_types', query, { 'content-type': 'application/x-www-form-urlencoded' });
    expectStatus(form, 200);
    expect(form.json).toEqual({ ...varied, json: {}, jsonb: {} });
  });

  it('keeps a JSON argument as JSON, and a string as a string', async () => {
    expect((await post('/rpc/json_kind', { arg: { key: 3 } })).json).toBe('object');
    expect((await post('/rpc/json_kind', { arg: '{ "key": 3 }' })).json).toBe('string');
  });

  it('VARIADIC parameters from a JSON array, repeated query parameters or a form', async () => {
    expect((await post('/rpc/words', { v: ['hi', 'hello', 'there'] })).json).toEqual(['hi', 'hello', 'there']);
    expect((await api.get('/rpc/words')).json).toEqual([]);
    expect((await api.get('/rpc/words?v=hi')).json).toEqual(['hi']);
    expect((await api.get('/rpc/words?v=hi&v=there')).json).toEqual(['hi', 'there']);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await post('/rpc/words', '', form)).json).toEqual([]);
    expect((await post('/rpc/words', 'v=hi', form)).json).toEqual(['hi']);
    expect((await post('/rpc/words', 'v=hi&v=there', form)).json).toEqual(['hi', 'there']);
  });

  it('takes the last value of a repeated parameter that is not VARIADIC', async () => {
    expect((await api.get('/rpc/greet?name=ignored&name=world')).json).toBe('Hello, world');
    expect((await api.get('/rpc/hello_variadic?name=ignored&name=world&v=unused')).json).toBe('Hello, world');
  });

  it('uses the defaults of omitted arguments', async () => {
    expect((await api.get('/rpc/defaults3?b=4')).json).toBe(8);
  });

  it('keeps character and bit arguments whole, so only the function body truncates or refuses them', async () => {
    const chars = await api.get('/rpc/chars_back?ch=abcdefg&ch_arr={abc,abcdefg}');
    expectStatus(chars, 200);
    expect(chars.json).toEqual([{ ch_out: 'abcdefg', ch_arr_out: ['abc', 'abcdefg'] }]);
    expectError(await post('/rpc/store_char', { ch: 'abcdefg' }), 400, {
      code: '22001',
      message: 'value too long for type character(5)',
      details: null,
      hint: null,
    });
    const bits = await api.get('/rpc/bits_back?bt=101010&bt_arr={101,101010}');
    expectStatus(bits, 200);
    expect(bits.json).toEqual([{ bt_out: '101010', bt_arr_out: ['101', '101010'] }]);
    expectError(await post('/rpc/store_bit', { bt: '101010' }), 400, {
      code: '22026',
      message: 'bit string length 6 does not match type bit(5)',
    });
  });

  it('accepts an argument whose type lives in a schema that is not exposed', async () => {
    const res = await api.get('/rpc/token_arg?my_arg=something');
    expectStatus(res, 200);
    expect(res.json).toBe('token:something');
  });

  it('POST ignores the JSON keys left out of ?columns', async () => {
    const res = await post('/rpc/greet?columns=name', { name: 'John', smth: 'here', other: 'stuff', fake_id: 13 });
    expectStatus(res, 200);
    expect(res.json).toBe('Hello, John');
  });

  it('GET filters a result column named like an argument', async () => {
    expect((await api.get('/rpc/ventures_under?id=5&id=gt.2&select=id')).json).toEqual([{ id: 3 }, { id: 4 }]);
    expect((await api.get('/rpc/ventures_under?id=5&id=not.gt.2&select=id')).json).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await api.get('/rpc/ventures_under?id=5&id=not.in.(1,3)&select=id')).json).toEqual([{ id: 2 }, { id: 4 }]);
  });

  it('runs the function exactly once per request', async () => {
    const first = await post('/rpc/count_call', {});
    expectStatus(first, 200);
    const second = await post('/rpc/count_call', {});
    expect(Number(second.json)).toBe(Number(first.json) + 1);
  });

  it('GET cannot call a function that writes (405)', async () => {
    expectStatus(await api.get('/rpc/count_call'), 405);
  });
});

describe('RpcSpec: improper input', () => {
  it('an Accept that cannot be produced is 406', async () => {
    expectStatus(await post('/rpc/greet', { name: 'world' }, { accept: 'audio/mpeg3' }), 406);
    expectStatus(await api.get('/rpc/greet?name=world', { accept: 'audio/mpeg3' }), 406);
  });

  it('a malformed JSON body is 400 in the error format', async () => {
    expectError(await post('/rpc/greet', 'sdfsdf', { 'content-type': 'application/json' }), 400, {
      code: 'PGRST102',
    });
  });

  it('a plain RAISE is 400, a failed ASSERT is 500', async () => {
    expectError(await post('/rpc/raise_plain_text', {}), 400, { code: 'P0001', message: 'bad input' });
    expectError(await post('/rpc/assert_false', {}), 500, { code: 'P0004', message: 'never true' });
  });

  it('PATCH is 405', async () => {
    expectError(await api.request('PATCH', '/rpc/greet', { body: {} }), 405, { code: 'PGRST101' });
  });

  it('RAISE with a PT code that is not a number is 500', async () => {
    expectError(await api.get('/rpc/raise_odd_pt'), 500, {
      code: 'PT40A',
      message: 'Wrong',
      details: null,
      hint: null,
    });
  });
});

describe('RpcSpec: request settings seen by the function', () => {
  it('headers, cookies, method and path', async () => {
    const header = await post(
      '/rpc/setting_of',
      { prefix: 'request.headers', name: 'custom-header' },
      { 'custom-header': 'test' },
    );
    expectStatus(header, 200);
    expect(header.json).toBe('test');
    const origin = await post(
      '/rpc/setting_of',
      { prefix: 'request.headers', name: 'origin' },
      { origin: 'http://example.com' },
    );
    expect(origin.json).toBe('http://example.com');
    const cookie = await post(
      '/rpc/setting_of',
      { prefix: 'request.cookies', name: 'secondcookie' },
      { cookie: 'acookie=cookievalue;secondcookie=anothervalue' },
    );
    expect(cookie.json).toBe('anothervalue');
    expect((await post('/rpc/setting_of', { name: 'request.method' })).json).toBe('POST');
    expect((await post('/rpc/setting_of', { name: 'request.path' })).json).toBe('/rpc/setting_of');
  });
});

describe('RpcSpec: response headers and status set by the function', () => {
  const wanted = { 'x-test': 'key1=val1; someValue; key2=val2', 'x-test-2': 'key1=val1' };

  it('adds the headers of response.headers', async () => {
    const rows = await api.get('/rpc/ventures_with_headers?id=eq.2&select=id');
    expectStatus(rows, 200);
    expect(rows.json).toEqual([{ id: 2 }]);
    expect(rows.headers).toMatchObject(wanted);
    const got = await api.get('/rpc/int_with_headers?num=1');
    expect(got.json).toBe(1);
    expect(got.headers).toMatchObject(wanted);
    const posted = await post('/rpc/int_with_headers', { num: 1 });
    expect(posted.json).toBe(1);
    expect(posted.headers).toMatchObject(wanted);
  });

  it('is 500 / PGRST111 when response.headers is not an array of one-key string objects', async () => {
    const error = {
      code: 'PGRST111',
      message: 'response.headers guc must be a JSON array composed of objects with a single key and a string value',
      details: null,
      hint: null,
    };
    expectError(await api.get('/rpc/headers_not_array'), 500, error);
    expectError(await api.get('/rpc/headers_not_string'), 500, error);
    expectError(await api.get('/rpc/headers_two_keys'), 500, error);
    expectError(await post('/rpc/headers_not_array', {}), 500, error);
  });

  it('uses the status of response.status, and is 500 / PGRST112 for an invalid one', async () => {
    const res = await api.get('/rpc/status_403');
    expectStatus(res, 403);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.json).toEqual({ message: 'invalid user or password' });
    expectError(await api.get('/rpc/status_bad'), 500, {
      code: 'PGRST112',
      message: 'response.status guc must be a valid status code',
      details: null,
      hint: null,
    });
  });
});

describe('RpcSpec: single unnamed parameters', () => {
  it('without a json overload, a JSON body is looked up by its keys', async () => {
    expectError(await post('/rpc/unnamed_int', { x: 1, y: 2 }), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.unnamed_int(x, y) in the schema cache',
      details:
        'Searched for the function test.unnamed_int with parameters x, y or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    });
  });

  it('a text, xml or binary body looks for a single unnamed parameter of that type', async () => {
    for (const [contentType, kind] of [
      ['text/plain', 'text'],
      ['text/xml', 'xml'],
      ['application/octet-stream', 'bytea'],
    ] as const) {
      expectError(await post('/rpc/unnamed_int', 'a simple text', { 'content-type': contentType }), 404, {
        code: 'PGRST202',
        message: 'Could not find the function test.unnamed_int in the schema cache',
        details: `Searched for the function test.unnamed_int with a single unnamed ${kind} parameter, but no matches were found in the schema cache.`,
        hint: null,
      });
    }
  });

  it('prefers the overloads whose parameters match, then falls back to the json one', async () => {
    expect((await post('/rpc/unnamed_mix', {})).json).toBe(1);
    expect((await post('/rpc/unnamed_mix', { x: 1, y: 2 })).json).toBe(3);
    expect((await post('/rpc/unnamed_mix', { A: 1, B: 2, C: 3 })).json).toEqual({ A: 1, B: 2, C: 3 });
  });

  it('GET ignores the Content-Type and calls the function without parameters', async () => {
    expect((await api.get('/rpc/unnamed_mix', { 'content-type': 'text/plain' })).json).toBe(1);
    expect((await api.get('/rpc/unnamed_mix', { 'content-type': 'application/octet-stream' })).json).toBe(1);
  });

  it('a CSV body is looked up by its header names', async () => {
    expectError(await post('/rpc/unnamed_mix', 'a,b\n1,2\n4,6\n100,200', { 'content-type': 'text/csv' }), 404, {
      code: 'PGRST202',
      message: 'Could not find the function test.unnamed_mix(a, b) in the schema cache',
      details:
        'Searched for the function test.unnamed_mix with parameters a, b, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function test.unnamed_mix(x, y)',
    });
  });

  it('json and jsonb fallbacks together are 300 / PGRST203', async () => {
    expectError(await post('/rpc/unnamed_both', { A: 1 }), 300, {
      code: 'PGRST203',
      message:
        'Could not choose the best candidate function between: test.unnamed_both( => json), test.unnamed_both( => jsonb)',
      details: null,
    });
  });
});

describe("RpcSpec: RAISE SQLSTATE 'PGRST'", () => {
  it('takes the body from MESSAGE and the status, status text and headers from DETAIL', async () => {
    const res = await api.get('/rpc/raise_full');
    expectError(res, 419, { code: 'L42', message: 'Custom failure', details: 'More about it', hint: 'Try later' });
    expect(res.headers['x-reason']).toBe('cooldown');
    const plain = await api.get('/rpc/raise_full?with_status_text=false');
    expectError(plain, 404, { code: 'L43', message: 'Not here', details: null, hint: null });
    expect(plain.headers['x-reason']).toBe('gone');
  });

  it('is 500 / PGRST121 when MESSAGE or DETAIL is not JSON, or DETAIL is missing', async () => {
    expectError(await api.get('/rpc/raise_bad_message'), 500, {
      code: 'PGRST121',
      details: "Invalid JSON value for MESSAGE: 'not json'",
      hint: "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    });
    expectError(await api.get('/rpc/raise_bad_detail'), 500, {
      code: 'PGRST121',
      details: "Invalid JSON value for DETAIL: 'not json'",
      hint: "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
    });
    expectError(await api.get('/rpc/raise_no_detail'), 500, {
      code: 'PGRST121',
      details: 'DETAIL is missing in the RAISE statement',
    });
  });
});

describe('ErrorSpec', () => {
  it('cardinality_violation (21000) from a view is 500', async () => {
    expectError(await api.get('/broken_subquery'), 500, {
      code: '21000',
      message: 'more than one row returned by a subquery used as an expression',
    });
  });
});

describe('EmbedDisambiguationSpec: ambiguous embeds (300 / PGRST201)', () => {
  it('lists a many-to-one and the many-to-many relationships (through a table and a view) to the same table', async () => {
    const body = expectError(await api.get('/sites?select=*,big_projects(*)'), 300, {
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'sites' and 'big_projects'",
      hint: "Try changing 'big_projects' to one of the following: 'big_projects!main_project', 'big_projects!jobs', 'big_projects!site_jobs'. Find the desired relationship in the 'details' key.",
    });
    expect(body.details).toEqual([
      {
        cardinality: 'many-to-one',
        relationship: 'main_project using sites(main_project_id) and big_projects(big_project_id)',
        embedding: 'sites with big_projects',
      },
      {
        cardinality: 'many-to-many',
        relationship: 'jobs using jobs_site_id_fkey(site_id) and jobs_big_project_id_fkey(big_project_id)',
        embedding: 'sites with big_projects',
      },
      {
        cardinality: 'many-to-many',
        relationship: 'site_jobs using jobs_site_id_fkey(site_id) and jobs_big_project_id_fkey(big_project_id)',
        embedding: 'sites with big_projects',
      },
    ]);
  });

  it('embeds through a view over the junction when it is named', async () => {
    expect(expectRows(await api.get('/sites?select=site_id,big_projects!site_jobs(name)&order=site_id'))).toEqual([
      { site_id: 1, big_projects: [] },
      { site_id: 2, big_projects: [{ name: 'big project 1' }, { name: 'big project 2' }] },
    ]);
  });

  it('lists both directions of a circular reference, one-to-many first', async () => {
    const body = expectError(await api.get('/agents?select=*,departments(*)'), 300, {
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'agents' and 'departments'",
      hint: "Try changing 'departments' to one of the following: 'departments!departments_head_id_fkey', 'departments!agents_department_id_fkey'. Find the desired relationship in the 'details' key.",
    });
    expect(body.details).toEqual([
      {
        cardinality: 'one-to-many',
        relationship: 'departments_head_id_fkey using agents(id) and departments(head_id)',
        embedding: 'agents with departments',
      },
      {
        cardinality: 'many-to-one',
        relationship: 'agents_department_id_fkey using agents(department_id) and departments(id)',
        embedding: 'agents with departments',
      },
    ]);
    expect(body.details).toHaveLength(2);
  });

  it('lists two one-to-one relationships', async () => {
    const body = expectError(await api.get('/first?select=second(*)'), 300, {
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'first' and 'second'",
      hint: "Try changing 'second' to one of the following: 'second!first_second_id_1_fkey', 'second!first_second_id_2_fkey'. Find the desired relationship in the 'details' key.",
    });
    expect(body.details).toEqual([
      {
        cardinality: 'one-to-one',
        embedding: 'first with second',
        relationship: 'first_second_id_1_fkey using first(second_id_1) and second(id)',
      },
      {
        cardinality: 'one-to-one',
        embedding: 'first with second',
        relationship: 'first_second_id_2_fkey using first(second_id_2) and second(id)',
      },
    ]);
  });
});

describe('EmbedDisambiguationSpec: embedding by foreign key name', () => {
  it('embeds by the constraint name, alone or next to the column', async () => {
    expect(expectRows(await api.get('/ventures?id=in.(1,3)&select=id,name,firm(id,name)'))).toEqual([
      { id: 1, name: 'Alpha', firm: { id: 1, name: 'Northwind' } },
      { id: 3, name: 'Gamma', firm: { id: 2, name: 'Contoso' } },
    ]);
    expect(expectRows(await api.get('/ventures?id=in.(1,3)&select=id,name,firm_id,firm(id,name)'))).toEqual([
      { id: 1, name: 'Alpha', firm_id: 1, firm: { id: 1, name: 'Northwind' } },
      { id: 3, name: 'Gamma', firm_id: 2, firm: { id: 2, name: 'Contoso' } },
    ]);
  });

  it('embeds a view by its inherited foreign key, and its parent by constraint name', async () => {
    const res = await api.get(
      '/steps?id=eq.1&select=id,name,ventures_view!steps_venture_id_fkey(id,name,firm(id,name))',
    );
    expect(expectRows(res)).toEqual([
      { id: 1, name: 'Plan A', ventures_view: { id: 1, name: 'Alpha', firm: { id: 1, name: 'Northwind' } } },
    ]);
  });

  it('embeds by a composite foreign key name', async () => {
    expect(expectRows(await api.get('/unit_days?select=id,the_shift(car_id)'))).toEqual([
      { id: 1, the_shift: { car_id: 'CAR-349' } },
    ]);
  });

  it('embeds the same table twice through two named foreign keys (spaces in select)', async () => {
    expect(expectRows(await api.get('/orders?id=eq.1&select=id, name, billing(address), shipping(address)'))).toEqual([
      { id: 1, name: 'order 1', billing: { address: 'address 1' }, shipping: { address: 'address 2' } },
    ]);
  });

  it('disambiguates a many-to-one from many-to-many relationships by constraint or column', async () => {
    expect(expectRows(await api.get('/sites?select=name,main_project(name)&site_id=eq.1'))).toEqual([
      { name: 'site 1', main_project: { name: 'big project 1' } },
    ]);
    expect(expectRows(await api.get('/sites?select=name,main_project_id(name)&site_id=eq.1'))).toEqual([
      { name: 'site 1', main_project_id: { name: 'big project 1' } },
    ]);
  });
});

describe('EmbedDisambiguationSpec: embedding by column name', () => {
  it('embeds by the foreign key column, renamed to keep the column itself', async () => {
    expect(expectRows(await api.get('/ventures?id=in.(1,3)&select=id,name,firm_id(id,name)'))).toEqual([
      { id: 1, name: 'Alpha', firm_id: { id: 1, name: 'Northwind' } },
      { id: 3, name: 'Gamma', firm_id: { id: 2, name: 'Contoso' } },
    ]);
    expect(expectRows(await api.get('/ventures?id=in.(1,3)&select=id,name,firm_id,firm:firm_id(id,name)'))).toEqual([
      { id: 1, name: 'Alpha', firm_id: 1, firm: { id: 1, name: 'Northwind' } },
      { id: 3, name: 'Gamma', firm_id: 2, firm: { id: 2, name: 'Contoso' } },
    ]);
  });

  it('embeds a view by column hint and its parent by column', async () => {
    const res = await api.get(
      '/steps?id=eq.1&select=id,name,venture:ventures_view!venture_id(id,name,firm:firm_id(id,name))',
    );
    expect(expectRows(res)).toEqual([
      { id: 1, name: 'Plan A', venture: { id: 1, name: 'Alpha', firm: { id: 1, name: 'Northwind' } } },
    ]);
  });

  it('embeds by a column with upper-case letters', async () => {
    expect(expectRows(await api.get('/ghostHunters?select=escapeId(*)&order=id'))).toEqual([
      { escapeId: { targetId: 1 } },
      { escapeId: { targetId: 3 } },
    ]);
  });

  it('embeds by two columns, or a column and a constraint, pointing at the same table', async () => {
    expect(
      expectRows(await api.get('/orders?id=eq.1&select=id, name, billing_address_id(id), shipping_address_id(id)')),
    ).toEqual([{ id: 1, name: 'order 1', billing_address_id: { id: 1 }, shipping_address_id: { id: 2 } }]);
    expect(expectRows(await api.get('/orders?id=eq.1&select=id, name, billing_address_id(id), shipping(id)'))).toEqual([
      { id: 1, name: 'order 1', billing_address_id: { id: 1 }, shipping: { id: 2 } },
    ]);
  });
});

describe('EmbedDisambiguationSpec: junctions and self references', () => {
  it('names the junction of a many-to-many relationship', async () => {
    expect(expectRows(await api.get('/sites?select=*,big_projects!jobs(name)&site_id=in.(1,2)&order=site_id'))).toEqual(
      [
        { site_id: 1, name: 'site 1', main_project_id: 1, big_projects: [{ name: 'big project 1' }] },
        {
          site_id: 2,
          name: 'site 2',
          main_project_id: null,
          big_projects: [{ name: 'big project 1' }, { name: 'big project 2' }],
        },
      ],
    );
  });

  it('embeds parents recursively through a self reference', async () => {
    expect(expectRows(await api.get('/family_tree?id=in.(3,4)&select=id,parent(id,name,parent(*))&order=id'))).toEqual([
      { id: 3, parent: { id: 1, name: 'Parental Unit', parent: null } },
      { id: 4, parent: { id: 2, name: 'Kid One', parent: { id: 1, name: 'Parental Unit', parent: null } } },
    ]);
  });

  it('embeds children recursively, and children of the parent', async () => {
    const children = await api.get(
      '/family_tree?id=eq.1&select=id,name,children:family_tree!parent(id,name,children:family_tree!parent(id,name))',
    );
    expect(expectRows(children)).toEqual([
      {
        id: 1,
        name: 'Parental Unit',
        children: [
          { id: 2, name: 'Kid One', children: [{ id: 4, name: 'Grandkid One' }] },
          { id: 3, name: 'Kid Two', children: [{ id: 5, name: 'Grandkid Two' }] },
        ],
      },
    ]);
    const parentThenChildren = await api.get(
      '/family_tree?id=eq.2&select=id,name,parent(id,name,children:family_tree!parent(id,name))',
    );
    expect(expectRows(parentThenChildren)).toEqual([
      {
        id: 2,
        name: 'Kid One',
        parent: {
          id: 1,
          name: 'Parental Unit',
          children: [
            { id: 2, name: 'Kid One' },
            { id: 3, name: 'Kid Two' },
          ],
        },
      },
    ]);
  });

  it('embeds through two self-referencing foreign keys in both directions', async () => {
    expect(
      expectRows(await api.get('/organizations?select=id,name,referee(id,name),auditor(id,name)&id=eq.3')),
    ).toEqual([
      { id: 3, name: 'Acme', referee: { id: 1, name: 'Referee Org' }, auditor: { id: 2, name: 'Auditor Org' } },
    ]);
    expect(
      expectRows(await api.get('/organizations?select=id,name,refereeds:organizations!referee(id,name)&id=eq.1')),
    ).toEqual([
      {
        id: 1,
        name: 'Referee Org',
        refereeds: [
          { id: 3, name: 'Acme' },
          { id: 4, name: 'Umbrella' },
        ],
      },
    ]);
    expect(
      expectRows(await api.get('/organizations?select=id,name,auditees:organizations!auditor(id,name)&id=eq.2')),
    ).toEqual([
      {
        id: 2,
        name: 'Auditor Org',
        auditees: [
          { id: 3, name: 'Acme' },
          { id: 4, name: 'Umbrella' },
        ],
      },
    ]);
  });

  it('finds no many-to-many relationship through a junction of a hidden schema', async () => {
    expectError(await api.get('/end_1?select=end_2(*)'), 400, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'end_1' and 'end_2' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'end_1' and 'end_2' in the schema 'test', but no matches were found.",
      hint: null,
    });
  });
});

describe('EmbedInnerJoinSpec', () => {
  const count = { prefer: 'count=exact' };

  it('filters the top level through two levels of !inner many-to-one embeds', async () => {
    const query = '/steps?select=id,ventures!inner(id,firms!inner(id))&ventures.firms.id=eq.1&order=id';
    expect(expectRows(await api.get(query))).toEqual([
      { id: 1, ventures: { id: 1, firms: { id: 1 } } },
      { id: 2, ventures: { id: 1, firms: { id: 1 } } },
      { id: 3, ventures: { id: 2, firms: { id: 1 } } },
      { id: 4, ventures: { id: 2, firms: { id: 1 } } },
    ]);
    const head = await api.request('HEAD', query, { headers: count });
    expectStatus(head, 200);
    expect(head.headers['content-range']).toBe('0-3/4');
  });

  it('only the direct embed of a table filters its rows', async () => {
    const query = '/steps?select=id,ventures(id,firms!inner(id))&ventures.firms.id=eq.2&order=id';
    expect(expectRows(await api.get(query))).toEqual([
      { id: 1, ventures: null },
      { id: 2, ventures: null },
      { id: 3, ventures: null },
      { id: 4, ventures: null },
      { id: 5, ventures: { id: 3, firms: { id: 2 } } },
      { id: 6, ventures: { id: 3, firms: { id: 2 } } },
      { id: 7, ventures: { id: 4, firms: { id: 2 } } },
      { id: 8, ventures: { id: 4, firms: { id: 2 } } },
    ]);
    const head = await api.request('HEAD', query, { headers: count });
    expect(head.headers['content-range']).toBe('0-7/8');
  });

  it('filters through two levels of !inner one-to-many embeds', async () => {
    const query =
      '/entities?select=id,child_entities!inner(id,grandchild_entities!inner(id))&child_entities.grandchild_entities.id=in.(1,5)';
    expect(expectRows(await api.get(query))).toEqual([
      {
        id: 1,
        child_entities: [
          { id: 1, grandchild_entities: [{ id: 1 }] },
          { id: 2, grandchild_entities: [{ id: 5 }] },
        ],
      },
    ]);
    const head = await api.request('HEAD', query, { headers: count });
    expect(head.headers['content-range']).toBe('0-0/1');
  });

  it('a plain grandchild embed under an !inner child does not filter the children', async () => {
    const query =
      '/entities?select=id,child_entities!inner(id,grandchild_entities(id))&child_entities.grandchild_entities.id=eq.2';
    expect(expectRows(await api.get(query))).toEqual([
      {
        id: 1,
        child_entities: [
          { id: 1, grandchild_entities: [{ id: 2 }] },
          { id: 2, grandchild_entities: [] },
          { id: 4, grandchild_entities: [] },
          { id: 5, grandchild_entities: [] },
        ],
      },
      {
        id: 2,
        child_entities: [
          { id: 3, grandchild_entities: [] },
          { id: 6, grandchild_entities: [] },
        ],
      },
    ]);
    const head = await api.request('HEAD', query, { headers: count });
    expect(head.headers['content-range']).toBe('0-1/2');
  });

  it('works on the rows of a function', async () => {
    expect(expectRows(await api.get('/rpc/every_venture?select=id,firms!inner(id)&firms.id=eq.1'))).toEqual([
      { id: 1, firms: { id: 1 } },
      { id: 2, firms: { id: 1 } },
    ]);
  });

  it('works with a constraint hint, and with the constraint name as the embed', async () => {
    expect(expectRows(await api.get('/ventures?select=id,firms!firm!inner(id)&firms.id=eq.2'))).toEqual([
      { id: 3, firms: { id: 2 } },
      { id: 4, firms: { id: 2 } },
    ]);
    expect(expectRows(await api.get('/ventures?select=id,firm!inner(id)&firm.id=eq.2'))).toEqual([
      { id: 3, firm: { id: 2 } },
      { id: 4, firm: { id: 2 } },
    ]);
    const head = await api.request('HEAD', '/ventures?select=id,firms!firm!inner(id)&firms.id=eq.2', {
      headers: count,
    });
    expect(head.headers['content-range']).toBe('0-1/2');
  });
});

describe('RelatedQueriesSpec', () => {
  it('orders by a many-to-one embed, with nulls first and through an alias', async () => {
    expect(
      expectRows(await api.get('/ventures?select=id,firms(name)&order=firms(name).nullsfirst,id')).map((r) => r.id),
    ).toEqual([5, 3, 4, 1, 2]);
    expect(
      expectRows(await api.get('/ventures?select=id,firm:firms(name)&order=firm(name).asc,id')).map((r) => r.id),
    ).toEqual([3, 4, 1, 2, 5]);
  });

  it('orders an embedded resource by its own to-one embed', async () => {
    const res = await api.get(
      '/members?select=name,steps(id,ventures(id))&steps.order=ventures(id).desc,name&order=id&limit=1',
    );
    expect(expectRows(res)).toEqual([
      {
        name: 'Ann',
        steps: [
          { id: 4, ventures: { id: 2 } },
          { id: 3, ventures: { id: 2 } },
          { id: 2, ventures: { id: 1 } },
          { id: 1, ventures: { id: 1 } },
        ],
      },
    ]);
  });

  it('is 400 / PGRST118 for a related order on an aliased one-to-many embed', async () => {
    expectError(await api.get('/firms?select=*,vs:ventures(*)&order=vs(id)'), 400, {
      code: 'PGRST118',
      message: "A related order on 'vs' is not possible",
      details: "'firms' and 'vs' do not form a many-to-one or one-to-one relationship",
      hint: null,
    });
  });

  it('filters by the presence of one-to-many children, also through an alias', async () => {
    expect(
      expectRows(await api.get('/entities?select=name,child_entities()&child_entities=not.is.null&order=id')),
    ).toEqual([{ name: 'entity 1' }, { name: 'entity 2' }]);
    expect(expectRows(await api.get('/entities?select=name,child_entities()&child_entities=is.null&order=id'))).toEqual(
      [{ name: 'entity 3' }, { name: null }],
    );
    expect(expectRows(await api.get('/entities?select=name,childs:child_entities()&childs=is.null&order=id'))).toEqual([
      { name: 'entity 3' },
      { name: null },
    ]);
  });

  it('filters by the presence of filtered many-to-many rows', async () => {
    expect(expectRows(await api.get('/members?select=name,steps()&steps.id=eq.1&steps=not.is.null&order=id'))).toEqual([
      { name: 'Ann' },
      { name: 'Cid' },
    ]);
    expect(expectRows(await api.get('/members?select=name,steps()&steps.id=eq.1&steps=is.null&order=id'))).toEqual([
      { name: 'Ben' },
    ]);
  });

  it('filters by the presence of nested embeds', async () => {
    const res = await api.get(
      '/entities?select=name,child_entities(name,grandchild_entities())&child_entities.grandchild_entities=not.is.null&child_entities=not.is.null&order=id&child_entities.order=id',
    );
    expect(expectRows(res)).toEqual([
      { name: 'entity 1', child_entities: [{ name: 'child entity 1' }, { name: 'child entity 2' }] },
      { name: 'entity 2', child_entities: [{ name: 'child entity 3' }] },
    ]);
  });

  it('a filter on the column used as embed hint still filters the column', async () => {
    expect(expectRows(await api.get('/ventures?select=name,firm_id,firm:firm_id(name)&firm_id=eq.2&order=id'))).toEqual(
      [
        { name: 'Gamma', firm_id: 2, firm: { name: 'Contoso' } },
        { name: 'Delta', firm_id: 2, firm: { name: 'Contoso' } },
      ],
    );
  });

  it('counts with a null filter on an embed', async () => {
    const some = await api.get('/ventures?select=name,firms(name)&firms=not.is.null&order=id', {
      prefer: 'count=exact',
    });
    expect(expectRows(some)).toHaveLength(4);
    expect(some.headers['content-range']).toBe('0-3/4');
    const none = await api.get('/ventures?select=name,firms()&firms=is.null', { prefer: 'count=exact' });
    expect(expectRows(none)).toEqual([{ name: 'Orphan' }]);
    expect(none.headers['content-range']).toBe('0-0/1');
  });
});

describe('MultipleSchemaSpec', () => {
  let multi: Awaited<ReturnType<typeof startVariant>>;
  beforeAll(async () => {
    multi = await startVariant(api, { schemas: ['sv1', 'sv2', SPECIAL] });
  });
  afterAll(async () => {
    await multi?.close();
  });

  it('reads the first schema by default, and any exposed one by Accept-Profile', async () => {
    const byDefault = await multi.request('GET', '/parents?order=id');
    expect(expectRows(byDefault)).toEqual([
      { id: 1, name: 'parent v1-1' },
      { id: 2, name: 'parent v1-2' },
    ]);
    expect(byDefault.headers['content-profile']).toBe('sv1');
    const explicit = await multi.request('GET', '/parents?order=id', { headers: { 'accept-profile': 'sv1' } });
    expect(explicit.headers['content-profile']).toBe('sv1');
    const second = await multi.request('GET', '/parents?order=id', { headers: { 'accept-profile': 'sv2' } });
    expect(expectRows(second)).toEqual([
      { id: 3, name: 'parent v2-3' },
      { id: 4, name: 'parent v2-4' },
    ]);
    expect(second.headers['content-profile']).toBe('sv2');
    const another = await multi.request('GET', '/another_table?order=id', { headers: { 'accept-profile': 'sv2' } });
    expect(expectRows(another)).toEqual([
      { id: 5, another_value: 'value 5' },
      { id: 6, another_value: 'value 6' },
    ]);
    expectStatus(await multi.request('GET', '/another_table', { headers: { 'accept-profile': 'sv1' } }), 404);
  });

  it('is 406 / PGRST106 for a schema that is not exposed', async () => {
    const error = {
      code: 'PGRST106',
      message: 'Invalid schema: unknown',
      details: null,
      hint: `Only the following schemas are exposed: sv1, sv2, ${SPECIAL}`,
    };
    expectError(await multi.request('GET', '/parents', { headers: { 'accept-profile': 'unknown' } }), 406, error);
    expectError(
      await multi.request('POST', '/children', {
        headers: { 'content-profile': 'unknown' },
        body: { name: 'child 4', parent_id: 4 },
      }),
      406,
      error,
    );
  });

  it('reads and embeds in a schema named with upper case and special characters', async () => {
    const headers = { 'accept-profile': SPECIAL };
    const names = await multi.request('GET', '/names?select=id,name&order=id', { headers });
    expect(expectRows(names)).toEqual([
      { id: 1, name: 'John' },
      { id: 2, name: 'Mary' },
      { id: 3, name: 'José' },
    ]);
    expect(names.headers['content-profile']).toBe(SPECIAL);
    const embedded = await multi.request('GET', '/names?select=name,languages(name)&id=in.(1,3)&order=id', { headers });
    expect(expectRows(embedded)).toEqual([
      { name: 'John', languages: { name: 'English' } },
      { name: 'José', languages: { name: 'Spanish' } },
    ]);
  });

  it('calls the function of the selected schema, with embeds', async () => {
    const byDefault = await multi.request('GET', '/rpc/parents_below?id=6');
    expect(expectRows(byDefault)).toEqual([
      { id: 1, name: 'parent v1-1' },
      { id: 2, name: 'parent v1-2' },
    ]);
    expect(byDefault.headers['content-profile']).toBe('sv1');
    const first = await multi.request('GET', '/rpc/parents_below?id=6&select=id,name,children(id,name)', {
      headers: { 'accept-profile': 'sv1' },
    });
    expect(expectRows(first)).toEqual([
      { id: 1, name: 'parent v1-1', children: [{ id: 1, name: 'child v1-1' }] },
      { id: 2, name: 'parent v1-2', children: [{ id: 2, name: 'child v1-2' }] },
    ]);
    const second = await multi.request('GET', '/rpc/parents_below?id=6&select=id,name,children(id,name)', {
      headers: { 'accept-profile': 'sv2' },
    });
    expect(expectRows(second)).toEqual([
      { id: 3, name: 'parent v2-3', children: [{ id: 1, name: 'child v2-3' }] },
      { id: 4, name: 'parent v2-4', children: [] },
    ]);
    expect(second.headers['content-profile']).toBe('sv2');
    const posted = await multi.request('POST', '/rpc/parents_below?select=id,name', {
      headers: { 'content-profile': 'sv2' },
      body: { id: '6' },
    });
    expect(expectRows(posted)).toEqual([
      { id: 3, name: 'parent v2-3' },
      { id: 4, name: 'parent v2-4' },
    ]);
    expect(posted.headers['content-profile']).toBe('sv2');
  });

  it('writes to the selected schema and embeds from it', async () => {
    const repr = { prefer: 'return=representation' };
    const plain = await multi.request('POST', '/children', {
      headers: repr,
      body: { id: 10, name: 'child v1-10', parent_id: 1 },
    });
    expectStatus(plain, 201);
    expect(plain.json).toEqual([{ id: 10, name: 'child v1-10', parent_id: 1 }]);
    expect(plain.headers['content-profile']).toBe('sv1');
    const v1 = await multi.request('POST', '/children?select=id,parents(*)', {
      headers: { ...repr, 'content-profile': 'sv1' },
      body: { id: 11, name: 'child v1-11', parent_id: 2 },
    });
    expectStatus(v1, 201);
    expect(v1.json).toEqual([{ id: 11, parents: { id: 2, name: 'parent v1-2' } }]);
    const v2 = await multi.request('POST', '/children?select=id,parents(*)', {
      headers: { ...repr, 'content-profile': 'sv2' },
      body: { id: 10, name: 'child v2-10', parent_id: 3 },
    });
    expectStatus(v2, 201);
    expect(v2.json).toEqual([{ id: 10, parents: { id: 3, name: 'parent v2-3' } }]);
    expect(v2.headers['content-profile']).toBe('sv2');
    const patched = await multi.request('PATCH', '/children?select=name,parents(name)&id=eq.10', {
      headers: { ...repr, 'content-profile': 'sv2' },
      body: { name: 'child v2-10 updated' },
    });
    expectStatus(patched, 200);
    expect(patched.json).toEqual([{ name: 'child v2-10 updated', parents: { name: 'parent v2-3' } }]);
    const deleted = await multi.request('DELETE', '/children?id=eq.10', {
      headers: { ...repr, 'content-profile': 'sv2' },
    });
    expectStatus(deleted, 200);
    expect(deleted.json).toEqual([{ id: 10, name: 'child v2-10 updated', parent_id: 3 }]);
    expect(deleted.headers['content-profile']).toBe('sv2');
    const put = await multi.request('PUT', '/children?id=eq.111', {
      headers: { ...repr, 'content-profile': 'sv2' },
      body: [{ id: 111, name: 'child v2-111', parent_id: null }],
    });
    expectStatus(put, 201);
    expect(put.json).toEqual([{ id: 111, name: 'child v2-111', parent_id: null }]);
    expect(put.headers['content-profile']).toBe('sv2');
  });
});
