import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Conformance, JSON_CT, expectError, expectStatus, startConformance } from './helpers.js';

// Counting: Prefer count=exact|planned|estimated, the Content-Range forms and HEAD.
// Sources: PostgREST docs "Pagination and Count > Exact Count / Planned Count / Estimated
// Count", "Preferences > Preference-Applied"; test/spec/Feature/Query/RangeSpec.hs,
// EmbedInnerJoinSpec.hs (HEAD with count=exact), RpcSpec.hs; src/PostgREST/Response.hs
// (Preference-Applied lists count= on reads).

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

function prefer(value: string): Record<string, string> {
  return { prefer: value };
}

describe('count=exact', () => {
  it('reports the total in Content-Range and echoes the preference', async () => {
    const res = await api.get('/gadgets?select=id', prefer('count=exact'));
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-5/6');
    expect(res.headers['preference-applied']).toBe('count=exact');
  });

  it('is 206 Partial Content when the page is smaller than the total', async () => {
    const res = await api.get('/gadgets?select=id&order=id&limit=2', prefer('count=exact'));
    expectStatus(res, 206);
    expect(res.headers['content-range']).toBe('0-1/6');
    expect(res.json).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('counts after filtering', async () => {
    const res = await api.get('/gadgets?select=id&id=gt.4', prefer('count=exact'));
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-1/2');
  });

  it('reports */0 when nothing matches', async () => {
    const res = await api.get('/gadgets?select=id&id=gt.100', prefer('count=exact'));
    expectStatus(res, 200);
    expect(res.json).toEqual([]);
    expect(res.headers['content-range']).toBe('*/0');
  });

  it('reports the offset range with the total', async () => {
    const res = await api.get('/gadgets?select=id&order=id&limit=2&offset=2', prefer('count=exact'));
    expectStatus(res, 206);
    expect(res.headers['content-range']).toBe('2-3/6');
  });

  it('counts the rows an !inner embed keeps', async () => {
    const res = await api.get(
      '/authors?select=name,books!inner(title)&books.published_year=gt.1970',
      prefer('count=exact'),
    );
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-2/3');
  });

  it('counts the rows of a set-returning function', async () => {
    const res = await api.get('/rpc/books_by_author?author=1', prefer('count=exact'));
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-1/2');
  });

  it('counts a scalar function result as one row', async () => {
    const res = await api.get('/rpc/add?a=3&b=4', prefer('count=exact'));
    expectStatus(res, 200);
    expect(res.json).toBe(7);
    expect(res.headers['content-range']).toBe('0-0/1');
  });
});

describe('without a count', () => {
  it('reports the range with an unknown total (*)', async () => {
    const res = await api.get('/gadgets?select=id');
    expect(res.headers['content-range']).toBe('0-5/*');
    expect(res.headers['preference-applied']).toBeUndefined();
  });

  it('count=none is the same as no preference', async () => {
    const res = await api.get('/gadgets?select=id', prefer('count=none'));
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-5/*');
  });
});

describe('count=planned and count=estimated', () => {
  it('count=planned reports the planner estimate as the total', async () => {
    const res = await api.get('/gadgets?select=id', prefer('count=planned'));
    expect([200, 206]).toContain(res.status);
    expect(res.headers['content-range']).toMatch(/^0-5\/\d+$/);
    expect(res.headers['preference-applied']).toBe('count=planned');
  });

  // PostgREST (MainTx.hs) takes the planner's estimate whenever the exact count exceeds
  // db-max-rows, and an unset db-max-rows counts as below any count: without it, the total is
  // the larger of the exact count and the estimate (here the planner guesses a fresh table).
  it('count=estimated without db-max-rows is the larger of the exact count and the estimate', async () => {
    const planned = await api.get('/gadgets?select=id', prefer('count=planned'));
    const estimate = Number(planned.headers['content-range']?.split('/')[1]);
    const res = await api.get('/gadgets?select=id', prefer('count=estimated'));
    const total = Math.max(6, estimate);
    expectStatus(res, total > 6 ? 206 : 200);
    expect(res.headers['content-range']).toBe(`0-5/${total}`);
    expect(res.headers['preference-applied']).toBe('count=estimated');
  });
});

describe('HEAD', () => {
  it('returns the headers of the GET without a body', async () => {
    const res = await api.request('HEAD', '/gadgets?select=id');
    expectStatus(res, 200);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['content-range']).toBe('0-5/*');
  });

  it('combines with count=exact', async () => {
    const res = await api.request('HEAD', '/gadgets', { headers: prefer('count=exact') });
    expectStatus(res, 200);
    expect(res.text).toBe('');
    expect(res.headers['content-range']).toBe('0-5/6');
  });

  it('keeps 206 and the range with limit/offset', async () => {
    const res = await api.request('HEAD', '/gadgets?limit=3&offset=2', { headers: prefer('count=exact') });
    expectStatus(res, 206);
    expect(res.text).toBe('');
    expect(res.headers['content-range']).toBe('2-4/6');
  });

  it('works on a set-returning function', async () => {
    const res = await api.request('HEAD', '/rpc/all_books?limit=1', { headers: prefer('count=exact') });
    expectStatus(res, 206);
    expect(res.text).toBe('');
    expect(res.headers['content-range']).toBe('0-0/7');
  });

  it('reports errors with the same status as GET', async () => {
    const res = await api.request('HEAD', '/no_such_table');
    expect(res.status).toBe(404);
  });
});

describe('invalid count preference', () => {
  it('is ignored by default (handling=lenient)', async () => {
    const res = await api.get('/gadgets?select=id', prefer('count=bogus'));
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-5/*');
  });

  it('is 400 / PGRST122 with handling=strict', async () => {
    expectError(await api.get('/gadgets?select=id', prefer('handling=strict, count=bogus')), 400, {
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: count=bogus',
      hint: null,
    });
  });
});
