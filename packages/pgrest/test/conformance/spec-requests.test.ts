import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Conformance,
  JSON_CT,
  expectError,
  expectRows,
  expectStatus,
  ids,
  startConformance,
  startVariant,
} from './helpers.js';

// Schema cache and request cases where the engine used to differ from PostgREST 14, each as
// PostgREST 14 behaves (its source and test-suite: SchemaCache.hs for partitions and identity
// sequences, Plan.hs and Query/SqlFragment.hs for orders, error order and ranges,
// ApiRequest/QueryParams.hs and RangeQuery.hs for limit/offset, MainTx.hs and
// Query/Statements.hs for counts, Query/QueryBuilder.hs for to-one joins; QuerySpec.hs
// "partitioned tables embedding", SpreadQueriesSpec.hs, AggregateFunctionsSpec.hs related
// orders). Fixtures are this suite's own (spec-requests-fixtures.sql).

const EXTRA_SQL = readFileSync(new URL('./spec-requests-fixtures.sql', import.meta.url), 'utf8');

let api: Conformance;
beforeAll(async () => {
  api = await startConformance({ extraSql: EXTRA_SQL });
});
afterAll(async () => {
  await api?.close();
});

const REP = { prefer: 'return=representation' };

describe('partitions are not relations of their own', () => {
  it('answers 404 PGRST205 for a partition', async () => {
    expectError(await api.get('/models_recent'), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.models_recent' in the schema cache",
      details: null,
      hint: null,
    });
    expectError(await api.request('POST', '/model_sales_other', { body: { quantity: 1 } }), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.model_sales_other' in the schema cache",
    });
  });

  it('reads and writes the partitioned table itself', async () => {
    expect(expectRows(await api.get('/models?select=name,year&order=name'))).toEqual([
      { name: 'Arrow', year: 2020 },
      { name: 'Bolt', year: 1999 },
      { name: 'Comet', year: 2021 },
    ]);
    const res = await api.request('POST', '/models?select=name,year', {
      headers: { ...REP, 'content-profile': 'test' },
      body: { name: 'Dart', year: 2021, maker_name: 'Zenith' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ name: 'Dart', year: 2021 }]);
    expectStatus(await api.request('DELETE', '/models?name=eq.Dart'), 204);
  });

  it('embeds a table as the parent of a partitioned table', async () => {
    expect(expectRows(await api.get('/models?select=name,makers(name)&order=name'))).toEqual([
      { name: 'Arrow', makers: { name: 'Acme' } },
      { name: 'Bolt', makers: { name: 'Acme' } },
      { name: 'Comet', makers: { name: 'Zenith' } },
    ]);
  });

  it('embeds a partitioned table as children of a table', async () => {
    expect(expectRows(await api.get('/makers?select=name,models(name)&order=name&models.order=name'))).toEqual([
      { name: 'Acme', models: [{ name: 'Arrow' }, { name: 'Bolt' }] },
      { name: 'Zenith', models: [{ name: 'Comet' }] },
    ]);
  });

  it('embeds partitioned tables into each other, both ways', async () => {
    expect(
      expectRows(await api.get('/models?select=name,model_sales(day,quantity)&order=name&model_sales.order=day')),
    ).toEqual([
      { name: 'Arrow', model_sales: [{ day: '2021-01-14', quantity: 7 }] },
      { name: 'Bolt', model_sales: [{ day: '2022-06-01', quantity: 1 }] },
      { name: 'Comet', model_sales: [{ day: '2021-02-11', quantity: 3 }] },
    ]);
    expect(expectRows(await api.get('/model_sales?select=day,models(name)&order=day'))).toEqual([
      { day: '2021-01-14', models: { name: 'Arrow' } },
      { day: '2021-02-11', models: { name: 'Comet' } },
      { day: '2022-06-01', models: { name: 'Bolt' } },
    ]);
  });

  it('embeds a partitioned table as the parent of a table', async () => {
    expect(expectRows(await api.get('/drivers?select=name,models(name,year)&order=name'))).toEqual([
      { name: 'Ines', models: { name: 'Comet', year: 2021 } },
      { name: 'Jon', models: null },
    ]);
  });

  it('finds one many-to-many relationship through a partitioned junction (not one per partition)', async () => {
    expect(expectRows(await api.get('/models?select=name,dealers(name,city)&order=name'))).toEqual([
      { name: 'Arrow', dealers: [{ name: 'Garage Rhone', city: 'Lyon' }] },
      { name: 'Bolt', dealers: [{ name: 'Garage Nord', city: 'Lille' }] },
      { name: 'Comet', dealers: [] },
    ]);
  });

  it('does not embed a partition as a child or as a parent (PGRST200)', async () => {
    expectError(await api.get('/models?select=name,model_sales_2021q1(day)'), 400, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'models' and 'model_sales_2021q1' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'models' and 'model_sales_2021q1' in the schema 'test', but no matches were found.",
      hint: "Perhaps you meant 'model_sales' instead of 'model_sales_2021q1'.",
    });
    expectError(await api.get('/model_sales?select=day,models_other(name)'), 400, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'model_sales' and 'models_other' in the schema cache",
      hint: "Perhaps you meant 'models' instead of 'models_other'.",
    });
  });
});

describe('full-text search on a domain over tsvector', () => {
  const memoIds = async (filter: string): Promise<unknown[]> =>
    ids(await api.get(`/memos?select=id&order=id&${filter}`));

  for (const column of ['vec', 'deep_vec']) {
    it(`applies fts, plfts, phfts and wfts to ${column} as to a tsvector`, async () => {
      expect(await memoIds(`${column}=fts.cat`)).toEqual([1]);
      expect(await memoIds(`${column}=fts(english).fat %26 cat`)).toEqual([1]);
      expect(await memoIds(`${column}=plfts.lean dog`)).toEqual([2]);
      expect(await memoIds(`${column}=phfts(english).dogs ran`)).toEqual([2]);
      expect(await memoIds(`${column}=wfts.cat or dog`)).toEqual([1, 2]);
      expect(await memoIds(`${column}=wfts(french).chat`)).toEqual([3]);
      expect(await memoIds(`${column}=not.fts.cat`)).toEqual([2, 3]);
    });
  }
});

describe('order= orders the rows a write returns', () => {
  it('POST', async () => {
    const res = await api.request('POST', '/queue?select=id,rank&order=rank.desc', {
      headers: REP,
      body: [
        { id: 10, label: 'x', rank: 1 },
        { id: 11, label: 'y', rank: 9 },
        { id: 12, label: 'z', rank: 5 },
      ],
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([
      { id: 11, rank: 9 },
      { id: 12, rank: 5 },
      { id: 10, rank: 1 },
    ]);
  });

  it('PATCH', async () => {
    const res = await api.request('PATCH', '/queue?id=in.(10,11,12)&select=id,label&order=label.desc', {
      headers: REP,
      body: { label: 'moved' },
    });
    expectStatus(res, 200);
    expect(ids(res)).toHaveLength(3);
    const ordered = await api.request('PATCH', '/queue?id=in.(10,11,12)&select=id&order=id.desc', {
      headers: REP,
      body: { rank: 0 },
    });
    expect(ids(ordered)).toEqual([12, 11, 10]);
  });

  it('DELETE', async () => {
    const res = await api.request('DELETE', '/queue?id=in.(10,11,12)&select=id&order=id.desc', { headers: REP });
    expectStatus(res, 200);
    expect(ids(res)).toEqual([12, 11, 10]);
  });

  it('PUT, and by a related to-one column', async () => {
    const put = await api.request('PUT', '/queue?id=eq.13&order=rank', {
      headers: REP,
      body: { id: 13, label: 'echo', rank: 4, owner_id: 2 },
    });
    expectStatus(put, 201);
    expect(ids(put)).toEqual([13]);
    const res = await api.request('PATCH', '/queue?id=in.(1,2,3,13)&select=id,users(name)&order=users(name).desc,id', {
      headers: REP,
      body: { rank: 7 },
    });
    expect(expectRows(res)).toEqual([
      { id: 3, users: { name: 'carol' } },
      { id: 2, users: { name: 'bob' } },
      { id: 13, users: { name: 'bob' } },
      { id: 1, users: { name: 'alice' } },
    ]);
  });
});

describe('errors PostgREST finds while planning come before unknown columns (42703)', () => {
  it('PGRST105 for a PUT whose filters are not the primary key', async () => {
    expectError(
      await api.request('PUT', '/queue?label=eq.alpha&select=no_such_column', { body: { id: 1, label: 'a' } }),
      405,
      { code: 'PGRST105', message: "Filters must include all and only primary key columns with 'eq' operators" },
    );
    expectError(await api.request('PUT', '/book_summaries?no_such_column=eq.1', { body: { id: 1, title: 'x' } }), 405, {
      code: 'PGRST105',
    });
  });

  it('PGRST200 for an unknown embed', async () => {
    expectError(await api.get('/books?select=no_such_column,no_such_relation(*)'), 400, { code: 'PGRST200' });
  });

  it('PGRST118 for a related order on a to-many embed', async () => {
    expectError(await api.get('/authors?select=no_such_column,books(id)&order=books(id)'), 400, {
      code: 'PGRST118',
      message: "A related order on 'books' is not possible",
    });
  });

  it('PGRST108 for a parameter on a resource that is not embedded', async () => {
    expectError(await api.get('/authors?select=no_such_column&books.order=id'), 400, { code: 'PGRST108' });
  });

  it('PGRST123 for an aggregate while they are disabled', async () => {
    expectError(await api.get('/books?select=no_such_column,pages.sum()'), 400, { code: 'PGRST123' });
  });

  it('PGRST204 for an unknown column in a write body', async () => {
    expectError(
      await api.request('POST', '/queue?select=no_such_column', {
        body: { id: 20, label: 'x', rank: 1, colour: 'red' },
      }),
      400,
      { code: 'PGRST204', message: "Could not find the 'colour' column of 'queue' in the schema cache" },
    );
  });

  it('PGRST107 for an Accept nothing can produce', async () => {
    expectError(await api.get('/authors?select=no_such_column', { accept: 'application/xml' }), 406, {
      code: 'PGRST107',
    });
    expectError(await api.get('/rpc/all_books?select=no_such_column', { accept: 'application/xml' }), 406, {
      code: 'PGRST107',
    });
  });

  it('PGRST122 for an unknown preference with handling=strict', async () => {
    expectError(
      await api.get('/authors?select=no_such_column&order=also_missing', { prefer: 'handling=strict, color=red' }),
      400,
      { code: 'PGRST122' },
    );
    expectError(
      await api.request('PATCH', '/queue?id=eq.1&no_such_column=eq.1', {
        headers: { prefer: 'handling=strict, color=red' },
        body: { rank: 1 },
      }),
      400,
      { code: 'PGRST122' },
    );
  });

  it('then 42703 for the first unknown column, or 42704 for an unknown type', async () => {
    expectError(await api.get('/authors?select=no_such_column,name&order=also_missing'), 400, {
      code: '42703',
      message: 'column authors.no_such_column does not exist',
    });
    expectError(await api.get('/authors?select=name::no_such_type'), 400, {
      code: '42704',
      message: 'type "no_such_type" does not exist',
    });
    expectError(await api.request('PATCH', '/queue?no_such_column=eq.1', { body: { rank: 1 } }), 400, {
      code: '42703',
      message: 'column queue.no_such_column does not exist',
    });
    expectError(
      await api.request('POST', '/queue?on_conflict=no_such_column', {
        headers: { prefer: 'resolution=merge-duplicates' },
        body: { id: 1, label: 'alpha', rank: 3 },
      }),
      400,
      { code: '42703' },
    );
  });
});

describe('relations and functions named outside ASCII', () => {
  it('reads them, with a percent-encoded Content-Location', async () => {
    const res = await api.get('/gr%C3%B6%C3%9Fe?select=id,maß&order=id');
    expect(expectRows(res)).toEqual([
      { id: 1, maß: 'klein' },
      { id: 2, maß: 'groß' },
    ]);
    expect(res.headers['content-location']).toBe('/gr%C3%B6%C3%9Fe?order=id&select=id%2Cma%C3%9F');
    const raw = await api.get('/商品');
    expectStatus(raw, 200);
    expect(raw.headers['content-location']).toBe('/%E5%95%86%E5%93%81');
  });

  it('embeds them', async () => {
    expect(expectRows(await api.get('/商品?select=名前,größe(maß)&order=id'))).toEqual([
      { 名前: '茶', größe: { maß: 'klein' } },
      { 名前: '米', größe: { maß: 'groß' } },
    ]);
  });

  it('writes them, with a percent-encoded Location', async () => {
    const res = await api.request('POST', '/gr%C3%B6%C3%9Fe', {
      headers: { prefer: 'return=headers-only' },
      body: { id: 3, maß: 'mittel' },
    });
    expectStatus(res, 201);
    expect(res.headers.location).toBe('/gr%C3%B6%C3%9Fe?id=eq.3');
  });

  it('calls them', async () => {
    const res = await api.get('/rpc/gr%C3%BC%C3%9Fe?name=Lee');
    expectStatus(res, 200);
    expect(res.json).toBe('Grüß Gott, Lee');
    expect(expectRows(await api.get('/rpc/全商品?select=名前'))).toEqual([{ 名前: '茶' }, { 名前: '米' }]);
  });

  it('every header value is printable ASCII', async () => {
    for (const path of ['/größe?select=maß', '/商品', '/rpc/全商品', '/rpc/grüße?name=x']) {
      const res = await api.get(path);
      for (const value of Object.values(res.headers)) expect(value).toMatch(/^[\x20-\x7e]*$/);
    }
  });
});

describe('related orders name the outputs of the embed, aliases included', () => {
  it('orders a to-many embed by an alias defined inside a to-one spread', async () => {
    const res = await api.get(
      '/publishers?select=name,books(title,...authors(author:name))&id=eq.2&books.order=authors(author).desc',
    );
    expect(expectRows(res)).toEqual([
      {
        name: 'Harcourt',
        books: [
          { title: 'The Dispossessed', author: 'Ursula K. Le Guin' },
          { title: 'Solaris', author: 'Stanislaw Lem' },
          { title: 'Invisible Cities', author: 'Italo Calvino' },
        ],
      },
    ]);
  });

  it('orders the top level by an alias of a to-one spread and of a to-one embed', async () => {
    expect(
      ids(await api.get('/books?select=id,...authors(author:name)&author_id=not.is.null&order=authors(author),id')),
    ).toEqual([6, 5, 3, 4, 1, 2]);
    expect(
      ids(await api.get('/books?select=id,writer:authors(who:name)&author_id=not.is.null&order=writer(who).desc,id')),
    ).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('orders by the aliased value, cast included', async () => {
    expect(ids(await api.get('/parcels?select=id,...weights(g:grams::text)&order=weights(g)'))).toEqual([2, 3, 1]);
    expect(ids(await api.get('/parcels?select=id,...weights(g:grams)&order=weights(g)'))).toEqual([1, 2, 3]);
  });
});

describe('Prefer: count=estimated', () => {
  it('without db-max-rows: the larger of the exact count and the estimate', async () => {
    const over = await api.request('HEAD', '/overestimated', { headers: { prefer: 'count=estimated' } });
    expectStatus(over, 206);
    expect(over.headers['content-range']).toBe('0-2/5000');
    const under = await api.request('HEAD', '/underestimated', { headers: { prefer: 'count=estimated' } });
    expectStatus(under, 200);
    expect(under.headers['content-range']).toBe('0-39/40');
  });

  it('with db-max-rows: exact up to it, beyond it the larger of the estimate and max-rows + 1', async () => {
    const limited = await startVariant(api, { maxRows: 10 });
    try {
      const over = await limited.request('HEAD', '/overestimated', { headers: { prefer: 'count=estimated' } });
      expectStatus(over, 200);
      expect(over.headers['content-range']).toBe('0-2/3');
      const under = await limited.request('HEAD', '/underestimated', { headers: { prefer: 'count=estimated' } });
      expectStatus(under, 206);
      expect(under.headers['content-range']).toBe('0-9/11');
    } finally {
      await limited.close();
    }
  });

  it('counts a function call exactly, and gives no total for count=planned on one', async () => {
    const estimated = await api.get('/rpc/all_books?select=id&limit=2', { prefer: 'count=estimated' });
    expectStatus(estimated, 206);
    expect(estimated.headers['content-range']).toBe('0-1/7');
    expect(estimated.headers['preference-applied']).toBe('count=estimated');
    const planned = await api.get('/rpc/all_books?select=id&limit=2', { prefer: 'count=planned' });
    expectStatus(planned, 200);
    expect(planned.headers['content-range']).toBe('0-1/*');
    expect(planned.headers['preference-applied']).toBe('count=planned');
  });
});

describe('a computed relationship declared ROWS 1 that returns several rows', () => {
  // PostgREST joins a to-one embed (LEFT JOIN LATERAL … ON TRUE): each row the function returns
  // gives the parent row once more.
  it('repeats the parent row for each of its rows', async () => {
    expect(expectRows(await api.get('/videogames?select=id,every_designer(name)&id=eq.1'))).toEqual([
      { id: 1, every_designer: { name: 'Sid Meier' } },
      { id: 1, every_designer: { name: 'Hironobu Sakaguchi' } },
    ]);
    expect(expectRows(await api.get('/videogames?select=id,...every_designer(designer:name)&id=eq.2'))).toEqual([
      { id: 2, designer: 'Sid Meier' },
      { id: 2, designer: 'Hironobu Sakaguchi' },
    ]);
  });

  it('also inside a to-many embed and in the rows a write returns', async () => {
    expect(
      expectRows(
        await api.get(
          '/designers?select=name,computed_videogames(id,every_designer(id))&id=eq.2&computed_videogames.order=id',
        ),
      ),
    ).toEqual([
      {
        name: 'Hironobu Sakaguchi',
        computed_videogames: [
          { id: 3, every_designer: { id: 1 } },
          { id: 3, every_designer: { id: 2 } },
          { id: 4, every_designer: { id: 1 } },
          { id: 4, every_designer: { id: 2 } },
        ],
      },
    ]);
    const res = await api.request('PATCH', '/videogames?id=eq.3&select=id,every_designer(id)', {
      headers: REP,
      body: { name: 'Final Fantasy I' },
    });
    expect(expectRows(res)).toEqual([
      { id: 3, every_designer: { id: 1 } },
      { id: 3, every_designer: { id: 2 } },
    ]);
  });
});

describe('limit and offset that are not non-negative integers', () => {
  const bookIds = async (query: string, headers: Record<string, string> = {}): Promise<unknown[]> =>
    ids(await api.get(`/books?select=id&order=id&${query}`, headers));

  it('ignores values that are no integer, as PostgREST does', async () => {
    for (const value of ['abc', '1.5', '1e30', '+1', '', '1 2', '0x']) {
      expect(await bookIds(`limit=${encodeURIComponent(value)}`), `limit=${value}`).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await bookIds(`offset=${encodeURIComponent(value)}`), `offset=${value}`).toEqual([1, 2, 3, 4, 5, 6, 7]);
    }
  });

  it('reads integers as Haskell does: spaces, parentheses, hexadecimal and octal', async () => {
    expect(await bookIds('limit=%202%20')).toEqual([1, 2]);
    expect(await bookIds('limit=(2)')).toEqual([1, 2]);
    expect(await bookIds('limit=0x2&offset=0o3')).toEqual([4, 5]);
  });

  it('never returns rows for an offset past the end, however large', async () => {
    const res = await api.get('/books?select=id&offset=9007199254740993');
    expect(expectRows(res)).toEqual([]);
    expect(res.headers['content-range']).toBe('*/*');
    expectError(await api.get('/books?select=id&offset=9007199254740993', { prefer: 'count=exact' }), 416, {
      code: 'PGRST103',
      details: 'An offset of 9007199254740993 was requested, but there are only 7 rows.',
    });
    expect(
      expectRows(await api.get('/books?select=id', { 'range-unit': 'items', range: '9007199254740993-' })),
    ).toEqual([]);
  });

  it('takes a limit beyond any table as no limit', async () => {
    expect(await bookIds('limit=9007199254740993')).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('leaves values beyond bigint to PostgreSQL, which refuses them (400, 22003)', async () => {
    expectError(await api.get('/books?select=id&offset=99999999999999999999'), 400, {
      code: '22003',
      message: 'value "99999999999999999999" is out of range for type bigint',
    });
    expectError(await api.get('/books?select=id&limit=99999999999999999999'), 400, { code: '22003' });
  });

  // PostgREST intersects rows offset..offset+limit-1 with rows 0.. (RangeQuery.hs, getRanges).
  it('clips a negative top-level offset at the first row, as PostgREST intersects ranges', async () => {
    expect(await bookIds('offset=-4')).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await bookIds('offset=-2&limit=5')).toEqual([1, 2, 3]);
    // The last row asked for is -1, which PostgREST takes for limit=0: no rows.
    expect(await bookIds('offset=-2&limit=2')).toEqual([]);
  });

  it('refuses a range with no rows other than limit=0 (416)', async () => {
    for (const query of ['limit=-1', 'offset=-3&limit=2', 'offset=5&limit=0']) {
      expectError(await api.get(`/books?select=id&${query}`), 416, {
        code: 'PGRST103',
        details: 'Limit should be greater than or equal to zero.',
      });
    }
    expect(await bookIds('limit=0')).toEqual([]);
  });

  it('in an embed: ignores what is no integer, PostgreSQL refuses negative values', async () => {
    expect(expectRows(await api.get('/authors?select=id,books(id)&id=eq.1&books.order=id&books.limit=abc'))).toEqual([
      { id: 1, books: [{ id: 1 }, { id: 2 }] },
    ]);
    expectError(await api.get('/authors?select=id,books(id)&books.offset=-1'), 400, {
      code: '2201X',
      message: 'OFFSET must not be negative',
    });
    expectError(await api.get('/authors?select=id,books(id)&books.limit=-1'), 400, {
      code: '2201W',
      message: 'LIMIT must not be negative',
    });
  });

  it('PATCH and DELETE with an offset past the end change nothing', async () => {
    const patch = await api.request('PATCH', '/queue?order=id&limit=1&offset=9007199254740993', {
      headers: REP,
      body: { label: 'never' },
    });
    expect(expectRows(patch)).toEqual([]);
    const remove = await api.request('DELETE', '/queue?order=id&limit=1&offset=9007199254740993', { headers: REP });
    expect(expectRows(remove)).toEqual([]);
  });
});

describe('bodies given whole to a function', () => {
  const octets = (bytes: number[]): Uint8Array => Uint8Array.from(bytes);

  it('passes a binary body to a bytea parameter byte for byte', async () => {
    const every = Array.from({ length: 256 }, (_, index) => index);
    const res = await api.request('POST', '/rpc/blob_hex', {
      headers: { 'content-type': 'application/octet-stream' },
      body: octets(every),
    });
    expectStatus(res, 200);
    expect(res.json).toBe(Buffer.from(every).toString('hex'));
    const invalidUtf8 = await api.request('POST', '/rpc/blob_hex', {
      headers: { 'content-type': 'application/octet-stream' },
      body: octets([0xff, 0xfe, 0x00, 0xc3, 0x28]),
    });
    expect(invalidUtf8.json).toBe('fffe00c328');
    const empty = await api.request('POST', '/rpc/blob_hex', {
      headers: { 'content-type': 'application/octet-stream' },
      body: octets([]),
    });
    expect(empty.json).toBe('');
  });

  it('reads a text body as UTF-8, and lets PostgreSQL refuse bytes that are not (22021)', async () => {
    const res = await api.request('POST', '/rpc/text_length', {
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from('größe', 'utf8'),
    });
    expectStatus(res, 200);
    expect(res.json).toBe(5);
    expectError(
      await api.request('POST', '/rpc/text_length', {
        headers: { 'content-type': 'text/plain' },
        body: octets([0x61, 0xff, 0x62]),
      }),
      400,
      { code: '22021', message: 'invalid byte sequence for encoding "UTF8": 0xff' },
    );
  });

  it('refuses JSON, CSV and form bodies that are not UTF-8 (PGRST102)', async () => {
    const bad = octets([0x7b, 0x22, 0x6c, 0x61, 0x62, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    expectError(
      await api.request('PATCH', '/queue?id=eq.1', { headers: { 'content-type': 'application/json' }, body: bad }),
      400,
      { code: 'PGRST102', message: 'Empty or invalid json' },
    );
    expectError(
      await api.request('POST', '/rpc/add', { headers: { 'content-type': 'application/json' }, body: bad }),
      400,
      { code: 'PGRST102', message: 'Empty or invalid json' },
    );
    expectError(
      await api.request('POST', '/queue', {
        headers: { 'content-type': 'text/csv' },
        body: Buffer.concat([Buffer.from('id,label,rank\n30,'), octets([0xff]), Buffer.from(',1')]),
      }),
      400,
      { code: 'PGRST102', message: 'The request body is not valid UTF-8' },
    );
  });

  it('reads a JSON body given as bytes', async () => {
    const res = await api.request('PATCH', '/queue?id=eq.4&select=label', {
      headers: { ...REP, 'content-type': 'application/json' },
      body: Buffer.from('{"label":"δέλτα"}', 'utf8'),
    });
    expect(expectRows(res)).toEqual([{ label: 'δέλτα' }]);
    expect(res.headers['content-type']).toBe(JSON_CT);
  });
});
