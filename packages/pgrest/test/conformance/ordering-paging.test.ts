import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Conformance,
  type TestResponse,
  expectError,
  expectStatus,
  ids,
  rangeHeaders,
  startConformance,
  startVariant,
} from './helpers.js';

// Ordering, limit/offset and Range headers.
// Sources: PostgREST docs "Tables and Views > Ordering", "Pagination and Count > Limits and
// Pagination"; test/spec/Feature/Query/QuerySpec.hs ("ordering response"), RangeSpec.hs,
// QueryLimitedSpec.hs (db-max-rows); src/PostgREST/RangeQuery.hs (status 200/206/416 and the
// Content-Range forms "a-b/*", "*/*", "a-b/total", "*/total").

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

function expectOk(res: TestResponse, status = 200): void {
  expectStatus(res, status);
}

describe('order', () => {
  it('orders ascending by default', async () => {
    const res = await api.get('/gadgets?select=id&order=qty');
    expectOk(res);
    // PostgreSQL puts NULLs last in ascending order.
    expect(ids(res)).toEqual([2, 5, 3, 1, 6, 4]);
  });

  it('orders descending, NULLs first (PostgreSQL default for DESC)', async () => {
    const res = await api.get('/gadgets?select=id&order=price.desc');
    expect(ids(res)).toEqual([4, 5, 2, 1, 3, 6]);
  });

  it('honours .nullslast with .desc', async () => {
    const res = await api.get('/gadgets?select=id&order=price.desc.nullslast');
    expect(ids(res)).toEqual([5, 2, 1, 3, 6, 4]);
  });

  it('honours .nullsfirst without a direction', async () => {
    const res = await api.get('/gadgets?select=id&order=price.nullsfirst');
    expect(ids(res)).toEqual([4, 6, 3, 1, 2, 5]);
  });

  it('honours .asc.nullsfirst', async () => {
    const res = await api.get('/gadgets?select=id&order=qty.asc.nullsfirst');
    expect(ids(res)).toEqual([4, 2, 5, 3, 1, 6]);
  });

  it('orders by several columns', async () => {
    const res = await api.get('/gadgets?select=id&order=active.desc,id.asc');
    expect(ids(res)).toEqual([3, 1, 4, 5, 2, 6]);
  });

  it('orders by a JSON path', async () => {
    const res = await api.get('/gadgets?select=id&order=specs->>color.asc,id');
    expect(ids(res)).toEqual([2, 5, 1, 3, 4, 6]);
  });

  it('fails with 400 / 42703 on an unknown column', async () => {
    expectError(await api.get('/gadgets?order=nope'), 400, {
      code: '42703',
      message: 'column gadgets.nope does not exist',
    });
  });

  it('fails to parse a misspelled direction (PostgREST parser message)', async () => {
    expectError(await api.get('/gadgets?order=id.ac'), 400, {
      code: 'PGRST100',
      message: '"failed to parse order (id.ac)" (line 1, column 4)',
      details: 'unexpected "c" expecting "asc", "desc", "nullsfirst" or "nullslast"',
      hint: null,
    });
  });

  it('fails to parse trailing garbage after nullslast (PostgREST parser message)', async () => {
    expectError(await api.get('/gadgets?order=id.asc.nullslasttt'), 400, {
      code: 'PGRST100',
      message: '"failed to parse order (id.asc.nullslasttt)" (line 1, column 17)',
      details: 'unexpected \'t\' expecting "," or end of input',
      hint: null,
    });
  });

  it('fails to parse a misspelled nulls option after a direction', async () => {
    expectError(await api.get('/gadgets?order=id.asc.nlsfst'), 400, {
      code: 'PGRST100',
      message: '"failed to parse order (id.asc.nlsfst)" (line 1, column 8)',
      details: 'unexpected "l" expecting "nullsfirst" or "nullslast"',
    });
  });
});

describe('limit and offset', () => {
  it('limits the rows and reports the range', async () => {
    const res = await api.get('/gadgets?select=id&order=id&limit=2');
    expectOk(res);
    expect(ids(res)).toEqual([1, 2]);
    expect(res.headers['content-range']).toBe('0-1/*');
  });

  it('offsets the rows and reports the range from the offset', async () => {
    const res = await api.get('/gadgets?select=id&order=id&limit=2&offset=1');
    expect(ids(res)).toEqual([2, 3]);
    expect(res.headers['content-range']).toBe('1-2/*');
  });

  it('offset alone skips rows', async () => {
    const res = await api.get('/gadgets?select=id&order=id&offset=4');
    expect(ids(res)).toEqual([5, 6]);
    expect(res.headers['content-range']).toBe('4-5/*');
  });

  it('limit=0 returns an empty array with Content-Range */*', async () => {
    const res = await api.get('/gadgets?select=id&limit=0');
    expectOk(res);
    expect(res.json).toEqual([]);
    expect(res.headers['content-range']).toBe('*/*');
  });

  it('a negative offset is a no-op', async () => {
    const res = await api.get('/gadgets?select=id&order=id&offset=-4');
    expect(ids(res)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(res.headers['content-range']).toBe('0-5/*');
  });

  it('a negative limit is 416 / PGRST103', async () => {
    expectError(await api.get('/gadgets?select=id&limit=-1'), 416, {
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'Limit should be greater than or equal to zero.',
      hint: null,
    });
  });

  it('an offset past the end without a count is 200 with an empty array', async () => {
    const res = await api.get('/gadgets?select=id&offset=100');
    expectOk(res);
    expect(res.json).toEqual([]);
    expect(res.headers['content-range']).toBe('*/*');
  });

  it('an offset past the end with count=exact is 416 with Content-Range */total', async () => {
    const res = await api.request('GET', '/gadgets?select=id&offset=100', { headers: { prefer: 'count=exact' } });
    expectError(res, 416, {
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'An offset of 100 was requested, but there are only 6 rows.',
      hint: null,
    });
    expect(res.headers['content-range']).toBe('*/6');
  });

  it("the 416 keeps the read's other headers (Response.hs answers it like the read)", async () => {
    const res = await api.request('GET', '/gadgets?select=id&offset=100', { headers: { prefer: 'count=exact' } });
    expect(res.headers['content-location']).toBe('/gadgets?offset=100&select=id');
    expect(res.headers['preference-applied']).toBe('count=exact');
  });
});

describe('Range header', () => {
  it('Range: 0-1 limits the rows (200, the total is unknown)', async () => {
    const res = await api.get('/gadgets?select=id&order=id', rangeHeaders('0-1'));
    expectOk(res);
    expect(ids(res)).toEqual([1, 2]);
    expect(res.headers['content-range']).toBe('0-1/*');
  });

  it('Range: 0-1 with count=exact is 206 Partial Content', async () => {
    const res = await api.get('/gadgets?select=id&order=id', rangeHeaders('0-1', { prefer: 'count=exact' }));
    expectOk(res, 206);
    expect(ids(res)).toEqual([1, 2]);
    expect(res.headers['content-range']).toBe('0-1/6');
  });

  it('understands open-ended ranges', async () => {
    const res = await api.get('/gadgets?select=id&order=id', rangeHeaders('4-'));
    expectOk(res);
    expect(ids(res)).toEqual([5, 6]);
    expect(res.headers['content-range']).toBe('4-5/*');
  });

  it('truncates a range beyond the end', async () => {
    const res = await api.get('/gadgets?select=id&order=id', rangeHeaders('4-100'));
    expectOk(res);
    expect(ids(res)).toEqual([5, 6]);
    expect(res.headers['content-range']).toBe('4-5/*');
  });

  it('the Range header overrides the limit parameter', async () => {
    const res = await api.get('/gadgets?select=id&order=id&limit=3', rangeHeaders('0-0'));
    expect(ids(res)).toEqual([1]);
    expect(res.headers['content-range']).toBe('0-0/*');
  });

  it('a range whose lower bound exceeds the upper bound is 416 / PGRST103', async () => {
    expectError(await api.get('/gadgets?select=id', rangeHeaders('1-0')), 416, {
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
      hint: null,
    });
  });

  it('a range starting past the end with count=exact is 416 with Content-Range */total', async () => {
    const res = await api.get('/gadgets?select=id', rangeHeaders('10-20', { prefer: 'count=exact' }));
    expectError(res, 416, {
      code: 'PGRST103',
      details: 'An offset of 10 was requested, but there are only 6 rows.',
    });
    expect(res.headers['content-range']).toBe('*/6');
  });

  it('returns an empty array with */* when a range matches nothing', async () => {
    const res = await api.get('/gadgets?select=id&id=gt.100', rangeHeaders('0-1'));
    expectOk(res);
    expect(res.json).toEqual([]);
    expect(res.headers['content-range']).toBe('*/*');
  });
});

describe('db-max-rows (maxRows option)', () => {
  let limited: Conformance['request'];
  let closeLimited: () => Promise<void>;
  beforeAll(async () => {
    const variant = await startVariant(api, { maxRows: 2 });
    limited = variant.request;
    closeLimited = variant.close;
  });
  afterAll(async () => {
    await closeLimited?.();
  });

  it('caps the rows of a read', async () => {
    const res = await limited('GET', '/gadgets?select=id&order=id');
    expectOk(res);
    expect(ids(res)).toEqual([1, 2]);
    expect(res.headers['content-range']).toBe('0-1/*');
  });

  it('still honours a smaller client range', async () => {
    const res = await limited('GET', '/gadgets?select=id&order=id', { headers: rangeHeaders('0-0') });
    expect(ids(res)).toEqual([1]);
    expect(res.headers['content-range']).toBe('0-0/*');
  });

  it('reports the full count with count=exact (206)', async () => {
    const res = await limited('GET', '/gadgets?select=id&order=id', { headers: { prefer: 'count=exact' } });
    expectOk(res, 206);
    expect(res.headers['content-range']).toBe('0-1/6');
  });

  it('caps embedded arrays too', async () => {
    const res = await limited('GET', '/tags?select=id,books(id)&id=eq.2&books.order=id');
    expectOk(res);
    expect(res.json).toEqual([{ id: 2, books: [{ id: 1 }, { id: 2 }] }]);
  });

  it('limit=0 still returns an empty array', async () => {
    const res = await limited('GET', '/gadgets?limit=0');
    expectOk(res);
    expect(res.json).toEqual([]);
    expect(res.headers['content-range']).toBe('*/*');
  });
});
