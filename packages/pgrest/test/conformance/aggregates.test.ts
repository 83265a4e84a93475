import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Conformance,
  JSON_CT,
  expectError,
  expectRows,
  expectStatus,
  startConformance,
  startVariant,
} from './helpers.js';

// Aggregate functions. Sources: PostgREST docs "Aggregate Functions" (avg, count, max, min,
// sum; automatic GROUP BY; aliases and casts; aggregates in embeds and spreads) and
// "db-aggregates-enabled"; test/spec/Feature/Query/AggregateFunctionsSpec.hs of PostgREST 14
// (the `allowed` and `disallowed` groups, transposed to this suite's fixtures);
// src/PostgREST/Plan.hs (hoisting of to-one spread aggregates; PostgREST 14 answers PGRST127 for
// aggregates in to-many spreads, which this engine groups instead).

let api: Conformance;
let disabled: Awaited<ReturnType<typeof startVariant>>;
beforeAll(async () => {
  api = await startConformance({ engine: { aggregates: true } });
  // PostgREST's default: db-aggregates-enabled = false.
  disabled = await startVariant(api, {});
});
afterAll(async () => {
  await disabled?.close();
  await api?.close();
});

describe('count() without a column', () => {
  it('counts every row when nothing else is selected', async () => {
    expect(expectRows(await api.get('/books?select=count()'))).toEqual([{ count: 7 }]);
  });

  it('takes an alias', async () => {
    expect(expectRows(await api.get('/books?select=cnt:count()'))).toEqual([{ cnt: 7 }]);
  });

  it('takes a cast of its result', async () => {
    expect(expectRows(await api.get('/books?select=count()::text'))).toEqual([{ count: '7' }]);
  });

  it('is grouped by the other selected columns', async () => {
    expect(expectRows(await api.get('/books?select=c:count(),author_id&order=author_id.desc'))).toEqual([
      { c: 1, author_id: null },
      { c: 1, author_id: 4 },
      { c: 1, author_id: 3 },
      { c: 2, author_id: 2 },
      { c: 2, author_id: 1 },
    ]);
  });

  it('applies after the filters', async () => {
    expect(expectRows(await api.get('/books?select=count()&price=gt.10'))).toEqual([{ count: 3 }]);
  });

  it('leaves the count of Prefer: count=exact to the filtered rows, as PostgREST does', async () => {
    const res = await api.get('/books?select=count()', { prefer: 'count=exact' });
    expectStatus(res, 206);
    expect(res.headers['content-range']).toBe('0-0/7');
    expect(res.json).toEqual([{ count: 7 }]);
  });

  it('is refused after a column name with PGRST100 (count() takes no column)', async () => {
    expectError(await api.get('/books?select=id.count(x)'), 400, { code: 'PGRST100' });
  });
});

describe('count used as a column (backwards compatibility)', () => {
  it('counts the rows when the relation has no count column', async () => {
    expect(expectRows(await api.get('/books?select=count'))).toEqual([{ count: 7 }]);
  });

  it('counts the rows of an embed', async () => {
    expect(expectRows(await api.get('/authors?select=name,books(count)&order=id'))).toEqual([
      { name: 'Ursula K. Le Guin', books: [{ count: 2 }] },
      { name: 'Stanislaw Lem', books: [{ count: 2 }] },
      { name: 'Octavia E. Butler', books: [{ count: 1 }] },
      { name: 'Italo Calvino', books: [{ count: 1 }] },
      { name: 'Anonymous', books: [{ count: 0 }] },
    ]);
  });

  it('works with aggregates disabled too (PostgreSQL reads t.count as count(t))', async () => {
    expect(expectRows(await disabled.request('GET', '/books?select=count'))).toEqual([{ count: 7 }]);
  });
});

describe('aggregates over a column', () => {
  it('supports sum(), avg(), max(), min() and count()', async () => {
    const res = await api.get('/books?select=price.sum(),price.avg(),price.max(),price.min(),price.count()');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    // numeric aggregates keep PostgreSQL's scale (avg's 16 digits, as PostgREST's 1100.0000000000000000).
    expect(res.text).toBe('[{"sum":57.50,"avg":11.5000000000000000,"max":14.00,"min":9.75,"count":5}]');
  });

  it('groups by every selected column without an aggregate', async () => {
    const res = await api.get('/books?select=price.sum(),price.max(),price.min(),publisher_id&order=publisher_id.desc');
    expect(expectRows(res)).toEqual([
      { sum: null, max: null, min: null, publisher_id: null },
      { sum: 33.75, max: 14, min: 9.75, publisher_id: 2 },
      { sum: 23.75, max: 12.5, min: 11.25, publisher_id: 1 },
    ]);
  });

  it('groups by aliased columns', async () => {
    const res = await api.get('/books?select=price.sum(),pid:publisher_id&publisher_id=not.is.null&order=publisher_id');
    expect(expectRows(res)).toEqual([
      { sum: 23.75, pid: 1 },
      { sum: 33.75, pid: 2 },
    ]);
  });

  it('takes an alias and a cast of the result', async () => {
    const res = await api.get(
      '/books?select=total:price.sum()::text,publisher_id&publisher_id=not.is.null&order=publisher_id',
    );
    expect(expectRows(res)).toEqual([
      { total: '23.75', publisher_id: 1 },
      { total: '33.75', publisher_id: 2 },
    ]);
  });

  it('takes a cast of its input, after a JSON path', async () => {
    expect(expectRows(await api.get('/gadgets?select=specs->size->>w::int.sum()'))).toEqual([{ sum: 40 }]);
  });

  it('combines an alias, an input cast and a result cast', async () => {
    expect(expectRows(await api.get('/gadgets?select=s:specs->size->>w::int.sum()::text'))).toEqual([{ s: '40' }]);
  });

  it('applies to the rows of a function returning a table', async () => {
    expect(expectRows(await api.get('/rpc/all_books?select=id.max()'))).toEqual([{ max: 7 }]);
  });

  it('applies to computed fields', async () => {
    expect(expectRows(await api.get('/books?select=title_upper.max()'))).toEqual([{ max: 'UNTITLED DRAFT' }]);
  });

  it('groups by a to-one embedded resource', async () => {
    const res = await api.get(
      '/books?select=author_id,total:price.sum(),authors(name)&author_id=not.is.null&order=author_id',
    );
    expect(expectRows(res)).toEqual([
      { author_id: 1, total: 26.5, authors: { name: 'Ursula K. Le Guin' } },
      { author_id: 2, total: 10, authors: { name: 'Stanislaw Lem' } },
      { author_id: 3, total: 11.25, authors: { name: 'Octavia E. Butler' } },
      { author_id: 4, total: 9.75, authors: { name: 'Italo Calvino' } },
    ]);
  });

  it('applies to the rows of a mutation returned with return=representation', async () => {
    const res = await api.request('POST', '/chores?select=count()', {
      headers: { prefer: 'return=representation' },
      body: [
        { id: 900, title: 'agg one' },
        { id: 901, title: 'agg two' },
      ],
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ count: 2 }]);
  });

  it('refuses an unknown column like any select (42703)', async () => {
    expectError(await api.get('/books?select=nope.sum()'), 400, { code: '42703' });
  });
});

describe('aggregates in embedded resources', () => {
  it('aggregates the rows of each parent', async () => {
    expect(expectRows(await api.get('/authors?select=name,books(price.sum())&order=id'))).toEqual([
      { name: 'Ursula K. Le Guin', books: [{ sum: 26.5 }] },
      { name: 'Stanislaw Lem', books: [{ sum: 10 }] },
      { name: 'Octavia E. Butler', books: [{ sum: 11.25 }] },
      { name: 'Italo Calvino', books: [{ sum: 9.75 }] },
      { name: 'Anonymous', books: [{ sum: null }] },
    ]);
  });

  it('supports every aggregate at once, with zero rows giving nulls and a zero count', async () => {
    const res = await api.get(
      '/authors?select=name,books(pages.max(),pages.min(),pages.avg(),pages.sum(),pages.count())&id=in.(3,5)&order=id',
    );
    expect(expectRows(res)).toEqual([
      { name: 'Octavia E. Butler', books: [{ max: 264, min: 264, avg: 264, sum: 264, count: 1 }] },
      { name: 'Anonymous', books: [{ max: null, min: null, avg: null, sum: null, count: 0 }] },
    ]);
  });

  it('counts through a many-to-many relationship', async () => {
    expect(expectRows(await api.get('/tags?select=name,books(count())&order=id'))).toEqual([
      { name: 'classic', books: [{ count: 3 }] },
      { name: 'scifi', books: [{ count: 5 }] },
      { name: 'fantasy', books: [{ count: 0 }] },
      { name: 'literary', books: [{ count: 1 }] },
      { name: 'unused', books: [{ count: 0 }] },
    ]);
  });
});

describe('aggregates on to-one spreads (hoisted to the parent)', () => {
  it('aggregate spread columns, grouped by the other spread columns', async () => {
    const res = await api.get(
      '/books?select=total:price.sum(),...authors(country,born:birth_year.max())&author_id=not.is.null&order=authors(country)',
    );
    expect(expectRows(res)).toEqual([
      { total: 9.75, country: 'IT', born: 1923 },
      { total: 10, country: 'PL', born: 1921 },
      { total: 37.75, country: 'US', born: 1947 },
    ]);
  });

  it('aggregate over every parent row when only aggregates are spread', async () => {
    expect(expectRows(await api.get('/books?select=...authors(total:birth_year.sum())'))).toEqual([{ total: 11570 }]);
  });

  it('are grouped by the columns of another spread', async () => {
    const res = await api.get(
      '/books?select=...publishers(publisher:name),...authors(youngest:birth_year.max())&publisher_id=not.is.null&order=publishers(name)',
    );
    expect(expectRows(res)).toEqual([
      { publisher: 'Ace', youngest: 1947 },
      { publisher: 'Harcourt', youngest: 1929 },
    ]);
  });

  it('are hoisted through nested spreads', async () => {
    const rows = expectRows(await api.get('/book_tags?select=...books(...authors(country),pages.sum())'));
    expect(rows).toHaveLength(3);
    expect(rows).toEqual(
      expect.arrayContaining([
        { country: 'US', sum: 1259 },
        { country: 'PL', sum: 703 },
        { country: 'IT', sum: 330 },
      ]),
    );
  });

  it('count() in a spread counts the parent rows that match, per group', async () => {
    const res = await api.get('/books?select=...authors(id,count())&author_id=not.is.null&order=authors(id)');
    expect(expectRows(res)).toEqual([
      { id: 1, count: 2 },
      { id: 2, count: 2 },
      { id: 3, count: 1 },
      { id: 4, count: 1 },
    ]);
  });

  it('count() in a nested spread is hoisted too', async () => {
    const res = await api.get('/book_tags?select=...books(author_id,...authors(count()))&order=books(author_id)');
    expect(expectRows(res)).toEqual([
      { author_id: 1, count: 3 },
      { author_id: 2, count: 3 },
      { author_id: 3, count: 1 },
      { author_id: 4, count: 2 },
    ]);
  });
});

describe('aggregates on to-many spreads', () => {
  // PostgREST 14 refuses these (PGRST127). Here the spread is grouped like an embed, and its
  // groups become its arrays, one entry per group, as its rows do without aggregates.
  it('aggregate over all related rows: one entry (null or 0 without rows)', async () => {
    const res = await api.get('/authors?select=name,...books(pages.sum(),count())&id=in.(1,5)&order=id');
    expect(expectRows(res)).toEqual([
      { name: 'Ursula K. Le Guin', sum: [691], count: [2] },
      { name: 'Anonymous', sum: [null], count: [0] },
    ]);
  });

  it('groups by the other columns, an entry per group, in the embed order', async () => {
    const res = await api.get(
      '/authors?select=name,...books(publisher_id,total:pages.sum())&id=eq.2&books.order=publisher_id.nullsfirst',
    );
    expect(expectRows(res)).toEqual([{ name: 'Stanislaw Lem', publisher_id: [null, 2], total: [295, 204] }]);
  });

  it('takes aggregates hoisted from a to-one spread inside it, and works through a junction', async () => {
    const hoisted = await api.get('/publishers?select=name,...books(...authors(count()))&id=eq.1');
    expect(expectRows(hoisted)).toEqual([{ name: 'Ace', count: [2] }]);
    const m2m = await api.get('/books?select=title,...tags(count())&id=eq.1');
    expect(expectRows(m2m)).toEqual([{ title: 'The Left Hand of Darkness', count: [2] }]);
  });

  it('a to-many spread without aggregates still works', async () => {
    const res = await api.get('/authors?select=name,...books(pages)&id=eq.3');
    expect(expectRows(res)).toEqual([{ name: 'Octavia E. Butler', pages: [264] }]);
  });
});

describe('aggregates disabled (db-aggregates-enabled = false, the default)', () => {
  const refused = {
    code: 'PGRST123',
    message: 'Use of aggregate functions is not allowed',
    details: null,
    hint: null,
  };

  it('refuses an aggregate at the top level', async () => {
    expectError(await disabled.request('GET', '/books?select=price.sum()'), 400, refused);
  });

  it('refuses an aggregate in an embedded resource', async () => {
    expectError(await disabled.request('GET', '/authors?select=name,books(price.sum())'), 400, refused);
  });

  it('refuses an aggregate on a to-one spread', async () => {
    expectError(await disabled.request('GET', '/books?select=...authors(id.count())'), 400, refused);
  });

  it('refuses an aggregate on a to-many spread', async () => {
    expectError(await disabled.request('GET', '/authors?select=...books(id.count())'), 400, refused);
  });

  it('answers an unknown embed first (PGRST200 before PGRST123)', async () => {
    expectError(await disabled.request('GET', '/books?select=nothing(count())'), 400, { code: 'PGRST200' });
  });
});
