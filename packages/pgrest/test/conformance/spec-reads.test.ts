import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Conformance,
  CSV_CT,
  JSON_CT,
  OBJECT_CT,
  SINGULAR,
  expectError,
  expectRows,
  expectStatus,
  ids,
  rangeHeaders,
  startConformance,
  startVariant,
} from './helpers.js';

// Reads and filters transposed from PostgREST 14's own test-suite, on this suite's fixtures:
// test/spec/Feature/Query/QuerySpec.hs, AndOrParamsSpec.hs, JsonOperatorSpec.hs, RangeSpec.hs,
// SingularSpec.hs, NullsStripSpec.hs and UnicodeSpec.hs. Cases already covered by the other
// conformance files are not repeated. Expected rows were checked against the fixture rows with
// the SQL PostgREST generates for each filter.

const EXTRA_SQL = readFileSync(new URL('./spec-reads-fixtures.sql', import.meta.url), 'utf8');

let api: Conformance;
beforeAll(async () => {
  api = await startConformance({ extraSql: EXTRA_SQL });
});
afterAll(async () => {
  await api?.close();
});

/** The `id`s a GET returns (200, JSON array). */
async function idsOf(pathAndQuery: string, headers?: Record<string, string>): Promise<unknown[]> {
  const res = await api.get(pathAndQuery, headers);
  expectStatus(res, 200);
  return ids(res);
}

describe('QuerySpec: columns named like SQL words or internal aliases', () => {
  it('reads a table with a column called count', async () => {
    expect(expectRows(await api.get('/tally'))).toEqual([{ id: 1, count: 10, t: 'x', t0: 'y' }]);
  });

  it('selects a column called t (or t0) without clashing with the table alias', async () => {
    expect(expectRows(await api.get('/tally?select=t'))).toEqual([{ t: 'x' }]);
    expect(expectRows(await api.get('/tally?select=t0,t'))).toEqual([{ t0: 'y', t: 'x' }]);
  });
});

describe('QuerySpec: filtering', () => {
  it('negates eq and reports the range', async () => {
    const res = await api.get('/numbered?id=not.eq.5&order=id');
    expect(ids(res)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(res.headers['content-range']).toBe('0-13/*');
  });

  it('negates lt and gt', async () => {
    const lt = await api.get('/numbered?id=not.lt.14&order=id.asc');
    expect(ids(lt)).toEqual([14, 15]);
    expect(lt.headers['content-range']).toBe('0-1/*');
    expect(await idsOf('/numbered?id=not.gt.2&order=id.asc')).toEqual([1, 2]);
  });

  it('in and not.in report the range', async () => {
    const inRes = await api.get('/numbered?id=in.(1,3,5)');
    expect(ids(inRes)).toEqual([1, 3, 5]);
    expect(inRes.headers['content-range']).toBe('0-2/*');
    const notIn = await api.get('/numbered?id=not.in.(2,4,6,7,8,9,10,11,12,13,14,15)');
    expect(ids(notIn)).toEqual([1, 3, 5]);
    expect(notIn.headers['content-range']).toBe('0-2/*');
  });

  it('combines a pattern with a negated filter', async () => {
    expect(expectRows(await api.get('/word_pairs?k=like.*ba&extra=not.eq.u'))).toEqual([]);
  });

  it('not.is.null, is.not_null and not.is.not_null on a text column', async () => {
    const notNull = [
      { a: '1', b: '0' },
      { a: '2', b: '0' },
    ];
    expect(expectRows(await api.get('/loose_pairs?a=not.is.null'))).toEqual(notNull);
    expect(expectRows(await api.get('/loose_pairs?a=is.not_null'))).toEqual(notNull);
    expect(expectRows(await api.get('/loose_pairs?a=is.null'))).toEqual([{ a: null, b: null }]);
    expect(expectRows(await api.get('/loose_pairs?a=not.is.not_null'))).toEqual([{ a: null, b: null }]);
  });

  it('is.null on an integer column', async () => {
    expect(expectRows(await api.get('/maybe_int?a=is.null'))).toEqual([{ a: null }]);
  });

  it('accepts is values in any letter case', async () => {
    expect(await idsOf('/gadgets?select=id&order=id&active=is.NoT_NuLl')).toEqual([1, 2, 4, 5, 6]);
    expect(await idsOf('/gadgets?select=id&order=id&active=is.TRUE')).toEqual([1, 4, 5]);
    expect(await idsOf('/gadgets?select=id&order=id&active=is.FAlSe')).toEqual([2, 6]);
    expect(await idsOf('/gadgets?select=id&order=id&active=is.UnKnOwN')).toEqual([3]);
  });

  it('refuses is with a value that is neither null nor a trilean', async () => {
    expectError(await api.get('/gadgets?active=is.ok'), 400, { code: 'PGRST100' });
  });

  it('like, ilike, match and imatch, plain and negated', async () => {
    const lower = [{ k: 'abba', extra: 'u' }];
    const upper = [{ k: 'aBBa', extra: 'v' }];
    const both = [...lower, ...upper];
    expect(expectRows(await api.get('/word_pairs?k=like.*ba'))).toEqual(lower);
    expect(expectRows(await api.get('/word_pairs?k=like.ab*'))).toEqual(lower);
    expect(expectRows(await api.get('/word_pairs?k=like.*BB*'))).toEqual(upper);
    expect(expectRows(await api.get('/word_pairs?k=not.like.*ba'))).toEqual(upper);
    expect(expectRows(await api.get('/word_pairs?k=ilike.ab*&order=extra.asc'))).toEqual(both);
    expect(expectRows(await api.get('/word_pairs?k=ilike.*BB*&order=extra.asc'))).toEqual(both);
    expect(expectRows(await api.get('/word_pairs?k=not.ilike.ab*&order=extra.asc'))).toEqual([]);
    expect(expectRows(await api.get('/word_pairs?k=match.ba$'))).toEqual(lower);
    expect(expectRows(await api.get('/word_pairs?k=match.^ab'))).toEqual(lower);
    expect(expectRows(await api.get('/word_pairs?k=match.BB'))).toEqual(upper);
    expect(expectRows(await api.get('/word_pairs?k=not.match.ba$'))).toEqual(upper);
    expect(expectRows(await api.get('/word_pairs?k=imatch.^ab&order=extra.asc'))).toEqual(both);
    expect(expectRows(await api.get('/word_pairs?k=imatch..*BB.*&order=extra.asc'))).toEqual(both);
    expect(expectRows(await api.get('/word_pairs?k=not.imatch.^ab&order=extra.asc'))).toEqual([]);
  });

  it('cannot reach a computed field defined in a schema that is not exposed', async () => {
    expectError(await api.get('/numbered?never=is.false'), 400, { code: '42703' });
  });

  it('cs and cd on an integer array column', async () => {
    expect(await idsOf('/assorted?select=id&order=id&arr_data=cs.{2}')).toEqual([2, 3]);
    expect(await idsOf('/assorted?select=id&order=id&arr_data=cd.{1,2,4}')).toEqual([1, 2]);
  });

  it('isdistinct and not.isdistinct on a text column with NULLs', async () => {
    expect(expectRows(await api.get('/loose_pairs?select=a&a=isdistinct.2'))).toEqual([{ a: null }, { a: '1' }]);
    expect(expectRows(await api.get('/loose_pairs?select=a&a=not.isdistinct.2'))).toEqual([{ a: '2' }]);
  });
});

describe('QuerySpec: filters on resources that are not embedded', () => {
  it('is 400 / PGRST108 for a misspelled alias, with the exact message', async () => {
    expectError(await api.get('/authors?select=*,works:books(*)&workss.title=ilike.*the*'), 400, {
      code: 'PGRST108',
      message: "'workss' is not an embedded resource in this request",
      details: null,
      hint: "Verify that 'workss' is included in the 'select' query parameter.",
    });
  });

  it('is 400 / PGRST108 naming the missing level of a nested path', async () => {
    expectError(await api.get('/authors?select=id,books(id,tags(id,name))&books.tagz.name=like.s*'), 400, {
      code: 'PGRST108',
      message: "'tagz' is not an embedded resource in this request",
      details: null,
      hint: "Verify that 'tagz' is included in the 'select' query parameter.",
    });
  });

  it('filters the second level of a nested embed', async () => {
    const rows = expectRows(
      await api.get('/publishers?select=id,books(id,tags(id,name))&id=eq.1&books.order=id&books.tags.name=like.s*'),
    );
    expect(rows).toEqual([
      {
        id: 1,
        books: [
          { id: 1, tags: [{ id: 2, name: 'scifi' }] },
          { id: 5, tags: [{ id: 2, name: 'scifi' }] },
        ],
      },
    ]);
  });
});

describe('QuerySpec: full-text search on a tsvector column', () => {
  const fts = (filter: string): Promise<unknown[]> => idsOf(`/phrases?select=id&order=id&${filter}`);

  it('returns the tsvector as PostgreSQL prints it', async () => {
    const rows = expectRows(await api.get('/phrases?select=vec&vec=fts.juggling'));
    expect(rows).toEqual([{ vec: "'brave':8 'danger':4 'fun':5 'juggl':1 'knive':2" }]);
  });

  it('to_tsquery with &, | and ! (sent as %26, %7C and !)', async () => {
    expect(await fts('vec=fts.fun%26simple')).toEqual([2]);
    expect(await fts('vec=fts.dangerous%7Csimple')).toEqual([1, 2, 3]);
    expect(await fts('vec=fts.fun%26!simple')).toEqual([1]);
  });

  it('plainto_tsquery and websearch_to_tsquery', async () => {
    expect(await fts('vec=plfts.The%20Quick%20Foxes')).toEqual([5]);
    expect(await fts('vec=wfts.The%20Quick%20Foxes')).toEqual([5]);
    expect(await fts('vec=wfts.fun%20and%20simple')).toEqual([2]);
    expect(await fts('vec=wfts.dangerous%20or%20simple')).toEqual([1, 2, 3]);
    expect(await fts('vec=wfts.fun%20and%20-simple')).toEqual([1]);
  });

  it('other configurations', async () => {
    expect(await fts('vec=fts(french).amusant')).toEqual([3]);
    expect(await fts('vec=plfts(french).amusant%20couteaux')).toEqual([3]);
    expect(await fts('vec=wfts(french).amusant%20couteaux')).toEqual([3]);
  });

  it('negated', async () => {
    expect(await fts('vec=not.fts.dangerous%7Cfun%7Cquick')).toEqual([4]);
    expect(await fts('vec=not.fts(english).dangerous%7Cfun%7Cquick')).toEqual([4]);
    expect(await fts('vec=not.plfts.The%20Quick%20Foxes')).toEqual([1, 2, 3, 4]);
    expect(await fts('vec=not.wfts(english).dangerous%20or%20fun%20or%20quick')).toEqual([4]);
  });

  it('phraseto_tsquery, with a configuration, negated and inside or', async () => {
    expect(await fts('vec=phfts.Quick%20Brown')).toEqual([5]);
    expect(await fts('vec=phfts(german).einfache%20Kunst')).toEqual([4]);
    expect(await fts('vec=not.phfts(english).Quick%20Brown')).toEqual([1, 2, 3, 4]);
    expect(
      await fts('or=(vec.phfts(german).einfache%20Kunst, vec.phfts(french).amusant, vec.fts(english).juggling)'),
    ).toEqual([1, 3, 4]);
  });
});

describe('QuerySpec: full-text search on text and jsonb columns (to_tsvector applied)', () => {
  const fts = (filter: string): Promise<unknown[]> => idsOf(`/phrases?select=id&order=id&${filter}`);

  it('uses the default configuration without one', async () => {
    expect(await fts('body=fts.dangerous')).toEqual([1]);
    expect(await fts('body_doc=fts.dangerous')).toEqual([1]);
    expect(await fts('body=fts.fun%26!simple')).toEqual([1]);
    expect(await fts('body_doc=plfts.The%20Quick%20Foxes')).toEqual([5]);
    expect(await fts('body=wfts.fun%20and%20-simple')).toEqual([1]);
  });

  it('passes the configuration to to_tsvector too', async () => {
    expect(await fts('body=fts(french).amusant')).toEqual([3]);
    expect(await fts('body_doc=fts(french).amusant')).toEqual([3]);
    expect(await fts('body=phfts(german).einfache%20Kunst')).toEqual([4]);
    expect(await fts('body_doc=phfts(german).einfache%20Kunst')).toEqual([4]);
  });

  it('negated, and inside or', async () => {
    expect(await fts('body=not.fts.dangerous%7Cfun%7Cquick')).toEqual([3, 4]);
    expect(await fts('body_doc=not.fts.dangerous%7Cfun%7Cquick')).toEqual([3, 4]);
    expect(
      await fts('or=(body.phfts(german).einfache%20Kunst, body.phfts(french).amusant, body.fts(english).juggling)'),
    ).toEqual([1, 3, 4]);
  });
});

describe('QuerySpec: select', () => {
  it('returns every column without a select', async () => {
    expect(expectRows(await api.get('/assorted?id=eq.3'))).toEqual([
      {
        id: 3,
        name: 'Three',
        settings: { foo: { int: 3, bar: 'quux' } },
        arr_data: [1, 2, 3],
        'field-with_sep': 3,
        oid_col: null,
        oid_arr: null,
      },
    ]);
  });

  it('accepts a dash in a column name', async () => {
    expect(expectRows(await api.get('/assorted?id=eq.3&select=id,field-with_sep'))).toEqual([
      { id: 3, 'field-with_sep': 3 },
    ]);
  });

  it('casts every row, and renames with a cast', async () => {
    expect(expectRows(await api.get('/assorted?select=id::text&order=id'))).toEqual([
      { id: '1' },
      { id: '2' },
      { id: '3' },
    ]);
    expect(expectRows(await api.get('/assorted?id=eq.1&select=myId:id::text'))).toEqual([{ myId: '1' }]);
  });

  it('returns a json column as JSON', async () => {
    expect(expectRows(await api.get('/assorted?id=eq.1&select=settings'))).toEqual([
      { settings: { foo: { int: 1, bar: 'baz' } } },
    ]);
  });

  it('casts to type names with underscores and digits', async () => {
    expect(expectRows(await api.get('/assorted?select=id,oid_col::int,oid_arr::_int4&id=eq.1'))).toEqual([
      { id: 1, oid_col: 4242, oid_arr: [1, 2, 3] },
    ]);
  });

  it('an empty select on a function gives all its columns', async () => {
    const rows = expectRows(await api.get('/rpc/all_places?select='));
    expect(rows).toEqual([
      { id: 1, address: 'place 1' },
      { id: 2, address: 'place 2' },
      { id: 3, address: 'place 3' },
      { id: 4, address: 'place 4' },
    ]);
  });
});

describe('QuerySpec: ordering embedded resources', () => {
  it('orders an aliased embed by its relation name', async () => {
    const rows = expectRows(await api.get('/authors?id=eq.1&select=id,works:books(id,title)&books.order=title.asc'));
    expect(rows).toEqual([
      {
        id: 1,
        works: [
          { id: 2, title: 'The Dispossessed' },
          { id: 1, title: 'The Left Hand of Darkness' },
        ],
      },
    ]);
  });

  it('orders two levels of embeds', async () => {
    const rows = expectRows(
      await api.get('/authors?id=eq.2&select=id,books(id,tags(name))&books.order=id.desc&books.tags.order=name.desc'),
    );
    expect(rows).toEqual([
      {
        id: 2,
        books: [
          { id: 4, tags: [{ name: 'scifi' }] },
          { id: 3, tags: [{ name: 'scifi' }, { name: 'classic' }] },
        ],
      },
    ]);
  });

  it('ordering a to-one embed does not break it', async () => {
    const rows = expectRows(await api.get('/books?id=eq.1&select=id,authors(id,name)&authors.order=name.asc'));
    expect(rows).toEqual([{ id: 1, authors: { id: 1, name: 'Ursula K. Le Guin' } }]);
  });
});

describe('QuerySpec: Accept', () => {
  it('answers CSV to text/csv with a parameter', async () => {
    const res = await api.get('/word_pairs?order=extra', { accept: 'text/csv; version=1' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(CSV_CT);
    expect(res.text).toBe('k,extra\nabba,u\naBBa,v');
  });
});

describe('QuerySpec: unusual names', () => {
  it('reads tables with a semicolon or camelCase in their names', async () => {
    expect(expectRows(await api.get('/Odd;Name?order=some1Id'))).toEqual([
      { some1Id: 1 },
      { some1Id: 2 },
      { some1Id: 3 },
    ]);
    expect(expectRows(await api.get('/camelRefs?order=refId'))).toEqual([{ refId: 1 }, { refId: 3 }]);
  });

  it('embeds a camelCase table under one with a semicolon', async () => {
    const rows = expectRows(await api.get('/Odd;Name?select=camelRefs(*)&order=some1Id'));
    expect(rows).toEqual([{ camelRefs: { refId: 1 } }, { camelRefs: null }, { camelRefs: { refId: 3 } }]);
  });

  it('selects and filters a column with spaces', async () => {
    const rows = expectRows(await api.get('/Server%20Room?select=Rack%20Model%20Name&Rack%20Model%20Name=like.*42*'));
    expect(rows).toEqual([{ 'Rack Model Name': 'alpha 42-a' }, { 'Rack Model Name': 'gamma 42-c' }]);
  });

  it('selects and filters double-quoted columns containing reserved characters', async () => {
    const rows = expectRows(
      await api.get(
        '/reserved_names?select=%22:arr-%3Eow::cast%22,%22(inside,parens)%22,%22a.dotted.column%22,%22%20%20col%20%20w%20%20space%20%20%22&%22*id*%22=eq.1',
      ),
    );
    expect(rows).toEqual([
      {
        ':arr->ow::cast': ' arrow-1 ',
        '(inside,parens)': ' parens-1 ',
        'a.dotted.column': ' dotted-1 ',
        '  col  w  space  ': ' space-1',
      },
    ]);
  });

  it('selects and filters a column with dollars without quoting', async () => {
    expect(expectRows(await api.get('/mon$ey$?select=a$num$&a$num$=eq.100'))).toEqual([{ a$num$: 100 }]);
  });
});

describe('QuerySpec: quoted and escaped values in in.(...)', () => {
  const names = async (filter: string): Promise<unknown[]> => {
    const rows = expectRows(await api.get(`/quirky_names?select=name&order=id&${filter}`));
    return rows.map((row) => row.name);
  };

  it('only quoted values', async () => {
    expect(await names('name=in.("Lee, Ann")')).toEqual(['Lee, Ann']);
    expect(await names('name=in.("Lee, Ann","Park, Bo","Kim, Cy")')).toEqual(['Lee, Ann', 'Park, Bo', 'Kim, Cy']);
    expect(await names('name=not.in.("Lee, Ann","Park, Bo","Kim, Cy")&limit=3')).toEqual([
      'Ann Lee',
      'Bo Park',
      'Agent(99)',
    ]);
  });

  it('quoted and unquoted values together', async () => {
    expect(await names('name=in.(Ann Lee,"Lee, Ann")')).toEqual(['Lee, Ann', 'Ann Lee']);
    expect(await names('name=not.in.("Lee, Ann",Bo Park,"Kim, Cy")&limit=3')).toEqual([
      'Park, Bo',
      'Ann Lee',
      'Agent(99)',
    ]);
    expect(await names('name=in.("Agent(99)")')).toEqual(['Agent(99)']);
  });

  it('escaped double quotes and backslashes inside quotes', async () => {
    expect(await names('name=in.("Say\\"Hi\\"Now\\"")')).toEqual(['Say"Hi"Now"']);
    expect(await names('name=in.("\\\\")')).toEqual(['\\']);
    expect(await names('name=in.("/\\\\Path/\\\\To/\\\\")')).toEqual(['/\\Path/\\To/\\']);
  });

  it('any escaped character stands for itself', async () => {
    expect(await names('name=in.("A\\n\\n L\\e\\e")')).toEqual(['Ann Lee']);
  });

  it('unquoted double quotes and backslashes are plain characters', async () => {
    expect(await names('name=in.(")')).toEqual(['"']);
    expect(await names('name=in.(Say"Hi"Now")')).toEqual(['Say"Hi"Now"']);
    expect(await names('name=in.(\\)')).toEqual(['\\']);
    expect(await names('name=in.(/\\Path/\\To/\\)')).toEqual(['/\\Path/\\To/\\']);
  });
});

describe('QuerySpec: empty in.()', () => {
  for (const column of [
    'int_data',
    'text_data',
    'bool_data',
    'bin_data',
    'char_data',
    'date_data',
    'real_data',
    'time_data',
  ]) {
    it(`matches nothing on a ${column.replace('_data', '')} column`, async () => {
      expect(expectRows(await api.get(`/typed_values?${column}=in.()`))).toEqual([]);
    });
  }

  it('not.in.() matches everything', async () => {
    expect(expectRows(await api.get('/typed_values?int_data=not.in.()&select=int_data'))).toEqual([{ int_data: 1 }]);
  });

  it('ignores spaces inside the parentheses', async () => {
    expect(expectRows(await api.get('/typed_values?int_data=in.(    )'))).toEqual([]);
  });

  it('a blank value among others is an empty string (22P02 for an integer)', async () => {
    expectError(await api.get('/typed_values?int_data=in.( ,3,4)'), 400, {
      code: '22P02',
      message: 'invalid input syntax for type integer: ""',
      details: null,
      hint: null,
    });
  });
});

describe('QuerySpec: a column named like its table', () => {
  it('embeds children', async () => {
    const rows = expectRows(
      await api.get('/creature?select=*,offspring(*)&order=creature&limit=1&offspring.order=offspring'),
    );
    expect(rows).toEqual([
      {
        creature: 1,
        offspring: [
          { offspring: 1, creature: 1 },
          { offspring: 2, creature: 1 },
        ],
      },
    ]);
  });

  it('embeds through a junction', async () => {
    const rows = expectRows(await api.get('/creature?select=*,limb(*)&order=creature&limit=1'));
    expect(rows).toEqual([{ creature: 1, limb: [{ limb: 1 }] }]);
  });
});

describe('QuerySpec: any/all quantifiers', () => {
  it('eq, gt, gte, lt and lte', async () => {
    expect(await idsOf('/numbered?order=id&id=eq(any).{3,4,5}')).toEqual([3, 4, 5]);
    expect(await idsOf('/numbered?order=id&id=gt(all).{13,12}')).toEqual([14, 15]);
    expect(await idsOf('/numbered?order=id&id=gte(all).{13,12}')).toEqual([13, 14, 15]);
    expect(await idsOf('/numbered?order=id&id=lt(all).{4,3}')).toEqual([1, 2]);
    expect(await idsOf('/numbered?order=id&id=lte(all).{4,3}')).toEqual([1, 2, 3]);
  });

  it('like and ilike with % wildcards', async () => {
    expect(await idsOf('/gadgets?select=id&order=id&description=like(any).{%home%,%gizmo%}')).toEqual([1, 2]);
    expect(await idsOf('/gadgets?select=id&order=id&description=ilike(all).{%WIDGET%,%work%}')).toEqual([5]);
  });

  it('match and imatch', async () => {
    expect(await idsOf('/gadgets?select=id&order=id&description=match(any).{HOME,circles}')).toEqual([6]);
    expect(await idsOf('/gadgets?select=id&order=id&description=imatch(any).{HOME,circles}')).toEqual([1, 6]);
  });
});

describe('QuerySpec: PostgreSQL errors', () => {
  it('42P17 (infinite recursion) is 500', async () => {
    expectError(await api.get('/self_loop?select=*'), 500, {
      code: '42P17',
      message: 'infinite recursion detected in rules for relation "self_loop"',
      details: null,
      hint: null,
    });
  });
});

describe('AndOrParamsSpec', () => {
  const bagIds = (filter: string): Promise<unknown[]> => idsOf(`/bags?select=id&order=id&${filter}`);

  it('or combined with an ordinary filter containing a space', async () => {
    expect(await bagIds('or=(id.eq.1,id.eq.2)&name=eq.bag 1')).toEqual([1]);
  });

  it('logic on the third level of embeds', async () => {
    const rows = expectRows(
      await api.get(
        '/authors?select=id,books(id,tags(id))&id=in.(1,2)&order=id&books.order=id&books.tags.order=id&books.tags.or=(id.eq.1,id.eq.4)',
      ),
    );
    expect(rows).toEqual([
      {
        id: 1,
        books: [
          { id: 1, tags: [{ id: 1 }] },
          { id: 2, tags: [] },
        ],
      },
      {
        id: 2,
        books: [
          { id: 3, tags: [{ id: 1 }] },
          { id: 4, tags: [] },
        ],
      },
    ]);
  });

  it('nests and in or, negated or not', async () => {
    expect(await bagIds('or=(and(name.eq.bag 2,id.eq.2),and(name.eq.bag 1,id.eq.1))')).toEqual([1, 2]);
    expect(await bagIds('or=(not.and(name.eq.bag 2,id.eq.2),not.and(name.eq.bag 1,id.eq.1))')).toEqual([1, 2, 3, 4]);
  });

  it('and and or side by side', async () => {
    expect(await bagIds('and=(id.eq.1,name.eq.bag 1)&or=(id.eq.1,id.eq.2)')).toEqual([1]);
  });

  it('ignores what follows the closing parenthesis', async () => {
    expect(await bagIds('and=(id.eq.1,id.neq.2))')).toEqual([1]);
  });

  it('comparison, pattern, in, is, isdistinct, cs and cd operators inside', async () => {
    expect(await bagIds('or=(id.lt.2,id.gt.3)')).toEqual([1, 4]);
    expect(await bagIds('or=(id.lte.2,id.gte.3)')).toEqual([1, 2, 3, 4]);
    expect(await bagIds('or=(name.like.*1,name.ilike.*BAG 2)')).toEqual([1, 2]);
    expect(await bagIds('or=(id.in.(1,2),id.in.(3,4))')).toEqual([1, 2, 3, 4]);
    expect(await bagIds('and=(name.is.null,arr.is.null)')).toEqual([4]);
    expect(await bagIds('and=(id.gte.2,arr.isdistinct.{1,2})')).toEqual([3, 4]);
    expect(await bagIds('or=(arr.cs.{1,2,3},arr.cd.{1})')).toEqual([1, 3]);
  });

  it('fts on tsvector, text and jsonb columns inside', async () => {
    expect(await bagIds('or=(vec.fts.apple,vec.fts.pear)')).toEqual([1, 2]);
    expect(
      await idsOf(
        '/phrases?select=id&order=id&or=(vec.plfts(german).einfache,vec.plfts(french).amusant,vec.not.wfts(english).dangerous)',
      ),
    ).toEqual([2, 3, 4, 5]);
    expect(await idsOf('/tuples?select=id&order=id&or=(doc.fts.bar,doc.fts.foo)')).toEqual([4, 5]);
    expect(
      await idsOf(
        '/phrases?select=id&order=id&and=(body.not.plfts(german).einfache%20Kunst,body.not.plfts(french).amusant%20couteaux,body.not.fts(english).juggling)',
      ),
    ).toEqual([2, 5]);
  });

  it('range operators', async () => {
    const spans = (filter: string): Promise<unknown[]> => idsOf(`/spans?select=id&order=id&${filter}`);
    expect(await spans('r=eq.[2,4]')).toEqual([1]);
    expect(await spans('r=neq.[2,4]')).toEqual([2, 3, 4]);
    expect(await spans('r=lt.[2,11]')).toEqual([1]);
    expect(await spans('r=gt.[9,12]')).toEqual([4]);
    expect(await spans('r=lte.[2,4]')).toEqual([1]);
    expect(await spans('r=gte.[4,5]')).toEqual([2, 3, 4]);
    expect(await spans('r=cs.[2,3]')).toEqual([1]);
    expect(await spans('r=cd.[2,8]')).toEqual([1, 2]);
    expect(await spans('r=ov.[0,5]')).toEqual([1, 2]);
    expect(await spans('r=sl.[10,11]')).toEqual([1, 2]);
    expect(await spans('r=sr.[4,5]')).toEqual([3, 4]);
    expect(await spans('r=nxr.[5,8]')).toEqual([1, 2]);
    expect(await spans('r=nxl.[5,8]')).toEqual([3, 4]);
    expect(await spans('r=adj.(4,10]')).toEqual([1]);
    expect(await spans('r=isdistinct.[2,4]')).toEqual([2, 3, 4, 5]);
  });

  it('array operators', async () => {
    expect(await bagIds('arr=eq.{1,2,3}')).toEqual([3]);
    expect(await bagIds('arr=neq.{1,2}')).toEqual([1, 3]);
    expect(await bagIds('arr=lt.{2,3}')).toEqual([1, 2, 3]);
    expect(await bagIds('arr=lt.{2,0}')).toEqual([1, 2, 3]);
    expect(await bagIds('arr=gt.{1,1}')).toEqual([2, 3]);
    expect(await bagIds('arr=gt.{3}')).toEqual([]);
    expect(await bagIds('arr=lte.{1,2}')).toEqual([1, 2]);
    expect(await bagIds('arr=cs.{1,2}')).toEqual([2, 3]);
    expect(await bagIds('arr=cd.{1,2,6}')).toEqual([1, 2]);
    expect(await bagIds('arr=ov.{2,3}')).toEqual([2, 3]);
    expect(await bagIds('arr=isdistinct.{1,2}')).toEqual([1, 3, 4]);
  });

  it('negated operators inside nested trees', async () => {
    expect(await bagIds('and=(arr.not.cs.{1,2,3},and(id.not.eq.2,name.not.like.*3))')).toEqual([1]);
    expect(await bagIds('and=(id.not.in.(1,3),and(name.not.is.null,vec.not.fts.apple))')).toEqual([2]);
    expect(await bagIds('and=(arr.not.cd.{1},or(id.not.lt.1,id.not.gte.3))')).toEqual([2, 3]);
    expect(await bagIds('and=(name.not.ilike.*G 2,or(id.not.gt.4,id.not.lte.1))')).toEqual([1, 3]);
    expect(await bagIds('and=(id.not.eq.2,arr.not.isdistinct.{1,2,3})')).toEqual([3]);
  });

  it('double-quoted values with commas and parentheses', async () => {
    const tupleIds = (filter: string): Promise<unknown[]> => idsOf(`/tuples?select=id&order=id&${filter}`);
    expect(await tupleIds('or=(name.eq."(tu,ple,4)",name.eq."(tu,ple,5)")')).toEqual([4, 5]);
    expect(await tupleIds('or=(name.like."*ple,4*",name.ilike."*PLE,5)")')).toEqual([4, 5]);
    expect(await tupleIds('or=(id.in.("1","2"),id.in.("3","4"))')).toEqual([1, 2, 3, 4]);
  });

  it('allows whitespace everywhere', async () => {
    expect(await bagIds('and=( and ( id.in.( 1, 2, 3 ) , id.eq.3 ) , or ( id.eq.2 , id.eq.3 ) )')).toEqual([3]);
  });

  it('and with a single condition; three and four conditions', async () => {
    expect(await bagIds('and=(id.eq.1)')).toEqual([1]);
    const tupleIds = (filter: string): Promise<unknown[]> => idsOf(`/tuples?select=id&order=id&${filter}`);
    expect(await tupleIds('or=(id.eq.1, id.eq.2, id.eq.3)')).toEqual([1, 2, 3]);
    expect(await tupleIds('and=(id.in.(1,2), id.in.(3,1), id.in.(1,4))')).toEqual([1]);
    expect(await tupleIds('or=( id.eq.1, id.eq.2, and(id.in.(1,3), id.in.(2,3)), id.eq.4 )')).toEqual([1, 2, 3, 4]);
    expect(await tupleIds('and=( id.eq.1, not.or(id.eq.2, id.eq.3), id.in.(1,4), or(id.eq.1, id.eq.4) )')).toEqual([1]);
  });

  it('filters the embedded parents of inserted rows', async () => {
    const res = await api.request('POST', '/bag_items?select=id,bags(id)&bags.or=(id.eq.2,id.eq.3)', {
      headers: { prefer: 'return=representation' },
      body: [
        { id: 10, name: 'item 10', bag_id: 1 },
        { id: 11, name: 'item 11', bag_id: 2 },
        { id: 12, name: 'item 12', bag_id: 3 },
      ],
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([
      { id: 10, bags: null },
      { id: 11, bags: { id: 2 } },
      { id: 12, bags: { id: 3 } },
    ]);
  });

  it('PATCH and DELETE with or', async () => {
    const patched = await api.request('PATCH', '/tuples?or=(id.eq.1,id.eq.2)&select=id,name&order=id', {
      headers: { prefer: 'return=representation' },
      body: { name: 'updated tuple' },
    });
    expectStatus(patched, 200);
    expect(patched.json).toEqual([
      { id: 1, name: 'updated tuple' },
      { id: 2, name: 'updated tuple' },
    ]);
    const deleted = await api.request('DELETE', '/bag_items?or=(id.eq.1,id.eq.2)&select=id,name', {
      headers: { prefer: 'return=representation' },
    });
    expectStatus(deleted, 200);
    expect(deleted.json).toEqual([
      { id: 1, name: 'item 1' },
      { id: 2, name: 'item 2' },
    ]);
  });

  it('filters columns whose names start with and/or', async () => {
    expect(await idsOf('/tuples?select=id&order=id&or=(and_first.eq.smth, or_first.eq.smth)')).toEqual([4, 5]);
  });
});

describe('JsonOperatorSpec: select', () => {
  it('casts a ->> value to json, with and without an alias', async () => {
    expect(expectRows(await api.get('/assorted?id=eq.1&select=settings->>foo::json'))).toEqual([
      { foo: { int: 1, bar: 'baz' } },
    ]);
    expect(expectRows(await api.get('/assorted?id=eq.1&select=myFoo:settings->>foo::json'))).toEqual([
      { myFoo: { int: 1, bar: 'baz' } },
    ]);
  });

  it('reads two levels, renamed and cast', async () => {
    expect(expectRows(await api.get('/assorted?id=eq.1&select=settings->foo->>bar'))).toEqual([{ bar: 'baz' }]);
    expect(expectRows(await api.get('/assorted?id=eq.1&select=myBar:settings->foo->>bar'))).toEqual([{ myBar: 'baz' }]);
    expect(expectRows(await api.get('/assorted?id=eq.1&select=myInt:settings->foo->>int::integer'))).toEqual([
      { myInt: 1 },
    ]);
  });

  it('fails with 22P02 when the cast fails', async () => {
    expectError(await api.get('/assorted?select=settings->foo->>bar::integer'), 400, {
      code: '22P02',
      message: 'invalid input syntax for type integer: "baz"',
      details: null,
      hint: null,
    });
  });

  it('accepts non-reserved special characters in keys (the field is named after the last key)', async () => {
    expect(
      expectRows(await api.get('/json_arrays?id=eq.10&select=data->!@#$%^%26*_d->>!@#$%^%26*_e::integer')),
    ).toEqual([{ '!@#$%^&*_e': 3 }]);
  });

  it('refuses a reserved character in a key', async () => {
    expectError(await api.get('/json_arrays?id=eq.10&select=data->(!@#$%^%26*_d->>!@#$%^%26*_e::integer'), 400, {
      code: 'PGRST100',
      message: '"failed to parse select parameter (data->(!@#$%^&*_d->>!@#$%^&*_e::integer)" (line 1, column 7)',
      details: 'unexpected "(" expecting "-", digit or any non reserved character different from: .,>()',
      hint: null,
    });
  });

  it('->> followed by -> with a key is 404 / 42883 (text -> unknown)', async () => {
    expectError(await api.get('/json_arrays?select=data->>c->b'), 404, {
      code: '42883',
      message: 'operator does not exist: text -> unknown',
      details: null,
      hint: 'No operator matches the given name and argument types. You might need to add explicit type casts.',
    });
  });

  it('array indexes, cast and aliased', async () => {
    expect(expectRows(await api.get('/json_arrays?select=data->>0::int&id=in.(1,2)&order=id'))).toEqual([
      { data: 1 },
      { data: 4 },
    ]);
    expect(
      expectRows(await api.get('/json_arrays?select=idx0:data->>0::int,idx1:data->>1::int&id=in.(1,2)&order=id')),
    ).toEqual([
      { idx0: 1, idx1: 2 },
      { idx0: 4, idx1: 5 },
    ]);
  });

  it('nested array indexes', async () => {
    expect(expectRows(await api.get('/json_arrays?select=data->0->>1::int&id=in.(3,4)&order=id'))).toEqual([
      { data: 8 },
      { data: 7 },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->0->0->>1::int&id=in.(3,4)&order=id'))).toEqual([
      { data: null },
      { data: 6 },
    ]);
  });

  it('arrays of objects and arrays under keys', async () => {
    expect(expectRows(await api.get('/json_arrays?select=data->0->>a&id=in.(5,6)&order=id'))).toEqual([
      { a: 'A' },
      { a: '[1, 2, 3]' },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->0->a->>2&id=in.(5,6)&order=id'))).toEqual([
      { a: null },
      { a: '3' },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->c->>0::json&id=in.(7,8)&order=id'))).toEqual([
      { c: 1 },
      { c: { d: [4, 5, 6, 7, 8] } },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->c->0->d->>4::int&id=in.(7,8)&order=id'))).toEqual([
      { d: null },
      { d: 8 },
    ]);
  });

  it('only treats well-formed numbers as indexes', async () => {
    expect(
      expectRows(await api.get('/json_arrays?select=data->0->0xy1->1->23-xy-45->1->xy-6->>0::int&id=eq.9')),
    ).toEqual([{ 'xy-6': 3 }]);
  });

  it('ends a path with -> on a key or an index', async () => {
    expect(expectRows(await api.get('/json_arrays?select=data->c&id=in.(7,8)&order=id'))).toEqual([
      { c: [1, 2, 3] },
      { c: [{ d: [4, 5, 6, 7, 8] }] },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->0->a&id=in.(5,6)&order=id'))).toEqual([
      { a: 'A' },
      { a: [1, 2, 3] },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->c->0->d&id=eq.8'))).toEqual([{ d: [4, 5, 6, 7, 8] }]);
  });

  it('reads a field of a composite column', async () => {
    expect(expectRows(await api.get('/favourite_numbers?select=num->im&order=person'))).toEqual([
      { im: 0.5 },
      { im: 0.6 },
    ]);
    expect(expectRows(await api.get('/favourite_numbers?select=num->>im&order=person'))).toEqual([
      { im: '0.5' },
      { im: '0.6' },
    ]);
  });

  it('reads items of one- and two-dimensional array columns', async () => {
    expect(
      expectRows(await api.get('/int_arrays?select=a:numbers->0,b:numbers->1,c:matrix->0->0,d:matrix->1->2&order=id')),
    ).toEqual([
      { a: 1, b: 2, c: 1, d: 6 },
      { a: 11, b: 12, c: 11, d: 16 },
    ]);
    expect(
      expectRows(
        await api.get('/int_arrays?select=a:numbers->>0,b:numbers->>1,c:matrix->0->>0,d:matrix->1->>2&order=id'),
      ),
    ).toEqual([
      { a: '1', b: '2', c: '1', d: '6' },
      { a: '11', b: '12', c: '11', d: '16' },
    ]);
  });

  it('negative indexes', async () => {
    expect(expectRows(await api.get('/json_arrays?select=data->>-1::int&id=in.(1,2)&order=id'))).toEqual([
      { data: 3 },
      { data: 6 },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->0->>-2::int&id=in.(3,4)&order=id'))).toEqual([
      { data: 8 },
      { data: 7 },
    ]);
    expect(expectRows(await api.get('/json_arrays?select=data->-2->>a&id=in.(5,6)&order=id'))).toEqual([
      { a: 'A' },
      { a: '[1, 2, 3]' },
    ]);
  });
});

describe('JsonOperatorSpec: filters and order', () => {
  it('filters on properties of a json column, plain and negated', async () => {
    expect(expectRows(await api.get('/json_rows?select=data&data->foo->>bar=eq.baz'))).toEqual([
      { data: { id: 1, foo: { bar: 'baz' } } },
    ]);
    expect(expectRows(await api.get('/json_rows?select=data&data->foo->>bar=eq.fake'))).toEqual([]);
    expect(expectRows(await api.get('/json_rows?select=data&data->foo->>bar=not.eq.baz'))).toEqual([]);
    expect(expectRows(await api.get('/json_rows?select=data&data->>id=eq.1'))).toEqual([
      { data: { id: 1, foo: { bar: 'baz' } } },
    ]);
  });

  it('filters with JSON paths inside or', async () => {
    expect(await idsOf('/tuples?select=id&order=id&or=(doc->a->>b.eq.foo, doc->>b.eq.bar)')).toEqual([4, 5]);
  });

  it('filters on keys with non-reserved special characters', async () => {
    expect(
      expectRows(await api.get('/json_arrays?select=data->!@#$%^%26*_d&data->!@#$%^%26*_d->>!@#$%^%26*_e=eq.3')),
    ).toEqual([{ '!@#$%^&*_d': { '!@#$%^&*_e': 3 } }]);
  });

  it('filters on array indexes, positive and negative', async () => {
    const dataIds = (filter: string): Promise<unknown[]> => idsOf(`/json_arrays?select=id&${filter}`);
    expect(await dataIds('data->>0=eq.1')).toEqual([1]);
    expect(await dataIds('data->1->>2=eq.13')).toEqual([3]);
    expect(await dataIds('data->1->>b=eq.B')).toEqual([5]);
    expect(await dataIds('data->1->b->>1=eq.5')).toEqual([6]);
    expect(await dataIds('data->>-3=eq.1')).toEqual([1]);
    expect(await dataIds('data->-1->>-3=eq.11')).toEqual([3]);
    expect(await dataIds('data->-1->>b=eq.B')).toEqual([5]);
    expect(await dataIds('data->-1->b->>-1=eq.5')).toEqual([6]);
  });

  it('compares jsonb values with JSON literals', async () => {
    expect(expectRows(await api.get('/jsonb_rows?data=eq.{"e":1}'))).toEqual([{ id: 4, data: { e: 1 } }]);
    expect(expectRows(await api.get('/jsonb_rows?data->a=eq.{"b":2}'))).toEqual([{ id: 1, data: { a: { b: 2 } } }]);
    expect(expectRows(await api.get('/jsonb_rows?data->c=eq.[1,2,3]'))).toEqual([{ id: 2, data: { c: [1, 2, 3] } }]);
    expect(expectRows(await api.get('/jsonb_rows?data->0=eq.{"d":"test"}'))).toEqual([
      { id: 3, data: [{ d: 'test' }] },
    ]);
  });

  it('filters on a field of a composite column', async () => {
    expect(expectRows(await api.get('/favourite_numbers?num->>im=gt.0.5'))).toEqual([
      { person: 'B', num: { re: 0.6, im: 0.6 } },
    ]);
  });

  it('filters on array items', async () => {
    expect(await idsOf('/int_arrays?select=id&numbers->0=eq.1')).toEqual([0]);
    expect(await idsOf('/int_arrays?select=id&numbers->>0=eq.11')).toEqual([1]);
    expect(await idsOf('/int_arrays?select=id&matrix->1->1=eq.5')).toEqual([0]);
    expect(await idsOf('/int_arrays?select=id&matrix->2->>2=eq.19')).toEqual([1]);
  });

  it('orders by JSON properties', async () => {
    expect(expectRows(await api.get('/json_rows?select=data&order=data->>id.asc'))).toEqual([
      { data: { id: 0 } },
      { data: { id: 1, foo: { bar: 'baz' } } },
      { data: { id: 3 } },
    ]);
    expect(ids(await api.get('/json_rows?order=data->foo->>bar.nullsfirst,id'))).toEqual([2, 3, 1]);
  });

  it('orders by a field of a composite column', async () => {
    const people = async (order: string): Promise<unknown[]> =>
      expectRows(await api.get(`/favourite_numbers?select=person&order=${order}`)).map((row) => row.person);
    expect(await people('num->im.asc')).toEqual(['A', 'B']);
    expect(await people('num->>im.desc')).toEqual(['B', 'A']);
  });

  it('orders by array items', async () => {
    expect(await idsOf('/int_arrays?select=id&order=numbers->0.desc')).toEqual([1, 0]);
    expect(await idsOf('/int_arrays?select=id&order=numbers->1.asc')).toEqual([0, 1]);
    expect(await idsOf('/int_arrays?select=id&order=matrix->0->0.desc')).toEqual([1, 0]);
    expect(await idsOf('/int_arrays?select=id&order=matrix->2->2.asc')).toEqual([0, 1]);
  });

  it('PATCH filtered on a JSON property stores an escaped value', async () => {
    const res = await api.request('PATCH', '/json_rows?data->>id=eq.3&select=data', {
      headers: { prefer: 'return=representation' },
      body: { data: { id: ' "escaped' } },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ data: { id: ' "escaped' } }]);
  });

  it('works on a function returning a table with a composite column', async () => {
    expect(expectRows(await api.get('/rpc/complex_rows?select=val->re&val->im=gt.0.5&order=val->>im.desc'))).toEqual([
      { re: 0.3 },
      { re: 0.2 },
    ]);
  });
});

describe('RangeSpec: a set-returning function', () => {
  it('returns the whole result with 200', async () => {
    expectStatus(await api.get('/rpc/numbered_between?lo=0&hi=15'), 200);
  });

  it('Content-Range is */* for an empty result and 0-14/* for the whole one', async () => {
    const empty = await api.get('/rpc/numbered_between?lo=2&hi=2');
    expect(empty.json).toEqual([]);
    expect(empty.headers['content-range']).toBe('*/*');
    const all = await api.get('/rpc/numbered_between?order=id&lo=0&hi=15');
    expect(ids(all)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(all.headers['content-range']).toBe('0-14/*');
  });

  it('an offset past an empty result with count=exact is 416 */0', async () => {
    const res = await api.get('/rpc/numbered_between?offset=1&lo=2&hi=2', { prefer: 'count=exact' });
    expectError(res, 416, {
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'An offset of 1 was requested, but there are only 0 rows.',
      hint: null,
    });
    expect(res.headers['content-range']).toBe('*/0');
  });

  it('an offset past the end with count=exact is 416 */15', async () => {
    const res = await api.get('/rpc/numbered_between?offset=100&lo=0&hi=15', { prefer: 'count=exact' });
    expectError(res, 416, {
      code: 'PGRST103',
      details: 'An offset of 100 was requested, but there are only 15 rows.',
    });
    expect(res.headers['content-range']).toBe('*/15');
  });

  it('honours Range headers', async () => {
    const two = await api.get('/rpc/numbered_between?lo=0&hi=15', rangeHeaders('0-1'));
    expectStatus(two, 200);
    expect(two.headers['content-range']).toBe('0-1/*');
    expectStatus(await api.get('/rpc/numbered_between?lo=0&hi=15', rangeHeaders('0-')), 200);
    const empty = await api.get('/rpc/numbered_between?lo=2&hi=2', rangeHeaders('0-1'));
    expectStatus(empty, 200);
    expect(empty.text).toBe('[]');
    expect(empty.headers['content-range']).toBe('*/*');
    const one = await api.get('/rpc/numbered_between?lo=0&hi=15', rangeHeaders('0-0'));
    expectStatus(one, 200);
    expect(one.headers['content-range']).toBe('0-0/*');
    const beyond = await api.get('/rpc/numbered_between?lo=0&hi=15', rangeHeaders('10-100'));
    expectStatus(beyond, 200);
    expect(beyond.headers['content-range']).toBe('10-14/*');
  });

  it('refuses invalid Range headers', async () => {
    expectError(await api.get('/rpc/numbered_between?lo=2&hi=2', rangeHeaders('1-0')), 416, {
      code: 'PGRST103',
      details: 'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    });
    const empty = await api.get('/rpc/numbered_between?lo=2&hi=2', rangeHeaders('1-2', { prefer: 'count=exact' }));
    expectError(empty, 416, { code: 'PGRST103', details: 'An offset of 1 was requested, but there are only 0 rows.' });
    expect(empty.headers['content-range']).toBe('*/0');
    const past = await api.get('/rpc/numbered_between?lo=0&hi=15', rangeHeaders('100-199', { prefer: 'count=exact' }));
    expectError(past, 416, {
      code: 'PGRST103',
      details: 'An offset of 100 was requested, but there are only 15 rows.',
    });
    expect(past.headers['content-range']).toBe('*/15');
  });
});

describe('RangeSpec: a table', () => {
  it('count=exact on an empty result is */0; count=none is */*', async () => {
    const counted = await api.get('/numbered?id=eq.0', { prefer: 'count=exact' });
    expect(counted.json).toEqual([]);
    expect(counted.headers['content-range']).toBe('*/0');
    const none = await api.get('/nothing_here', { prefer: 'count=none' });
    expect(none.json).toEqual([]);
    expect(none.headers['content-range']).toBe('*/*');
    const filtered = await api.get('/numbered?id=eq.1&order=id', { prefer: 'count=none' });
    expect(ids(filtered)).toEqual([1]);
    expect(filtered.headers['content-range']).toBe('0-0/*');
  });

  it('limit and offset on HEAD', async () => {
    const res = await api.request('HEAD', '/numbered?select=id&order=id.asc&limit=3&offset=2');
    expectStatus(res, 200);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['content-range']).toBe('2-4/*');
  });

  it('limit applies at every level', async () => {
    const rows = expectRows(
      await api.get(
        '/authors?select=id,books(id,tags(id))&order=id.asc&limit=1&books.order=id.asc&books.limit=2&books.tags.order=id.asc&books.tags.limit=1',
      ),
    );
    expect(rows).toEqual([
      {
        id: 1,
        books: [
          { id: 1, tags: [{ id: 1 }] },
          { id: 2, tags: [{ id: 2 }] },
        ],
      },
    ]);
  });

  it('offset=0 is a no-op', async () => {
    const none = await api.get('/numbered?offset=0&id=eq.0');
    expect(none.json).toEqual([]);
    expect(none.headers['content-range']).toBe('*/*');
    const counted = await api.get('/numbered?offset=0&id=eq.0', { prefer: 'count=exact' });
    expect(counted.headers['content-range']).toBe('*/0');
    const all = await api.get('/numbered?select=id&offset=0&order=id');
    expect(all.headers['content-range']).toBe('0-14/*');
  });

  it('an offset on an empty table with count=exact is 416 */0', async () => {
    const res = await api.get('/nothing_here?offset=1', { prefer: 'count=exact' });
    expectError(res, 416, { code: 'PGRST103', details: 'An offset of 1 was requested, but there are only 0 rows.' });
    expect(res.headers['content-range']).toBe('*/0');
  });

  it('Range headers on an empty table', async () => {
    const empty = await api.get('/nothing_here', rangeHeaders('0-1'));
    expectStatus(empty, 200);
    expect(empty.text).toBe('[]');
    expect(empty.headers['content-range']).toBe('*/*');
    const res = await api.get('/nothing_here', rangeHeaders('1-2', { prefer: 'count=exact' }));
    expectError(res, 416, { code: 'PGRST103', details: 'An offset of 1 was requested, but there are only 0 rows.' });
    expect(res.headers['content-range']).toBe('*/0');
  });
});

describe('SingularSpec', () => {
  const singular = { accept: SINGULAR };

  it('combines with Prefer: count=none', async () => {
    const res = await api.get('/numbered?id=eq.5', { ...singular, prefer: 'count=none' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(OBJECT_CT);
    expect(res.json).toEqual({ id: 5 });
  });

  it('PATCH of one row with return=representation answers an object', async () => {
    const res = await api.request('PATCH', '/places?id=eq.1', {
      headers: { ...singular, prefer: 'return=representation' },
      body: { address: 'B Street' },
    });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(OBJECT_CT);
    expect(res.json).toEqual({ id: 1, address: 'B Street' });
  });

  it('PATCH of one row with return=minimal is 204', async () => {
    const res = await api.request('PATCH', '/places?id=eq.1', {
      headers: { ...singular, prefer: 'return=minimal' },
      body: { address: 'C Street' },
    });
    expectStatus(res, 204);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  it('PATCH of several rows is 406 and changes nothing, with or without representation', async () => {
    for (const prefer of ['tx=commit', 'tx=commit, return=representation']) {
      const res = await api.request('PATCH', '/places', { headers: { ...singular, prefer }, body: { address: 'zzz' } });
      expectError(res, 406, {
        code: 'PGRST116',
        message: 'Cannot coerce the result to a single JSON object',
        details: 'The result contains 4 rows',
        hint: null,
      });
    }
    expect(expectRows(await api.get('/places?id=eq.2'))).toEqual([{ id: 2, address: 'place 2' }]);
  });

  it('PATCH of zero rows is 406, with or without representation', async () => {
    for (const prefer of [undefined, 'return=representation']) {
      const res = await api.request('PATCH', '/numbered?id=gt.0&id=lt.0', {
        headers: { ...singular, ...(prefer ? { prefer } : {}) },
        body: { id: 1 },
      });
      expectError(res, 406, { code: 'PGRST116', details: 'The result contains 0 rows' });
    }
  });

  it('POST of one row with return=minimal is 201 without a body', async () => {
    const res = await api.request('POST', '/places', {
      headers: { ...singular, prefer: 'return=minimal' },
      body: [{ id: 103, address: 'xxx' }],
    });
    expectStatus(res, 201);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  it('POST of several rows is 406 and inserts nothing, whatever the return preference', async () => {
    for (const [prefer, first] of [
      ['tx=commit, return=representation', 202],
      ['tx=commit, return=minimal', 204],
    ] as const) {
      const res = await api.request('POST', '/places', {
        headers: { ...singular, prefer },
        body: [
          { id: first, address: 'xxx' },
          { id: first + 100, address: 'yyy' },
        ],
      });
      expectError(res, 406, { code: 'PGRST116', details: 'The result contains 2 rows' });
      expect(expectRows(await api.get(`/places?id=eq.${first}`))).toEqual([]);
    }
  });

  it('POST of zero rows is 406, with or without representation', async () => {
    for (const prefer of [undefined, 'return=representation']) {
      const res = await api.request('POST', '/places', {
        headers: { ...singular, ...(prefer ? { prefer } : {}) },
        body: [],
      });
      expectError(res, 406, { code: 'PGRST116', details: 'The result contains 0 rows' });
    }
  });

  it('DELETE of one row answers an object with representation and nothing with minimal', async () => {
    const rep = await api.request('DELETE', '/tokens?id=eq.11', {
      headers: { ...singular, prefer: 'return=representation' },
    });
    expectStatus(rep, 200);
    expect(rep.json).toEqual({ id: 11 });
    const minimal = await api.request('DELETE', '/tokens?id=eq.12', {
      headers: { ...singular, prefer: 'return=minimal' },
    });
    expect(minimal.text).toBe('');
  });

  it('DELETE of several rows is 406 and deletes nothing', async () => {
    const res = await api.request('DELETE', '/tokens?id=gt.5&id=lt.11', {
      headers: { ...singular, prefer: 'tx=commit, return=representation' },
    });
    expectError(res, 406, { code: 'PGRST116', details: 'The result contains 5 rows' });
    const left = await api.get('/tokens?id=gt.5&id=lt.11&order=id');
    expect(ids(left)).toEqual([6, 7, 8, 9, 10]);
    expect(left.headers['content-range']).toBe('0-4/*');
  });

  it('DELETE of zero rows is 406, with or without representation', async () => {
    for (const prefer of [undefined, 'return=representation']) {
      const res = await api.request('DELETE', '/tokens?id=lt.0', {
        headers: { ...singular, ...(prefer ? { prefer } : {}) },
      });
      expectError(res, 406, { code: 'PGRST116', details: 'The result contains 0 rows' });
    }
  });

  it('calls: zero rows and several rows are 406; one row and a scalar are fine', async () => {
    expectError(await api.request('POST', '/rpc/place_by_id', { headers: singular, body: { id: 9999999 } }), 406, {
      code: 'PGRST116',
      details: 'The result contains 0 rows',
    });
    expectStatus(await api.request('POST', '/rpc/say_hi', { headers: singular, body: { name: 'world' } }), 200);
    const one = await api.request('POST', '/rpc/place_by_id', { headers: singular, body: { id: 3 } });
    expectStatus(one, 200);
    expect(one.headers['content-type']).toBe(OBJECT_CT);
    expect(one.json).toEqual({ id: 3, address: 'place 3' });
    expectError(await api.request('POST', '/rpc/all_places?id=lte.4', { headers: singular, body: {} }), 406, {
      code: 'PGRST116',
      details: 'The result contains 4 rows',
    });
  });

  it('a volatile call returning several rows is 406 and rolled back', async () => {
    const res = await api.request('POST', '/rpc/rename_places', {
      headers: { ...singular, prefer: 'tx=commit' },
      body: { lo: 3, hi: 4, addr: 'changed' },
    });
    expectError(res, 406, { code: 'PGRST116', details: 'The result contains 2 rows' });
    const after = await api.request('POST', '/rpc/place_by_id?select=id,address', { body: { id: 3 } });
    expect(after.json).toEqual([{ id: 3, address: 'place 3' }]);
  });
});

describe('NullsStripSpec', () => {
  const ARRAY_STRIP = 'application/vnd.pgrst.array+json;nulls=stripped';
  const OBJECT_STRIP = 'application/vnd.pgrst.object+json;nulls=stripped';
  const ARRAY_STRIP_CT = 'application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8';
  const OBJECT_STRIP_CT = 'application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8';

  it('strips nulls from an array, with or without +json', async () => {
    for (const accept of [ARRAY_STRIP, 'application/vnd.pgrst.array;nulls=stripped']) {
      const res = await api.get('/orgs?select=*&id=lte.4&order=id', { accept });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(ARRAY_STRIP_CT);
      expect(res.json).toEqual([
        { id: 1, name: 'Judge Org', manager_id: 1 },
        { id: 2, name: 'Checker Org', manager_id: 2 },
        { id: 3, name: 'Initech', referee: 1, auditor: 2, manager_id: 3 },
        { id: 4, name: 'Hooli', referee: 1, auditor: 2, manager_id: 4 },
      ]);
    }
  });

  it('strips nulls even when the columns are selected explicitly', async () => {
    const res = await api.get('/orgs?select=id,referee,auditor&id=lte.4&order=id', { accept: ARRAY_STRIP });
    expect(res.headers['content-type']).toBe(ARRAY_STRIP_CT);
    expect(res.json).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3, referee: 1, auditor: 2 },
      { id: 4, referee: 1, auditor: 2 },
    ]);
  });

  it('strips nulls from a singular object', async () => {
    const all = await api.get('/orgs?order=id&limit=1', { accept: OBJECT_STRIP });
    expectStatus(all, 200);
    expect(all.headers['content-type']).toBe(OBJECT_STRIP_CT);
    expect(all.json).toEqual({ id: 1, name: 'Judge Org', manager_id: 1 });
    const some = await api.get('/orgs?select=id,referee,auditor&order=id&limit=1', { accept: OBJECT_STRIP });
    expect(some.json).toEqual({ id: 1 });
  });

  it('a stripped singular object still needs exactly one row', async () => {
    expectError(await api.get('/orgs?select=*&id=lte.4', { accept: OBJECT_STRIP }), 406, {
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 4 rows',
      hint: null,
    });
  });

  it('keeps nulls for application/vnd.pgrst.array+json, answered as application/json', async () => {
    const res = await api.get('/orgs?select=id,referee&id=lte.2&order=id', {
      accept: 'application/vnd.pgrst.array+json',
    });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.json).toEqual([
      { id: 1, referee: null },
      { id: 2, referee: null },
    ]);
  });

  it('strips nulls from the representation of POST and PATCH', async () => {
    const created = await api.request('POST', '/orgs?select=*', {
      headers: { accept: ARRAY_STRIP, prefer: 'return=representation' },
      body: { id: 7, name: 'John', referee: null, auditor: null, manager_id: 6 },
    });
    expectStatus(created, 201);
    expect(created.headers['content-type']).toBe(ARRAY_STRIP_CT);
    expect(created.json).toEqual([{ id: 7, name: 'John', manager_id: 6 }]);
    const patched = await api.request('PATCH', '/orgs?id=eq.3&select=id,name,referee,auditor', {
      headers: { accept: ARRAY_STRIP, prefer: 'return=representation' },
      body: { name: 'John', referee: null },
    });
    expectStatus(patched, 200);
    expect(patched.headers['content-type']).toBe(ARRAY_STRIP_CT);
    expect(patched.json).toEqual([{ id: 3, name: 'John', auditor: 2 }]);
  });
});

describe('UnicodeSpec', () => {
  let unicode: Conformance['request'];
  let closeUnicode: () => Promise<void>;
  beforeAll(async () => {
    const variant = await startVariant(api, { schemas: ['ユニコード'] });
    unicode = variant.request;
    closeUnicode = variant.close;
  });
  afterAll(async () => {
    await closeUnicode?.();
  });

  it('reads, writes and deletes with unicode schema, table and column names', async () => {
    const path = `/${encodeURIComponent('項目')}`;
    const empty = await unicode('GET', path);
    expectStatus(empty, 200);
    expect(empty.text).toBe('[]');
    const created = await unicode('POST', path, {
      headers: { prefer: 'return=representation' },
      body: { 識別子: 1 },
    });
    expectStatus(created, 201);
    expect(created.json).toEqual([{ 識別子: 1 }]);
    const read = await unicode('GET', path);
    expect(read.json).toEqual([{ 識別子: 1 }]);
    const deleted = await unicode('DELETE', path);
    expectStatus(deleted, 204);
    expect(deleted.headers['content-type']).toBeUndefined();
  });
});
