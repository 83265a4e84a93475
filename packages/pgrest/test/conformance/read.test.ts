import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Conformance, JSON_CT, expectError, expectRows, startConformance } from './helpers.js';

// Vertical filtering (select), aliases, casts and JSON paths.
// Sources: PostgREST docs "Tables and Views > Vertical Filtering", "JSON Columns", "Casting";
// test/spec/Feature/Query/QuerySpec.hs ("Shaping response with select parameter",
// "empty root select"), JsonOperatorSpec.hs.

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

describe('reading a table', () => {
  it('returns every column of every row as a JSON array with Content-Range', async () => {
    const res = await api.get('/authors?id=eq.1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['content-range']).toBe('0-0/*');
    expect(res.json).toEqual([{ id: 1, name: 'Ursula K. Le Guin', birth_year: 1929, country: 'US' }]);
  });

  it('returns an empty array (not 404) when nothing matches', async () => {
    const res = await api.get('/authors?id=eq.999');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
    expect(res.headers['content-range']).toBe('*/*');
  });

  it('serialises PostgreSQL types the way PostgREST does (json_agg of the rows)', async () => {
    const rows = expectRows(await api.get('/gadgets?id=eq.1'));
    expect(rows).toEqual([
      {
        id: 1,
        name: 'Widget',
        price: 9.99,
        qty: 10,
        active: true,
        tags: ['tools', 'home'],
        dims: '[1,5)',
        mood: 'happy',
        specs: { color: 'red', size: { w: 10, h: 5 }, ports: [1, 2] },
        description: 'A small widget for the home',
        doc: "'home':6 'small':2 'widget':3",
        made_at: '2024-01-15T10:00:00',
      },
    ]);
  });

  it('reads a view like a table', async () => {
    const rows = expectRows(await api.get('/book_summaries?id=eq.3'));
    expect(rows).toEqual([{ id: 3, title: 'Solaris', author_id: 2, published_year: 1961 }]);
  });

  it('sets Content-Location to the path (no query string when there are no parameters)', async () => {
    const res = await api.get('/publishers');
    expect(res.headers['content-location']).toBe('/publishers');
  });

  it('sets Content-Location with the query parameters sorted alphabetically', async () => {
    const res = await api.get('/publishers?name=eq.Ace&id=eq.1');
    expect(res.json).toEqual([{ id: 1, name: 'Ace' }]);
    expect(res.headers['content-location']).toBe('/publishers?id=eq.1&name=eq.Ace');
  });
});

describe('select: columns', () => {
  it('select=* returns all columns', async () => {
    const rows = expectRows(await api.get('/publishers?select=*&id=eq.2'));
    expect(rows).toEqual([{ id: 2, name: 'Harcourt' }]);
  });

  it('an empty select= returns all columns', async () => {
    const rows = expectRows(await api.get('/publishers?select=&id=eq.2'));
    expect(rows).toEqual([{ id: 2, name: 'Harcourt' }]);
  });

  it('returns only the listed columns', async () => {
    const rows = expectRows(await api.get('/authors?select=name,country&id=in.(1,2)&order=id'));
    expect(rows).toEqual([
      { name: 'Ursula K. Le Guin', country: 'US' },
      { name: 'Stanislaw Lem', country: 'PL' },
    ]);
  });

  it('ignores whitespace around the listed columns', async () => {
    const rows = expectRows(await api.get('/authors?select=id, name&id=eq.4'));
    expect(rows).toEqual([{ id: 4, name: 'Italo Calvino' }]);
  });

  it('can select the same column twice under different aliases', async () => {
    const rows = expectRows(await api.get('/authors?select=id,a:name,b:name&id=eq.4'));
    expect(rows).toEqual([{ id: 4, a: 'Italo Calvino', b: 'Italo Calvino' }]);
  });

  it('fails with 400 / 42703 for a column that does not exist', async () => {
    expectError(await api.get('/authors?select=id,nope'), 400, {
      code: '42703',
      message: 'column authors.nope does not exist',
      details: null,
    });
  });
});

describe('select: aliases', () => {
  it('renames a column with alias:column', async () => {
    const rows = expectRows(await api.get('/authors?select=author:name,born:birth_year&id=eq.2'));
    expect(rows).toEqual([{ author: 'Stanislaw Lem', born: 1921 }]);
  });

  it('fails to parse an alias without a column', async () => {
    const body = expectError(await api.get('/authors?select=author:'), 400, { code: 'PGRST100' });
    expect(body.message).toMatch(/^"failed to parse select parameter \(author:\)" \(line 1, column \d+\)$/);
  });
});

describe('select: casts', () => {
  it('casts a column with ::type', async () => {
    const rows = expectRows(await api.get('/authors?select=id::text,birth_year::text&id=eq.1'));
    expect(rows).toEqual([{ id: '1', birth_year: '1929' }]);
  });

  it('combines alias and cast', async () => {
    const rows = expectRows(await api.get('/books?select=cost:price::text&id=eq.1'));
    expect(rows).toEqual([{ cost: '12.50' }]);
  });

  it('fails with 400 / 42704 for an unknown type', async () => {
    expectError(await api.get('/authors?select=id::fakecolumntype'), 400, {
      code: '42704',
      message: 'type "fakecolumntype" does not exist',
      details: null,
      hint: null,
    });
  });

  it('fails to parse a cast without a type', async () => {
    const body = expectError(await api.get('/authors?select=id::'), 400, { code: 'PGRST100' });
    expect(body.message).toMatch(/^"failed to parse select parameter \(id::\)" \(line 1, column \d+\)$/);
  });
});

describe('select: JSON paths', () => {
  it('->> extracts text and names the field after the last key', async () => {
    const rows = expectRows(await api.get('/gadgets?select=id,specs->>color&id=in.(1,2)&order=id'));
    expect(rows).toEqual([
      { id: 1, color: 'red' },
      { id: 2, color: 'blue' },
    ]);
  });

  it('-> keeps JSON values', async () => {
    const rows = expectRows(await api.get('/gadgets?select=specs->size&id=eq.2'));
    expect(rows).toEqual([{ size: { w: 20, h: 8 } }]);
  });

  it('follows nested keys and returns text with a final ->>', async () => {
    const rows = expectRows(await api.get('/gadgets?select=specs->size->>w&id=eq.1'));
    expect(rows).toEqual([{ w: '10' }]);
  });

  it('can cast the extracted value', async () => {
    const rows = expectRows(await api.get('/gadgets?select=specs->size->>w::int&id=eq.1'));
    expect(rows).toEqual([{ w: 10 }]);
  });

  it('can alias the extracted value', async () => {
    const rows = expectRows(await api.get('/gadgets?select=colour:specs->>color&id=eq.5'));
    expect(rows).toEqual([{ colour: 'green' }]);
  });

  it('treats numbers as array indexes and names the field after the last key', async () => {
    expect(expectRows(await api.get('/gadgets?select=specs->ports->0&id=eq.1'))).toEqual([{ ports: 1 }]);
    expect(expectRows(await api.get('/gadgets?select=specs->ports->>1&id=eq.1'))).toEqual([{ ports: '2' }]);
  });

  it('supports negative array indexes', async () => {
    const rows = expectRows(await api.get('/gadgets?select=last:specs->ports->-1&id=eq.1'));
    expect(rows).toEqual([{ last: 2 }]);
  });

  it('returns null for a key that is absent', async () => {
    const rows = expectRows(await api.get('/gadgets?select=id,specs->>weight&id=eq.3'));
    expect(rows).toEqual([{ id: 3, weight: null }]);
  });

  it('accesses array columns with arrows like JSON', async () => {
    const rows = expectRows(await api.get('/gadgets?select=first_tag:tags->>0,second:tags->1&id=eq.1'));
    expect(rows).toEqual([{ first_tag: 'tools', second: 'home' }]);
  });

  it('fails with 400 / 22P02 when the cast of an extracted value fails', async () => {
    expectError(await api.get('/gadgets?select=specs->>color::int&id=eq.1'), 400, {
      code: '22P02',
      message: 'invalid input syntax for type integer: "red"',
    });
  });

  it('fails with 404 / 42883 when ->> is followed by -> (text has no -> operator)', async () => {
    expectError(await api.get('/gadgets?select=specs->>color->1'), 404, {
      code: '42883',
      message: 'operator does not exist: text -> integer',
      hint: 'No operator matches the given name and argument types. You might need to add explicit type casts.',
    });
  });

  it('fails to parse a malformed negative index (PostgREST parser message)', async () => {
    expectError(await api.get('/gadgets?select=specs->>--34'), 400, {
      code: 'PGRST100',
      message: '"failed to parse select parameter (specs->>--34)" (line 1, column 10)',
      details: 'unexpected "-" expecting digit',
      hint: null,
    });
  });
});

describe('computed fields', () => {
  // PostgREST docs "Computed Fields": a function taking the table's row type is selectable,
  // filterable and orderable like a column, but is not part of *.
  it('selects a computed field by name', async () => {
    const rows = expectRows(await api.get('/books?select=id,title_upper&id=eq.3'));
    expect(rows).toEqual([{ id: 3, title_upper: 'SOLARIS' }]);
  });

  it('filters on a computed field', async () => {
    const rows = expectRows(await api.get('/books?select=id&title_upper=eq.KINDRED'));
    expect(rows).toEqual([{ id: 5 }]);
  });

  it('orders by a computed field', async () => {
    const rows = expectRows(await api.get('/books?select=id&id=lte.3&order=title_upper.asc'));
    expect(rows).toEqual([{ id: 3 }, { id: 2 }, { id: 1 }]);
  });

  it('leaves computed fields out of *', async () => {
    const rows = expectRows(await api.get('/books?select=*&id=eq.3'));
    expect(Object.keys(rows[0] ?? {})).not.toContain('title_upper');
  });

  it('selects a computed field inside an embed', async () => {
    const rows = expectRows(await api.get('/authors?select=name,books(title_upper)&id=eq.2&books.order=id'));
    expect(rows).toEqual([
      { name: 'Stanislaw Lem', books: [{ title_upper: 'SOLARIS' }, { title_upper: 'THE CYBERIAD' }] },
    ]);
  });
});

describe('OPTIONS', () => {
  // src/PostgREST/Response.hs: 200, no body, Allow lists the methods the relation supports
  // (PUT needs a primary key) and functions (volatile ones only accept POST).
  it('lists every method for a table with a primary key', async () => {
    const res = await api.request('OPTIONS', '/authors');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.allow).toBe('OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE');
  });

  it('leaves PUT out for a table without a primary key', async () => {
    const res = await api.request('OPTIONS', '/logbook');
    expect(res.headers.allow).toBe('OPTIONS,GET,HEAD,POST,PATCH,DELETE');
  });

  it('lists GET, HEAD and POST for a stable or immutable function', async () => {
    const res = await api.request('OPTIONS', '/rpc/add');
    expect(res.status).toBe(200);
    expect(res.headers.allow).toBe('OPTIONS,GET,HEAD,POST');
  });

  it('lists only POST for a volatile function', async () => {
    const res = await api.request('OPTIONS', '/rpc/add_tag');
    expect(res.headers.allow).toBe('OPTIONS,POST');
  });

  it('is 404 / PGRST205 for an unknown table', async () => {
    expectError(await api.request('OPTIONS', '/zzz_unknown'), 404, { code: 'PGRST205' });
  });
});
