import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSV_CT,
  type Conformance,
  JSON_CT,
  OBJECT_CT,
  SINGULAR,
  expectError,
  expectRows,
  expectStatus,
  startConformance,
  startVariant,
} from './helpers.js';

// Writes as PostgREST 14's own test-suite pins them, for the cases mutations.test.ts and
// representation.test.ts do not already cover. Sources: test/spec/Feature/Query/InsertSpec.hs,
// UpdateSpec.hs, DeleteSpec.hs, UpsertSpec.hs, LimitedMutationSpec.hs, PgSafeUpdateSpec.hs
// (the "disabled" half: pg-safeupdate is not loaded here), Preferences/HandlingSpec.hs,
// Preferences/MaxAffectedSpec.hs, Preferences/TimezoneSpec.hs. The tables are this suite's own
// (spec-writes-fixtures.sql); statuses, headers, codes and messages are PostgREST's.
//
// Tests run in file order against one database; each one touches its own rows, or resets them.

const EXTRA_SQL = readFileSync(new URL('./spec-writes-fixtures.sql', import.meta.url), 'utf8');

let api: Conformance;
beforeAll(async () => {
  api = await startConformance({ extraSql: EXTRA_SQL });
});
afterAll(async () => {
  await api?.close();
});

/** Rows straight from PostgreSQL, to check what a write really did. */
async function sql(text: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return (await api.db.pool.query(text, values)).rows as Array<Record<string, unknown>>;
}

const REP = { prefer: 'return=representation' };

describe('InsertSpec', () => {
  it('accepts JSON values of disparate types (201, no Content-Type)', async () => {
    const res = await api.request('POST', '/specimens', {
      body: {
        int_col: 13,
        dbl: 3.14159,
        txt: 'testing!',
        flag: false,
        day: '1900-01-01',
        cost: '$3.99',
        flavor: 'sour',
      },
    });
    expectStatus(res, 201);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
  });

  it('shapes the representation with select= and echoes return=representation', async () => {
    const res = await api.request('POST', '/specimens?select=int_col,txt', {
      headers: REP,
      body: [{ int_col: 14, dbl: 1.5, txt: 'picked', flag: true, day: '1900-01-01', cost: '$1.00', flavor: 'sweet' }],
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['preference-applied']).toBe('return=representation');
    expect(res.json).toEqual([{ int_col: 14, txt: 'picked' }]);
  });

  it('ignores select= without return=representation', async () => {
    const plain = await api.request('POST', '/specimens?select=int_col,txt', { body: [{ int_col: 15 }] });
    expectStatus(plain, 201);
    expect(plain.text).toBe('');
    expect(plain.headers['content-type']).toBeUndefined();
    const minimal = await api.request('POST', '/specimens?select=int_col,txt', {
      headers: { prefer: 'return=minimal' },
      body: [{ int_col: 16 }],
    });
    expectStatus(minimal, 201);
    expect(minimal.text).toBe('');
    expect(minimal.headers['content-type']).toBeUndefined();
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
  });

  it('refuses an array mixing objects and other values (400 / PGRST102)', async () => {
    expectError(
      await api.request('POST', '/sponsors', { body: [{ id: 100, name: 'x' }, 123, 'text', { id: 111, name: 'y' }] }),
      400,
      { code: 'PGRST102', message: 'All object keys must match', details: null, hint: null },
    );
  });

  it('refuses non-objects in the array even with columns= (400)', async () => {
    expectError(
      await api.request('POST', '/sponsors?columns=id,name', { body: [{ id: 100, name: 'x' }, 333, 'asdf'] }),
      400,
      { code: 'PGRST102' },
    );
  });

  it('embeds, counts and sends no Location with representation', async () => {
    const res = await api.request('POST', '/campaigns?select=id,name,sponsors(id,name)', {
      headers: { prefer: 'return=representation, count=exact' },
      body: { id: 6, name: 'New campaign', sponsor_id: 2 },
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-range']).toBe('*/1');
    expect(res.headers['preference-applied']).toBe('return=representation, count=exact');
    expect(res.json).toEqual([{ id: 6, name: 'New campaign', sponsors: { id: 2, name: 'Globex' } }]);
  });

  it('renames and casts the selected columns', async () => {
    const res = await api.request('POST', '/campaigns?select=cId:id::text,cName:name,sId:sponsor_id::text', {
      headers: REP,
      body: { id: 7, name: 'Renamed', sponsor_id: 2 },
    });
    expectStatus(res, 201);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.json).toEqual([{ cId: '7', cName: 'Renamed', sId: '2' }]);
  });

  it('answers a representation without the primary key', async () => {
    const res = await api.request('POST', '/campaigns?select=name,sponsor_id', {
      headers: REP,
      body: { id: 10, name: 'No key shown', sponsor_id: 2 },
    });
    expectStatus(res, 201);
    expect(res.headers.location).toBeUndefined();
    expect(res.json).toEqual([{ name: 'No key shown', sponsor_id: 2 }]);
  });

  it('builds Location from the primary key even when select= leaves it out', async () => {
    const res = await api.request('POST', '/campaigns?select=name,sponsor_id', {
      headers: { prefer: 'return=headers-only' },
      body: { id: 11, name: 'Located', sponsor_id: 2 },
    });
    expectStatus(res, 201);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers.location).toBe('/campaigns?id=eq.11');
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.headers['preference-applied']).toBe('return=headers-only');
  });

  it('builds Location for a partitioned table with a composite key', async () => {
    const res = await api.request('POST', '/vehicles', {
      headers: { prefer: 'return=headers-only' },
      body: { model: 'Enzo', year: 2021 },
    });
    expectStatus(res, 201);
    expect(res.headers.location).toBe('/vehicles?model=eq.Enzo&year=eq.2021');
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.headers['preference-applied']).toBe('return=headers-only');
  });

  it('sends no Location without a return preference', async () => {
    const res = await api.request('POST', '/campaigns?select=name,sponsor_id', {
      body: { id: 12, name: 'Quiet', sponsor_id: 2 },
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers.location).toBeUndefined();
  });

  it('puts a generated serial key into Location', async () => {
    const res = await api.request('POST', '/tickets', {
      headers: { prefer: 'return=headers-only' },
      body: { body: 'not null' },
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers.location).toBe('/tickets?id=eq.1');
    expect(res.headers['preference-applied']).toBe('return=headers-only');
  });

  it('a missing primary key value is 400 / 23502', async () => {
    expectError(await api.request('POST', '/labels', { body: { extra: 'foo' } }), 400, {
      code: '23502',
      message: 'null value in column "k" of relation "labels" violates not-null constraint',
      details: 'Failing row contains (null, foo).',
      hint: null,
    });
  });

  describe('a table without primary key', () => {
    it('inserts without Location', async () => {
      const res = await api.request('POST', '/pairs', { body: { a: 'foo', b: 'bar' } });
      expectStatus(res, 201);
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers.location).toBeUndefined();
    });

    it('answers the inserted row when asked', async () => {
      const res = await api.request('POST', '/pairs', { headers: REP, body: { a: 'bar', b: 'baz' } });
      expectStatus(res, 201);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['preference-applied']).toBe('return=representation');
      expect(res.json).toEqual([{ a: 'bar', b: 'baz' }]);
    });

    it('answers [] for an empty array', async () => {
      const res = await api.request('POST', '/pairs', { headers: REP, body: [] });
      expectStatus(res, 201);
      expect(res.json).toEqual([]);
    });

    it('inserts nulls', async () => {
      const res = await api.request('POST', '/pairs', { headers: REP, body: { a: null, b: 'foo' } });
      expectStatus(res, 201);
      expect(res.headers.location).toBeUndefined();
      expect(res.json).toEqual([{ a: null, b: 'foo' }]);
    });
  });

  it('a composite key with reserved characters: representation, no Location', async () => {
    const res = await api.request('POST', '/coords', { headers: REP, body: { k1: 12, k2: 'Rock & R+ll' } });
    expectStatus(res, 201);
    expect(res.headers.location).toBeUndefined();
    expect(res.json).toEqual([{ k1: 12, k2: 'Rock & R+ll', extra: null }]);
  });

  it('a bulk insert answers 201 without Location', async () => {
    const res = await api.request('POST', '/coords', {
      body: [
        { k1: 21, k2: 'hello world' },
        { k1: 22, k2: 'bye for now' },
      ],
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers.location).toBeUndefined();
  });

  it('a duplicate on a unique column other than the key is 409', async () => {
    expectError(await api.request('POST', '/badges', { body: { code: 'gold', extra: 'again' } }), 409, {
      code: '23505',
      message: 'duplicate key value violates unique constraint "badges_code_key"',
      details: 'Key (code)=(gold) already exists.',
    });
  });

  it('keeps nested jsonb objects and arrays', async () => {
    const object = await api.request('POST', '/jsonb_docs', { headers: REP, body: { data: { foo: 'bar' } } });
    expectStatus(object, 201);
    expect(object.json).toEqual([{ data: { foo: 'bar' } }]);
    const array = await api.request('POST', '/jsonb_docs', { headers: REP, body: { data: [1, 2, 3] } });
    expectStatus(array, 201);
    expect(array.json).toEqual([{ data: [1, 2, 3] }]);
  });

  describe('empty objects', () => {
    it('inserts a row of defaults for {} and [{}]', async () => {
      const one = await api.request('POST', '/blanks', { body: {} });
      expectStatus(one, 201);
      expect(one.headers['content-type']).toBeUndefined();
      expectStatus(await api.request('POST', '/blanks', { body: '[{}]' }), 201);
      expect(await sql('select count(*)::int as n from test.blanks')).toEqual([{ n: 2 }]);
    });

    it('inserts two rows of defaults for [{}, {}]', async () => {
      const res = await api.request('POST', '/blanks', { body: [{}, {}] });
      expectStatus(res, 201);
      expect(res.headers['content-type']).toBeUndefined();
      expect(await sql('select count(*)::int as n from test.blanks')).toEqual([{ n: 4 }]);
    });

    it('answers the defaulted row with representation', async () => {
      await sql("select setval('test.blanks_id_seq', 19)");
      const res = await api.request('POST', '/blanks', { headers: REP, body: {} });
      expectStatus(res, 201);
      expect(res.json).toEqual([{ id: 20, note: 'none' }]);
      const picked = await api.request('POST', '/blanks?select=id', { headers: REP, body: {} });
      expectStatus(picked, 201);
      expect(picked.json).toEqual([{ id: 21 }]);
    });
  });

  it('ignores insignificant whitespace around the JSON', async () => {
    const object = await api.request('POST', '/jsonb_docs', {
      headers: { ...REP, 'content-type': 'application/json' },
      body: '\t \n \r { "data": { "foo":"ws" } }\t \n \r ',
    });
    expectStatus(object, 201);
    expect(object.json).toEqual([{ data: { foo: 'ws' } }]);
    const array = await api.request('POST', '/jsonb_docs', {
      headers: { ...REP, 'content-type': 'application/json' },
      body: '\t \n \r [{ "data": { "foo":"ws" } }, \t \n \r {"data": 34}]\t \n \r ',
    });
    expectStatus(array, 201);
    expect(array.json).toEqual([{ data: { foo: 'ws' } }, { data: 34 }]);
  });

  it('inserts into bit(n) and char(n) columns', async () => {
    const bit = await api.request('POST', '/bits?select=b', { headers: REP, body: { b: '10101' } });
    expectStatus(bit, 201);
    expect(bit.json).toEqual([{ b: '10101' }]);
    const char = await api.request('POST', '/bits?select=c', { headers: REP, body: { c: 'abcde' } });
    expectStatus(char, 201);
    expect(char.json).toEqual([{ c: 'abcde' }]);
  });

  it('columns= picks keys of an object and of every object of an array', async () => {
    const one = await api.request('POST', '/campaigns?columns=id,name', {
      headers: REP,
      body: { id: 200, name: 'xxx', smth: 'here', other: 'stuff', fake_id: 13 },
    });
    expectStatus(one, 201);
    expect(one.json).toEqual([{ id: 200, name: 'xxx', sponsor_id: null }]);
  });

  it('an unknown table wins over an invalid columns= (404 / PGRST205)', async () => {
    expectError(await api.request('POST', '/garlic?columns=helicopter', { body: [{ id: 204 }] }), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.garlic' in the schema cache",
      details: null,
    });
  });

  describe('missing=default', () => {
    const MISSING = { prefer: 'return=representation, missing=default' };

    it('applies table defaults to absent keys, not to explicit nulls', async () => {
      const res = await api.request('POST', '/parts?columns=id,name,field-with_sep,arr_data', {
        headers: MISSING,
        body: [
          { id: 4, name: 'Four' },
          { id: 5, name: 'Five', arr_data: null },
          { id: 6, name: 'Six', 'field-with_sep': 6, arr_data: '{1,2,3}' },
        ],
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('missing=default, return=representation');
      expect(res.json).toEqual([
        { id: 4, name: 'Four', 'field-with_sep': 1, settings: null, arr_data: null },
        { id: 5, name: 'Five', 'field-with_sep': 1, settings: null, arr_data: null },
        { id: 6, name: 'Six', 'field-with_sep': 6, settings: null, arr_data: [1, 2, 3] },
      ]);
    });

    it('applies view defaults, and table defaults through the view', async () => {
      const res = await api.request('POST', '/parts_view?columns=id,name', {
        headers: MISSING,
        body: [{ id: 7, name: 'Seven' }, { id: 8 }],
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('missing=default, return=representation');
      expect(res.json).toEqual([
        { id: 7, name: 'Seven', 'field-with_sep': 1, settings: null, arr_data: null },
        { id: 8, name: 'Default', 'field-with_sep': 1, settings: null, arr_data: null },
      ]);
    });

    it('keeps the last of duplicate keys in a json column (read as jsonb)', async () => {
      const res = await api.request('POST', '/json_bags?columns=id,data', {
        headers: MISSING,
        body: '{ "data": { "a": 1, "a": 2 }, "id": 3 }',
      });
      expectStatus(res, 201);
      expect(res.json).toEqual([{ data: { a: 2 }, id: 3 }]);
    });

    it('uses the identity default of a GENERATED BY DEFAULT column', async () => {
      const res = await api.request('POST', '/streams?columns=id,data,slug&select=data,slug', {
        headers: MISSING,
        body: { slug: 'foo' },
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('missing=default, return=representation');
      expect(res.json).toEqual([{ data: { foo: 'bar' }, slug: 'foo' }]);
    });

    it('a value for a generated column is 400 / 428C9', async () => {
      expectError(
        await api.request('POST', '/derived?columns=a,b', {
          headers: MISSING,
          body: [{ a: 'val' }, { a: 'val', b: 'val' }],
        }),
        400,
        {
          code: '428C9',
          message: 'cannot insert a non-DEFAULT value into column "b"',
          details: 'Column "b" is a generated column.',
          hint: null,
        },
      );
    });

    it("uses a domain's default", async () => {
      const res = await api.request('POST', '/beasts?columns=id,name', { headers: MISSING, body: { name: 'Lu' } });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('missing=default, return=representation');
      expect(res.json).toEqual([{ id: 666, name: 'Lu' }]);
    });
  });

  it('keeps duplicate keys of a json column as sent', async () => {
    const res = await api.request('POST', '/json_bags', {
      headers: { ...REP, 'content-type': 'application/json' },
      body: '{ "data": { "a": 1, "a": 2 }, "id": 4 }',
    });
    expectStatus(res, 201);
    expect(res.text.replace(/\s/g, '')).toContain('"data":{"a":1,"a":2}');
    const cols = await api.request('POST', '/json_bags?columns=id,data', {
      headers: { ...REP, 'content-type': 'application/json' },
      body: '{ "data": { "a": 1, "a": 2 }, "id": 5 }',
    });
    expectStatus(cols, 201);
    expect(cols.text.replace(/\s/g, '')).toContain('"data":{"a":1,"a":2}');
  });

  describe('unicode values', () => {
    it('answers them intact', async () => {
      const res = await api.request('POST', '/glyphs?select=extra,k', {
        headers: REP,
        body: { k: '棋圍', extra: '￥' },
      });
      expectStatus(res, 201);
      expect(res.json).toEqual([{ k: '棋圍', extra: '￥' }]);
    });

    it('answers a Location that reads and deletes the row', async () => {
      const res = await api.request('POST', '/glyphs?select=extra,k', {
        headers: { prefer: 'return=headers-only' },
        body: { k: '圍棋', extra: '￥' },
      });
      expectStatus(res, 201);
      const location = res.headers.location;
      expect(location).toBe(`/glyphs?k=eq.${encodeURIComponent('圍棋')}`);
      const read = await api.get(location ?? '');
      expectStatus(read, 200);
      expect(read.json).toEqual([{ k: '圍棋', extra: '￥' }]);
      const del = await api.request('DELETE', location ?? '');
      expectStatus(del, 204);
      expect(del.headers['content-type']).toBeUndefined();
      expect(await sql("select k from test.glyphs where k = '圍棋'")).toEqual([]);
    });
  });

  it('a CSV body with select= answers only the selected column', async () => {
    const res = await api.request('POST', '/campaigns?select=id', {
      headers: { 'content-type': 'text/csv', accept: 'text/csv', ...REP },
      body: 'id,name,sponsor_id\n8,Xenix,1\n9,Windows NT,1',
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBe(CSV_CT);
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.text).toBe('id\n8\n9');
  });

  it('embeds the parent of a self-referencing row after insert', async () => {
    const res = await api.request('POST', '/nodes?select=id,name,parent:parent_id(name)', {
      headers: REP,
      body: { id: 6, name: 'sprout', parent_id: 4 },
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers.location).toBeUndefined();
    expect(res.json).toEqual([{ id: 6, name: 'sprout', parent: { name: 'moss' } }]);
  });

  describe('into views', () => {
    it('inserts without Location by default', async () => {
      const res = await api.request('POST', '/coords_view', { body: { k1: 1, k2: 'test', extra: 2 } });
      expectStatus(res, 201);
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers.location).toBeUndefined();
    });

    it('builds Location from the keys of both joined tables', async () => {
      const res = await api.request('POST', '/both_sides', {
        headers: { prefer: 'return=headers-only' },
        body: { pk1: 1, pk2: 2 },
      });
      expectStatus(res, 201);
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers.location).toBe('/both_sides?pk1=eq.1&pk2=eq.2');
      expect(res.headers['content-range']).toBe('*/*');
      expect(res.headers['preference-applied']).toBe('return=headers-only');
    });

    it('builds Location from a composite key of the view', async () => {
      const res = await api.request('POST', '/coords_view', {
        headers: { prefer: 'return=headers-only' },
        body: { k1: 2, k2: 'test', extra: 2 },
      });
      expectStatus(res, 201);
      expect(res.headers.location).toBe('/coords_view?k1=eq.2&k2=eq.test');
    });

    it('writes is.null for a null key part in Location', async () => {
      const res = await api.request('POST', '/racers_with_sponsors', {
        headers: { prefer: 'return=headers-only' },
        body: { id: 1 },
      });
      expectStatus(res, 201);
      expect(res.headers.location).toBe('/racers_with_sponsors?id=eq.1&sponsor_id=is.null');
      expect(res.headers['content-range']).toBe('*/*');
    });
  });
});

describe('UpdateSpec', () => {
  it('patching an empty table is 204', async () => {
    const res = await api.request('PATCH', '/empty_box', { body: { extra: 20 } });
    expectStatus(res, 204);
    expect(res.headers['content-type']).toBeUndefined();
  });

  it('an empty body is 400 / PGRST102', async () => {
    expectError(
      await api.request('PATCH', '/widgets', { headers: { 'content-type': 'application/json' }, body: '' }),
      400,
      { code: 'PGRST102', message: 'Empty or invalid json', details: null, hint: null },
    );
  });

  it('ignores insignificant whitespace', async () => {
    const res = await api.request('PATCH', '/widgets?id=eq.5', {
      headers: { ...REP, 'content-type': 'application/json' },
      body: '\t \n \r { "id": 99 } \t \n \r ',
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 99 }]);
  });

  it('no matching row with representation: 200, [] and return=representation applied', async () => {
    const res = await api.request('PATCH', '/widgets?id=eq.999999', { headers: REP, body: { id: 999999 } });
    expectStatus(res, 200);
    expect(res.text).toBe('[]');
    expect(res.headers['preference-applied']).toBe('return=representation');
  });

  it('returns the updated row with 0-0/* and the preference applied', async () => {
    const res = await api.request('PATCH', '/widgets?id=eq.2', { headers: REP, body: { id: 2 } });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 2 }]);
    expect(res.headers['content-range']).toBe('0-0/*');
    expect(res.headers['preference-applied']).toBe('return=representation');
  });

  it('updates several rows of a table without key (0-1/*) and can set NULL', async () => {
    const res = await api.request('PATCH', '/pairs?b=eq.zero', { body: { b: 'one' } });
    expectStatus(res, 204);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-range']).toBe('0-1/*');
    const read = await api.get('/pairs?select=a&b=eq.one&order=a');
    expect(read.json).toEqual([{ a: 'p1' }, { a: 'p2' }]);
    const nulled = await api.request('PATCH', '/pairs?a=eq.p1', { headers: REP, body: { b: null } });
    expectStatus(nulled, 200);
    expect(nulled.json).toEqual([{ a: 'p1', b: null }]);
  });

  it('filters on a computed column', async () => {
    const res = await api.request('PATCH', '/widgets?is_first=eq.true', { headers: REP, body: { id: 100 } });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['content-range']).toBe('0-0/*');
    expect(res.headers['preference-applied']).toBe('return=representation');
    expect(res.json).toEqual([{ id: 100 }]);
    const none = await api.request('PATCH', '/widgets?always_true=eq.false', { headers: REP, body: { id: 101 } });
    expectStatus(none, 200);
    expect(none.text).toBe('[]');
    await sql('update test.widgets set id = 1 where id = 100');
  });

  it('returns computed columns, overloaded ones included', async () => {
    const res = await api.request('PATCH', '/widgets?id=eq.1&select=id,always_true', { headers: REP, body: { id: 1 } });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 1, always_true: true }]);
    const first = await api.request('PATCH', '/widgets?id=eq.1&select=id,overloaded', {
      headers: REP,
      body: { id: 1 },
    });
    expect(first.json).toEqual([{ id: 1, overloaded: true }]);
    const second = await api.request('PATCH', '/widgets_too?id=eq.1&select=id,overloaded', {
      headers: REP,
      body: { id: 1 },
    });
    expectStatus(second, 200);
    expect(second.json).toEqual([{ id: 1, overloaded: true }]);
  });

  it('ignores select= with return=minimal', async () => {
    const res = await api.request('PATCH', '/widgets?id=eq.1&select=id', {
      headers: { prefer: 'return=minimal' },
      body: { id: 1 },
    });
    expectStatus(res, 204);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-range']).toBe('0-0/*');
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  describe('an empty body', () => {
    for (const body of ['{}', '[]', '[{}]']) {
      for (const path of ['/widgets', '/widgets?select=id']) {
        it(`${body} on ${path} updates nothing: 204 with */*`, async () => {
          const res = await api.request('PATCH', path, { headers: { 'content-type': 'application/json' }, body });
          expectStatus(res, 204);
          expect(res.headers['content-type']).toBeUndefined();
          expect(res.headers['content-range']).toBe('*/*');
        });
      }
    }

    for (const path of ['/widgets', '/widgets?select=id', '/widgets?select=id,overloaded']) {
      it(`{} on ${path} with representation: 200, [] and */*`, async () => {
        const res = await api.request('PATCH', path, { headers: REP, body: {} });
        expectStatus(res, 200);
        expect(res.text).toBe('[]');
        expect(res.headers['content-range']).toBe('*/*');
        expect(res.headers['preference-applied']).toBe('return=representation');
      });
    }
  });

  it('keeps unicode values intact', async () => {
    const res = await api.request('PATCH', '/pairs?a=eq.p3', { headers: REP, body: { a: '圍棋', b: '￥' } });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ a: '圍棋', b: '￥' }]);
  });

  describe('columns=', () => {
    it('ignores keys that are not listed', async () => {
      const res = await api.request('PATCH', '/campaigns?id=eq.1&columns=name', {
        headers: REP,
        body: { name: 'Some real content', smth: 'here', other: 'stuff', fake_id: 13 },
      });
      expectStatus(res, 200);
      expect(res.json).toEqual([{ id: 1, name: 'Some real content', sponsor_id: 1 }]);
    });

    it('answers 200 when no row matches', async () => {
      const res = await api.request('PATCH', '/campaigns?id=eq.2001&columns=name', {
        headers: REP,
        body: { name: 'x', smth: 'here' },
      });
      expectStatus(res, 200);
      expect(res.json).toEqual([]);
    });

    it('naming an unknown column is 400 / PGRST204', async () => {
      expectError(
        await api.request('PATCH', '/campaigns?id=eq.1&columns=helicopter', { headers: REP, body: { name: 'yyy' } }),
        400,
        {
          code: 'PGRST204',
          message: "Could not find the 'helicopter' column of 'campaigns' in the schema cache",
          details: null,
          hint: null,
        },
      );
    });

    it('an unknown table wins over an invalid columns= (404 / PGRST205)', async () => {
      expectError(
        await api.request('PATCH', '/garlic?columns=helicopter', { headers: REP, body: [{ id: 204 }] }),
        404,
        { code: 'PGRST205', message: "Could not find the table 'test.garlic' in the schema cache" },
      );
    });

    it('missing=default sets listed but absent columns to their table default', async () => {
      const res = await api.request('PATCH', '/parts?id=eq.3&columns=name,field-with_sep', {
        headers: { prefer: 'return=representation, missing=default' },
        body: { name: 'Tres' },
      });
      expectStatus(res, 200);
      expect(res.headers['preference-applied']).toBe('missing=default, return=representation');
      expect(res.json).toEqual([
        { id: 3, name: 'Tres', 'field-with_sep': 1, settings: { k: { n: 1 } }, arr_data: [1, 2, 3] },
      ]);
    });

    it('missing=default sets listed but absent columns to their view default', async () => {
      await sql('update test.parts set "field-with_sep" = 3 where id = 3');
      const res = await api.request('PATCH', '/parts_view?id=eq.3&columns=arr_data,name', {
        headers: { prefer: 'return=representation, missing=default' },
        body: { arr_data: null },
      });
      expectStatus(res, 200);
      expect(res.headers['preference-applied']).toBe('missing=default, return=representation');
      expect(res.json).toEqual([
        { id: 3, name: 'Default', 'field-with_sep': 3, settings: { k: { n: 1 } }, arr_data: null },
      ]);
    });
  });

  it('updates bit(n) and char(n) columns', async () => {
    const bit = await api.request('PATCH', '/bits?select=b,c&c=eq.aaaaa', { headers: REP, body: { b: '11100' } });
    expectStatus(bit, 200);
    expect(bit.json).toEqual([{ b: '11100', c: 'aaaaa' }]);
    const char = await api.request('PATCH', '/bits?select=b,c&b=eq.11111', { headers: REP, body: { c: 'zzzyy' } });
    expectStatus(char, 200);
    expect(char.json).toEqual([{ b: '11111', c: 'zzzyy' }]);
  });

  describe('embeds after update', () => {
    it('children of a self-referencing row, with and without filters', async () => {
      const all = await api.request('PATCH', '/nodes?id=eq.0&select=id,name,nodes(name)', {
        headers: REP,
        body: { name: 'hub-patched' },
      });
      expectStatus(all, 200);
      expect(all.headers['content-type']).toBe(JSON_CT);
      expect(all.headers['preference-applied']).toBe('return=representation');
      expect(all.json).toEqual([
        { id: 0, name: 'hub-patched', nodes: [{ name: 'fern' }, { name: 'fig' }, { name: 'birch' }] },
      ]);
      const filtered = await api.request('PATCH', '/nodes?id=eq.0&select=name,nodes(name)&nodes.name=like.f*', {
        headers: REP,
        body: { name: 'hub-patched' },
      });
      expectStatus(filtered, 200);
      expect(filtered.json).toEqual([{ name: 'hub-patched', nodes: [{ name: 'fern' }, { name: 'fig' }] }]);
    });

    it('parent, children and grandchildren, with and without filters', async () => {
      const select = 'select=id,name,nodes(name,nodes(name)),parent:parent_id(name)';
      const all = await api.request('PATCH', `/nodes?id=eq.0&${select}`, { headers: REP, body: { name: 'hub-2' } });
      expectStatus(all, 200);
      expect(all.json).toEqual([
        {
          id: 0,
          name: 'hub-2',
          parent: { name: 'top' },
          nodes: [
            { name: 'fern', nodes: [{ name: 'moss' }] },
            { name: 'fig', nodes: [] },
            { name: 'birch', nodes: [] },
          ],
        },
      ]);
      const filtered = await api.request(
        'PATCH',
        `/nodes?id=eq.0&${select}&nodes.name=like.f*&nodes.nodes.id=eq.4&parent.name=neq.top`,
        { headers: REP, body: { name: 'hub-2' } },
      );
      expectStatus(filtered, 200);
      expect(filtered.json).toEqual([
        {
          id: 0,
          name: 'hub-2',
          parent: null,
          nodes: [
            { name: 'fern', nodes: [{ name: 'moss' }] },
            { name: 'fig', nodes: [] },
          ],
        },
      ]);
    });

    it('a many-to-many relationship plus its parent, with and without filters', async () => {
      const all = await api.request('PATCH', '/crew?id=eq.1&select=name,jobs(name,work:works(name))', {
        headers: REP,
        body: { name: 'Annie' },
      });
      expectStatus(all, 200);
      expect(all.json).toEqual([
        {
          name: 'Annie',
          jobs: [
            { name: 'Design r7', work: { name: 'Release 7' } },
            { name: 'Code r7', work: { name: 'Release 7' } },
            { name: 'Design r10', work: { name: 'Release 10' } },
            { name: 'Code r10', work: { name: 'Release 10' } },
          ],
        },
      ]);
      const filtered = await api.request(
        'PATCH',
        '/crew?id=eq.1&select=name,jobs(name,work:works(name))&jobs.name=ilike.code*&jobs.work.name=like.*10',
        { headers: REP, body: { name: 'Annie' } },
      );
      expectStatus(filtered, 200);
      expect(filtered.json).toEqual([
        {
          name: 'Annie',
          jobs: [
            { name: 'Code r7', work: null },
            { name: 'Code r10', work: { name: 'Release 10' } },
          ],
        },
      ]);
    });

    it('a one-to-one relationship, both ways and filtered', async () => {
      const forward = await api.request('PATCH', '/pupils?id=eq.1&select=name,pupil_cards(address)', {
        headers: REP,
        body: { name: 'Johnny' },
      });
      expectStatus(forward, 200);
      expect(forward.json).toEqual([{ name: 'Johnny', pupil_cards: { address: 'Road 1' } }]);
      const backward = await api.request('PATCH', '/pupil_cards?id=eq.1&select=address,pupils(name)', {
        headers: REP,
        body: { address: 'New Road 1' },
      });
      expectStatus(backward, 200);
      expect(backward.json).toEqual([{ address: 'New Road 1', pupils: { name: 'Johnny' } }]);
      const filtered = await api.request(
        'PATCH',
        '/pupils?id=eq.1&select=name,pupil_cards(address)&pupil_cards.code=like.0002',
        { headers: REP, body: { name: 'Johnny' } },
      );
      expectStatus(filtered, 200);
      expect(filtered.json).toEqual([{ name: 'Johnny', pupil_cards: null }]);
    });
  });
});

describe('DeleteSpec', () => {
  it('answers the deleted row and its count when asked', async () => {
    const res = await api.request('DELETE', '/crates?id=eq.1', {
      headers: { prefer: 'return=representation, count=exact' },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 1, name: 'one' }]);
    expect(res.headers['content-range']).toBe('*/1');
    expect(res.headers['preference-applied']).toBe('return=representation, count=exact');
  });

  it('ignores select= without return=representation', async () => {
    const plain = await api.request('DELETE', '/crates?id=eq.2&select=id');
    expectStatus(plain, 204);
    expect(plain.headers['content-type']).toBeUndefined();
    expect(plain.headers['content-range']).toBe('*/*');
    const minimal = await api.request('DELETE', '/crates?id=eq.2&select=id', { headers: { prefer: 'return=minimal' } });
    expectStatus(minimal, 204);
    expect(minimal.headers['content-type']).toBeUndefined();
    expect(minimal.headers['content-range']).toBe('*/*');
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
  });

  it('shapes, renames and casts the deleted rows', async () => {
    const res = await api.request('DELETE', '/parts?id=eq.2&select=id,name', { headers: REP });
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.json).toEqual([{ id: 2, name: 'Two' }]);
    const cast = await api.request('DELETE', '/crates?id=eq.3&select=cId:id::text,cName:name', { headers: REP });
    expectStatus(cast, 200);
    expect(cast.json).toEqual([{ cId: '3', cName: 'three' }]);
  });

  it('embeds the parent of the deleted row', async () => {
    await sql('delete from test.crew_jobs where job_id = 4');
    const res = await api.request('DELETE', '/jobs?id=eq.4&select=id,name,work:works(id)', { headers: REP });
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.json).toEqual([{ id: 4, name: 'Code r10', work: { id: 2 } }]);
  });

  it('embeds a one-to-one relationship after delete, both ways', async () => {
    const card = await api.request('DELETE', '/pupil_cards?id=eq.2&select=address,pupils(name)', { headers: REP });
    expectStatus(card, 200);
    expect(card.headers['content-type']).toBe(JSON_CT);
    expect(card.json).toEqual([{ address: 'Road 2', pupils: { name: 'Al' } }]);
    // The card's foreign key cascades, so the pupil can go with its card.
    const pupil = await api.request('DELETE', '/pupils?id=eq.3&select=name,pupil_cards(address)', { headers: REP });
    expectStatus(pupil, 200);
    expect(pupil.headers['content-type']).toBe(JSON_CT);
    expect(pupil.json).toEqual([{ name: 'Cy', pupil_cards: { address: 'Road 3' } }]);
  });

  it('no matching row with representation: 200, [] and */*', async () => {
    const res = await api.request('DELETE', '/crates?id=eq.101', { headers: REP });
    expectStatus(res, 200);
    expect(res.text).toBe('[]');
    expect(res.headers['content-range']).toBe('*/*');
  });
});

describe('UpsertSpec', () => {
  const MERGE = { prefer: 'return=representation, resolution=merge-duplicates' };
  const IGNORE = { prefer: 'return=representation, resolution=ignore-duplicates' };

  describe('POST with merge-duplicates', () => {
    it('inserts and updates on a composite key conflict', async () => {
      const res = await api.request('POST', '/staff', {
        headers: MERGE,
        body: [
          { first_name: 'Ada', last_name: 'Roe', salary: '30000' },
          { first_name: 'Cy', last_name: 'Yang', salary: 42000 },
        ],
      });
      expectStatus(res, 201);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.headers['preference-applied']).toBe('resolution=merge-duplicates, return=representation');
      expect(res.json).toEqual([
        { first_name: 'Ada', last_name: 'Roe', salary: '$30,000.00', company: 'Initech', occupation: 'Author' },
        { first_name: 'Cy', last_name: 'Yang', salary: '$42,000.00', company: null, occupation: null },
      ]);
    });

    it('inserts and updates on a partitioned table', async () => {
      const res = await api.request('POST', '/vehicles', {
        headers: MERGE,
        body: [
          { model: 'Diablo', year: 2001, brand: null },
          { model: 'Roma', year: 2021, brand: 'Ferrari' },
        ],
      });
      expectStatus(res, 201);
      expect(res.json).toEqual([
        { model: 'Diablo', year: 2001, brand: null },
        { model: 'Roma', year: 2021, brand: 'Ferrari' },
      ]);
    });

    it('an empty array inserts nothing: 200 and []', async () => {
      const res = await api.request('POST', '/langs', { headers: MERGE, body: [] });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.json).toEqual([]);
    });

    it('on_conflict names compound unique columns', async () => {
      const res = await api.request('POST', '/duo_keys?on_conflict=key1,key2', {
        headers: MERGE,
        body: [
          { key1: 1, key2: 1, value: 'B' },
          { key1: 1, key2: 2, value: 'C' },
        ],
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('resolution=merge-duplicates, return=representation');
      expect(res.json).toEqual([
        { key1: 1, key2: 1, value: 'B' },
        { key1: 1, key2: 2, value: 'C' },
      ]);
    });

    for (const table of ['serial_rows', 'identity_rows']) {
      it(`uses the generated key for new rows with missing=default (${table})`, async () => {
        const res = await api.request('POST', `/${table}?columns=id,name&select=name,extra`, {
          headers: { prefer: 'return=representation, resolution=merge-duplicates, missing=default' },
          body: [{ id: 1, name: 'updated value' }, { name: 'new value' }],
        });
        expectStatus(res, 201);
        expect(res.headers['content-type']).toBe(JSON_CT);
        expect(res.headers['preference-applied']).toBe(
          'resolution=merge-duplicates, missing=default, return=representation',
        );
        expect(res.json).toEqual([
          { name: 'updated value', extra: 'existing value' },
          { name: 'new value', extra: null },
        ]);
      });
    }

    it('works on a table made only of its key', async () => {
      const res = await api.request('POST', '/bare_ids', { headers: MERGE, body: [{ id: 1 }, { id: 2 }, { id: 4 }] });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('resolution=merge-duplicates, return=representation');
      expect(res.json).toEqual([{ id: 1 }, { id: 2 }, { id: 4 }]);
    });
  });

  describe('POST with ignore-duplicates', () => {
    it('skips rows conflicting on a composite key', async () => {
      const res = await api.request('POST', '/staff', {
        headers: IGNORE,
        body: [
          { first_name: 'Bo', last_name: 'Lyon', salary: '1', company: null, occupation: null },
          { first_name: 'Di', last_name: 'Torp', salary: 60000, company: 'Burstein', occupation: 'Soil scientist' },
        ],
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('resolution=ignore-duplicates, return=representation');
      expect(res.json).toEqual([
        {
          first_name: 'Di',
          last_name: 'Torp',
          salary: '$60,000.00',
          company: 'Burstein',
          occupation: 'Soil scientist',
        },
      ]);
    });

    it('skips rows conflicting on a partitioned table', async () => {
      const res = await api.request('POST', '/vehicles', {
        headers: IGNORE,
        body: [
          { model: 'Countach', year: 1981, brand: 'Other' },
          { model: 'Huracán', year: 2022, brand: 'Lamborghini' },
        ],
      });
      expectStatus(res, 201);
      expect(res.json).toEqual([{ model: 'Huracán', year: 2022, brand: 'Lamborghini' }]);
    });

    it('skips rows conflicting on compound unique columns', async () => {
      const res = await api.request('POST', '/duo_keys?on_conflict=key1,key2', {
        headers: IGNORE,
        body: [
          { key1: 1, key2: 1, value: 'X' },
          { key1: 1, key2: 2, value: 'Y' },
          { key1: 1, key2: 3, value: 'D' },
        ],
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('resolution=ignore-duplicates, return=representation');
      expect(res.json).toEqual([{ key1: 1, key2: 3, value: 'D' }]);
    });

    for (const table of ['serial_rows', 'identity_rows']) {
      it(`inserts only new rows with missing=default (${table})`, async () => {
        const res = await api.request('POST', `/${table}?columns=id,name&select=name,extra`, {
          headers: { prefer: 'return=representation, resolution=ignore-duplicates, missing=default' },
          body: [{ id: 1, name: 'ignored value' }, { name: 'newer value' }],
        });
        expectStatus(res, 201);
        expect(res.headers['preference-applied']).toBe(
          'resolution=ignore-duplicates, missing=default, return=representation',
        );
        expect(res.json).toEqual([{ name: 'newer value', extra: null }]);
      });
    }

    it('works on a table made only of its key', async () => {
      const res = await api.request('POST', '/bare_ids', { headers: IGNORE, body: [{ id: 1 }, { id: 2 }, { id: 3 }] });
      expectStatus(res, 201);
      expect(res.json).toEqual([{ id: 3 }]);
    });

    it('answers 201 and [] when every row was a duplicate', async () => {
      const one = await api.request('POST', '/langs', { headers: IGNORE, body: [{ name: 'Java', rank: 9 }] });
      expectStatus(one, 201);
      expect(one.headers['content-type']).toBe(JSON_CT);
      expect(one.json).toEqual([]);
      const two = await api.request('POST', '/langs', {
        headers: IGNORE,
        body: [
          { name: 'Java', rank: 9 },
          { name: 'C', rank: 9 },
        ],
      });
      expectStatus(two, 201);
      expect(two.json).toEqual([]);
    });
  });

  describe('PUT', () => {
    const PUT_FILTERS = {
      code: 'PGRST105',
      message: "Filters must include all and only primary key columns with 'eq' operators",
      details: null,
      hint: null,
    };

    it('refuses a logic tree even when it only says key = value (405 / PGRST105)', async () => {
      expectError(
        await api.request('PUT', '/langs?and=(name.eq.Go)', { body: [{ name: 'Go', rank: 19 }] }),
        405,
        PUT_FILTERS,
      );
    });

    it('refuses a composite key filtered on one column only', async () => {
      const body = [{ first_name: 'Sue', last_name: 'Heidt', salary: '48000' }];
      expectError(await api.request('PUT', '/staff?first_name=eq.Sue', { body }), 405, PUT_FILTERS);
      expectError(await api.request('PUT', '/staff?last_name=eq.Heidt', { body }), 405, PUT_FILTERS);
    });

    it('refuses a composite key whose payload differs from the URL (400 / PGRST115)', async () => {
      expectError(
        await api.request('PUT', '/staff?first_name=eq.Wendy&last_name=eq.Anderson', {
          body: [{ first_name: 'Sue', last_name: 'Heidt', salary: '48000' }],
        }),
        400,
        {
          code: 'PGRST115',
          message: 'Payload values do not match URL in primary key column(s)',
          details: null,
          hint: null,
        },
      );
    });

    it('inserts on a partitioned table and on a key-only table', async () => {
      const car = await api.request('PUT', '/vehicles?model=eq.Supra&year=eq.2021', {
        headers: REP,
        body: [{ model: 'Supra', year: 2021 }],
      });
      expectStatus(car, 201);
      expect(car.json).toEqual([{ model: 'Supra', year: 2021, brand: null }]);
      const bare = await api.request('PUT', '/bare_ids?id=eq.10', { headers: REP, body: [{ id: 10 }] });
      expectStatus(bare, 201);
      expect(bare.json).toEqual([{ id: 10 }]);
    });

    it('updates on a composite key, a partitioned table and a key-only table', async () => {
      const staff = await api.request('PUT', '/staff?first_name=eq.Ada&last_name=eq.Roe', {
        headers: REP,
        body: [{ first_name: 'Ada', last_name: 'Roe', salary: '60000', company: 'Gamma', occupation: 'Engineer' }],
      });
      expectStatus(staff, 200);
      expect(staff.json).toEqual([
        { first_name: 'Ada', last_name: 'Roe', salary: '$60,000.00', company: 'Gamma', occupation: 'Engineer' },
      ]);
      const car = await api.request('PUT', '/vehicles?model=eq.Countach&year=eq.1981', {
        headers: REP,
        body: [{ model: 'Countach', year: 1981, brand: null }],
      });
      expectStatus(car, 200);
      expect(car.json).toEqual([{ model: 'Countach', year: 1981, brand: null }]);
      const bare = await api.request('PUT', '/bare_ids?id=eq.1', { headers: REP, body: [{ id: 1 }] });
      expectStatus(bare, 200);
      expect(bare.json).toEqual([{ id: 1 }]);
    });

    it('puts only the first object of a longer array', async () => {
      const res = await api.request('PUT', '/langs?name=eq.Java', {
        headers: { ...REP, accept: SINGULAR },
        body: [
          { name: 'Java', rank: 19 },
          { name: 'Swift', rank: 12 },
        ],
      });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(OBJECT_CT);
      expect(res.json).toEqual({ name: 'Java', rank: 19 });
      expect(await sql("select name from test.langs where name = 'Swift'")).toEqual([]);
    });

    it('ignores the Range header', async () => {
      const res = await api.request('PUT', '/langs?name=eq.Java', {
        headers: { ...REP, range: '1-1' },
        body: [{ name: 'Java', rank: 5 }],
      });
      expectStatus(res, 200);
      expect(res.json).toEqual([{ name: 'Java', rank: 5 }]);
    });

    it('answers a singular object for an insert', async () => {
      const res = await api.request('PUT', '/langs?name=eq.Ruby', {
        headers: { ...REP, accept: SINGULAR },
        body: [{ name: 'Ruby', rank: 11 }],
      });
      expectStatus(res, 201);
      expect(res.headers['content-type']).toBe(OBJECT_CT);
      expect(res.json).toEqual({ name: 'Ruby', rank: 11 });
    });
  });

  describe('a camelCase key column', () => {
    it('upserts with POST and merge-duplicates', async () => {
      const res = await api.request('POST', '/CamelRows', {
        headers: MERGE,
        body: [
          { idCamel: 1, nameCamel: 'camel 1' },
          { idCamel: 2, nameCamel: 'camel 2' },
        ],
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('resolution=merge-duplicates, return=representation');
      expect(res.json).toEqual([
        { idCamel: 1, nameCamel: 'camel 1' },
        { idCamel: 2, nameCamel: 'camel 2' },
      ]);
    });

    it('upserts with POST and ignore-duplicates', async () => {
      const res = await api.request('POST', '/CamelRows', {
        headers: IGNORE,
        body: [
          { idCamel: 1, nameCamel: 'not applied' },
          { idCamel: 3, nameCamel: 'camel 3' },
        ],
      });
      expectStatus(res, 201);
      expect(res.headers['preference-applied']).toBe('resolution=ignore-duplicates, return=representation');
      expect(res.json).toEqual([{ idCamel: 3, nameCamel: 'camel 3' }]);
    });

    it('upserts with PUT (204), echoing return=minimal', async () => {
      const res = await api.request('PUT', '/CamelRows?idCamel=eq.1', { body: [{ idCamel: 1, nameCamel: 'put 1' }] });
      expectStatus(res, 204);
      expect(res.headers['content-type']).toBeUndefined();
      const minimal = await api.request('PUT', '/CamelRows?idCamel=eq.1', {
        headers: { prefer: 'return=minimal' },
        body: [{ idCamel: 1, nameCamel: 'put 1' }],
      });
      expectStatus(minimal, 204);
      expect(minimal.headers['preference-applied']).toBe('return=minimal');
      expect((await api.get('/CamelRows?idCamel=eq.1')).json).toEqual([{ idCamel: 1, nameCamel: 'put 1' }]);
    });
  });
});

describe('LimitedMutationSpec', () => {
  const TABLES = ['lim_items', 'lim_items_cpk', 'lim_items_no_pk'];
  async function reset(): Promise<void> {
    for (const table of TABLES) {
      await sql(`delete from test.${table}`);
      await sql(`insert into test.${table} (id, name) values (1, 'item-1'), (2, 'item-2'), (3, 'item-3')`);
    }
  }
  async function rows(table: string): Promise<Array<Record<string, unknown>>> {
    return sql(`select id, name from test.${table} order by id`);
  }
  const BEFORE = [
    { id: 1, name: 'item-1' },
    { id: 2, name: 'item-2' },
    { id: 3, name: 'item-3' },
  ];
  const without = (id: number) => BEFORE.filter((row) => row.id !== id);
  const updated = (...changed: number[]) =>
    BEFORE.map((row) => (changed.includes(row.id) ? { id: row.id, name: 'updated-item' } : row));
  const PATCH_BODY = { name: 'updated-item' };

  it('on a table, picks exactly the first rows of the order, NULLs and ties included', async () => {
    await reset();
    await sql(`update test.lim_items_no_pk set name = null where id in (1, 2)`);
    // Ordered by a column that is NULL (and tied) for the first two rows: one row changes.
    const res = await api.request('PATCH', '/lim_items_no_pk?order=name.nullsfirst,id&limit=1', { body: PATCH_BODY });
    expectStatus(res, 204);
    expect(await rows('lim_items_no_pk')).toEqual([
      { id: 1, name: 'updated-item' },
      { id: 2, name: null },
      { id: 3, name: 'item-3' },
    ]);
    await reset();
    expectStatus(await api.request('DELETE', '/lim_items_no_pk?order=name&limit=1'), 204);
    expect(await rows('lim_items_no_pk')).toEqual(without(1));
  });

  describe('DELETE', () => {
    it('applies order, limit and offset', async () => {
      await reset();
      expectStatus(await api.request('DELETE', '/lim_items?order=id&limit=1&offset=1'), 204);
      expect(await rows('lim_items')).toEqual(without(2));
    });

    it('applies limit after the filters', async () => {
      await reset();
      expectStatus(await api.request('DELETE', '/lim_items?order=id&limit=1&id=gt.1'), 204);
      expect(await rows('lim_items')).toEqual(without(2));
    });

    it('a limit without order is 400 / PGRST109', async () => {
      await reset();
      expectError(await api.request('DELETE', '/lim_items?limit=1&offset=1'), 400, {
        code: 'PGRST109',
        message: "A 'limit' was applied without an explicit 'order'",
        details: null,
        hint: "Apply an 'order' using unique column(s)",
      });
      expect(await rows('lim_items')).toEqual(BEFORE);
    });

    it('ordering by a non-unique column that matches too many rows is 400 / PGRST110', async () => {
      await reset();
      expectError(await api.request('DELETE', '/lim_items_nonunique_view?order=static&limit=1'), 400, {
        code: 'PGRST110',
        message: 'The maximum number of rows allowed to change was surpassed',
        details: 'Results contain 3 rows changed but the maximum number allowed is 1',
        hint: null,
      });
      expect(await rows('lim_items')).toEqual(BEFORE);
    });

    it('works on views ordered by a unique column or a composite key', async () => {
      await reset();
      expectStatus(await api.request('DELETE', '/lim_items_view?order=id&limit=1&offset=1'), 204);
      expect(await rows('lim_items')).toEqual(without(2));
      expectStatus(await api.request('DELETE', '/lim_items_cpk_view?order=id,name&limit=1&offset=1'), 204);
      expect(await rows('lim_items_cpk')).toEqual(without(2));
    });

    it("works on a table without key ordered by 'ctid'", async () => {
      await reset();
      expectStatus(await api.request('DELETE', '/lim_items_no_pk?order=ctid&limit=1&offset=1'), 204);
      expect(await rows('lim_items_no_pk')).toEqual(without(2));
    });

    it('ignores the Range header', async () => {
      await reset();
      expectStatus(
        await api.request('DELETE', '/lim_items', { headers: { 'range-unit': 'items', range: '0-0' } }),
        204,
      );
      expect(await rows('lim_items')).toEqual([]);
      await reset();
      expectStatus(
        await api.request('DELETE', '/lim_items?id=gte.2', { headers: { 'range-unit': 'items', range: '0-0' } }),
        204,
      );
      expect(await rows('lim_items')).toEqual([BEFORE[0]]);
      await reset();
      expectStatus(
        await api.request('DELETE', '/lim_items?order=id', { headers: { 'range-unit': 'items', range: '0-0' } }),
        204,
      );
      expect(await rows('lim_items')).toEqual([]);
      await reset();
      expectStatus(
        await api.request('DELETE', '/lim_items?order=id&limit=1&offset=1', {
          headers: { 'range-unit': 'items', range: '0-0' },
        }),
        204,
      );
      expect(await rows('lim_items')).toEqual(without(2));
      await reset();
      expectStatus(
        await api.request('DELETE', '/lim_items?order=id&limit=2&offset=1', {
          headers: { 'range-unit': 'items', range: '1-1' },
        }),
        204,
      );
      expect(await rows('lim_items')).toEqual([BEFORE[0]]);
    });
  });

  describe('PATCH', () => {
    it('applies order and limit', async () => {
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items?order=id&limit=2', { body: PATCH_BODY }), 204);
      expect(await rows('lim_items')).toEqual(updated(1, 2));
    });

    it('applies limit after the filters', async () => {
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items?order=id&limit=1&id=gt.2', { body: PATCH_BODY }), 204);
      expect(await rows('lim_items')).toEqual(updated(3));
    });

    it('applies limit and offset', async () => {
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items?order=id&limit=1&offset=1', { body: PATCH_BODY }), 204);
      expect(await rows('lim_items')).toEqual(updated(2));
    });

    it('a limit without order is 400 / PGRST109', async () => {
      await reset();
      expectError(await api.request('PATCH', '/lim_items?limit=1&offset=1', { body: PATCH_BODY }), 400, {
        code: 'PGRST109',
        message: "A 'limit' was applied without an explicit 'order'",
        details: null,
        hint: "Apply an 'order' using unique column(s)",
      });
      expect(await rows('lim_items')).toEqual(BEFORE);
    });

    it('ordering by a non-unique column that matches too many rows is 400 / PGRST110', async () => {
      await reset();
      expectError(
        await api.request('PATCH', '/lim_items_nonunique_view?order=static&limit=1', { body: PATCH_BODY }),
        400,
        {
          code: 'PGRST110',
          message: 'The maximum number of rows allowed to change was surpassed',
          details: 'Results contain 3 rows changed but the maximum number allowed is 1',
          hint: null,
        },
      );
      expect(await rows('lim_items')).toEqual(BEFORE);
    });

    it('works on views ordered by a unique column or a composite key', async () => {
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items_view?order=id&limit=1&offset=1', { body: PATCH_BODY }), 204);
      expect(await rows('lim_items')).toEqual(updated(2));
      expectStatus(
        await api.request('PATCH', '/lim_items_cpk_view?order=id,name&limit=1&offset=1', { body: PATCH_BODY }),
        204,
      );
      expect(await rows('lim_items_cpk')).toEqual(updated(2));
    });

    it("works on a table without key ordered by 'ctid'", async () => {
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items_no_pk?order=ctid&limit=1', { body: PATCH_BODY }), 204);
      expect(await rows('lim_items_no_pk')).toEqual(updated(1));
    });

    it('ignores the Range header', async () => {
      const range = { 'range-unit': 'items', range: '0-0' };
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items', { headers: range, body: PATCH_BODY }), 204);
      expect(await rows('lim_items')).toEqual(updated(1, 2, 3));
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items?id=gte.2', { headers: range, body: PATCH_BODY }), 204);
      expect(await rows('lim_items')).toEqual(updated(2, 3));
      await reset();
      expectStatus(await api.request('PATCH', '/lim_items?order=id', { headers: range, body: PATCH_BODY }), 204);
      expect(await rows('lim_items')).toEqual(updated(1, 2, 3));
      await reset();
      expectStatus(
        await api.request('PATCH', '/lim_items?order=id&limit=1&offset=1', { headers: range, body: PATCH_BODY }),
        204,
      );
      expect(await rows('lim_items')).toEqual(updated(2));
      await reset();
      expectStatus(
        await api.request('PATCH', '/lim_items?order=id&limit=2&offset=1', {
          headers: { 'range-unit': 'items', range: '1-1' },
          body: PATCH_BODY,
        }),
        204,
      );
      expect(await rows('lim_items')).toEqual(updated(2, 3));
    });
  });
});

describe('PgSafeUpdateSpec (pg-safeupdate not loaded)', () => {
  it('updates every row without a filter', async () => {
    expectStatus(await api.request('PATCH', '/empty_box', { body: { extra: 1 } }), 204);
  });

  it('deletes every row without a filter', async () => {
    expectStatus(await api.request('DELETE', '/empty_box'), 204);
  });
});

describe('Preferences/HandlingSpec', () => {
  it('handling=strict lists every invalid preference, from all Prefer values', async () => {
    // Several Prefer headers reach the engine joined with ", " (RFC 9110 field combination).
    expectError(await api.get('/widgets', { prefer: 'handling=strict, something, else' }), 400, {
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: something, else',
      hint: null,
    });
  });

  it('handling=strict refuses a POST with an invalid preference', async () => {
    expectError(
      await api.request('POST', '/clubs?select=*', {
        headers: { prefer: 'return=representation, handling=strict, anything' },
        body: { id: 7, name: 'John', manager_id: 6 },
      }),
      400,
      { code: 'PGRST122', details: 'Invalid preferences: anything', hint: null },
    );
    expect(await sql('select id from test.clubs where id = 7')).toEqual([]);
  });

  it('handling=strict refuses an RPC with an invalid preference', async () => {
    expectError(
      await api.request('POST', '/rpc/just_one', {
        headers: { prefer: 'handling=strict, anything' },
        body: {},
      }),
      400,
      {
        code: 'PGRST122',
        message: 'Invalid preferences given with handling=strict',
        details: 'Invalid preferences: anything',
      },
    );
  });

  it('handling=lenient ignores invalid preferences on GET, POST and RPC', async () => {
    expectStatus(await api.get('/widgets', { prefer: 'handling=lenient, anything' }), 200);
    const post = await api.request('POST', '/clubs?select=*', {
      headers: { prefer: 'return=representation, handling=lenient, anything' },
      body: { id: 7, name: 'John', manager_id: 6 },
    });
    expectStatus(post, 201);
    expect(post.headers['content-type']).toBe(JSON_CT);
    expect(post.json).toEqual([{ id: 7, name: 'John', manager_id: 6 }]);
    const rpc = await api.request('POST', '/rpc/just_one', {
      headers: { prefer: 'handling=lenient, anything' },
      body: {},
    });
    expectStatus(rpc, 200);
    expect(rpc.headers['content-type']).toBe(JSON_CT);
    expect(rpc.json).toBe(1);
  });
});

describe('Preferences/MaxAffectedSpec', () => {
  async function refill(): Promise<void> {
    await sql('delete from test.counted');
    await sql('insert into test.counted (id) select generate_series(1, 15)');
  }

  it('handling=strict refuses a DELETE over the limit (400 / PGRST124)', async () => {
    await refill();
    expectError(
      await api.request('DELETE', '/counted?id=lt.15', { headers: { prefer: 'handling=strict, max-affected=10' } }),
      400,
      {
        code: 'PGRST124',
        message: 'Query result exceeds max-affected preference constraint',
        details: 'The query affects 14 rows',
        hint: null,
      },
    );
    expect(await sql('select count(*)::int as n from test.counted')).toEqual([{ n: 15 }]);
  });

  it('handling=strict lets a DELETE within the limit through and echoes both', async () => {
    await refill();
    const res = await api.request('DELETE', '/counted?id=lt.10', {
      headers: { prefer: 'handling=strict, max-affected=10' },
    });
    expectStatus(res, 204);
    expect(res.headers['preference-applied']).toBe('handling=strict, max-affected=10');
  });

  it('handling=strict refuses a PATCH over max-affected=0', async () => {
    expectError(
      await api.request('PATCH', '/langs?name=eq.C', {
        headers: { prefer: 'handling=strict, max-affected=0' },
        body: [{ name: 'C', rank: 19 }],
      }),
      400,
      { code: 'PGRST124', details: 'The query affects 1 rows' },
    );
  });

  it('handling=strict lets a DELETE of exactly max-affected rows through', async () => {
    const res = await api.request('DELETE', '/langs?name=eq.C', {
      headers: { prefer: 'handling=strict, max-affected=1' },
    });
    expectStatus(res, 204);
    expect(res.headers['preference-applied']).toBe('handling=strict, max-affected=1');
  });

  it('handling=lenient ignores max-affected and only echoes handling', async () => {
    await refill();
    const over = await api.request('DELETE', '/counted?id=lt.15', {
      headers: { prefer: 'handling=lenient, max-affected=10' },
    });
    expectStatus(over, 204);
    expect(over.headers['preference-applied']).toBe('handling=lenient');
    const patch = await api.request('PATCH', '/langs?name=eq.Python', {
      headers: { prefer: 'handling=lenient, max-affected=0' },
      body: [{ name: 'Python', rank: 19 }],
    });
    expectStatus(patch, 204);
    expect(patch.headers['preference-applied']).toBe('handling=lenient');
  });

  for (const fn of ['purge_counted_setof', 'purge_counted_table']) {
    it(`an RPC deleting more rows than allowed is 400 / PGRST124 (${fn})`, async () => {
      await refill();
      expectError(
        await api.request('POST', `/rpc/${fn}`, { headers: { prefer: 'handling=strict, max-affected=10' }, body: '' }),
        400,
        {
          code: 'PGRST124',
          message: 'Query result exceeds max-affected preference constraint',
          details: 'The query affects 15 rows',
          hint: null,
        },
      );
      expect(await sql('select count(*)::int as n from test.counted')).toEqual([{ n: 15 }]);
    });

    it(`an RPC within the limit answers its rows (${fn})`, async () => {
      await refill();
      const res = await api.request('POST', `/rpc/${fn}`, {
        headers: { prefer: 'handling=strict, max-affected=20' },
        body: '',
      });
      expectStatus(res, 200);
      expect(res.json).toEqual(Array.from({ length: 15 }, (_, i) => ({ id: i + 1 })));
    });
  }

  it('an RPC not returning a set is 400 / PGRST128 with max-affected and handling=strict', async () => {
    expectError(
      await api.request('POST', '/rpc/purge_counted_void', {
        headers: { prefer: 'handling=strict, max-affected=20' },
        body: '',
      }),
      400,
      {
        code: 'PGRST128',
        message: 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
        details: null,
        hint: null,
      },
    );
  });
});

describe('Preferences/TimezoneSpec', () => {
  const LOS_ANGELES = [
    { t: '2023-10-18T05:37:59.611-07:00' },
    { t: '2023-10-18T07:37:59.611-07:00' },
    { t: '2023-10-18T09:37:59.611-07:00' },
  ];
  const UTC = [
    { t: '2023-10-18T12:37:59.611+00:00' },
    { t: '2023-10-18T14:37:59.611+00:00' },
    { t: '2023-10-18T16:37:59.611+00:00' },
  ];

  it('applies the zone with handling=strict and echoes both', async () => {
    const res = await api.get('/moments', { prefer: 'handling=strict, timezone=America/Los_Angeles' });
    expect(expectRows(res)).toEqual(LOS_ANGELES);
    expect(res.headers['preference-applied']).toBe('handling=strict, timezone=America/Los_Angeles');
  });

  it('applies the zone without handling', async () => {
    const res = await api.get('/moments', { prefer: 'timezone=America/Los_Angeles' });
    expect(expectRows(res)).toEqual(LOS_ANGELES);
    expect(res.headers['preference-applied']).toBe('timezone=America/Los_Angeles');
  });

  it('refuses an unknown zone with handling=strict (400 / PGRST122)', async () => {
    expectError(await api.get('/moments', { prefer: 'handling=strict, timezone=Invalid/Timezone' }), 400, {
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: timezone=Invalid/Timezone',
      hint: null,
    });
  });

  it('keeps the default zone for an unknown one, leniently', async () => {
    const plain = await api.get('/moments', { prefer: 'timezone=Invalid/Timezone' });
    expect(expectRows(plain)).toEqual(UTC);
    expect(plain.headers['preference-applied']).toBeUndefined();
    const lenient = await api.get('/moments', { prefer: 'handling=lenient, timezone=Invalid/Timezone' });
    expect(expectRows(lenient)).toEqual(UTC);
    expect(lenient.headers['preference-applied']).toBe('handling=lenient');
  });
});

describe('column privileges (InsertSpec, UpdateSpec, DeleteSpec "limited privileges")', () => {
  let limited: Awaited<ReturnType<typeof startVariant>>;
  beforeAll(async () => {
    limited = await startVariant(api, { anonRole: 'pgrest_spec_writes_anon' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('inserts when the representation selects only readable columns', async () => {
    const res = await limited.request('POST', '/stars?select=article_id,user_id', {
      headers: REP,
      body: { article_id: 2, user_id: 1 },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ article_id: 2, user_id: 1 }]);
  });

  it('an anonymous representation reading a forbidden column is 401 / 42501', async () => {
    expectError(
      await limited.request('POST', '/stars?select=article_id,user_id,created_at', {
        headers: REP,
        body: { article_id: 2, user_id: 2 },
      }),
      401,
      { code: '42501', message: 'permission denied for table stars', details: null, hint: null },
    );
    expectError(await limited.request('POST', '/stars', { headers: REP, body: { article_id: 3, user_id: 1 } }), 401, {
      code: '42501',
      message: 'permission denied for table stars',
    });
  });

  it('inserts into an insert-only table with return=minimal', async () => {
    const res = await limited.request('POST', '/drop_box', {
      headers: { prefer: 'return=minimal' },
      body: { v: 'some value' },
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  it('updates a row without select (204), with or without return=minimal', async () => {
    const minimal = await limited.request('PATCH', '/accounts?id=eq.1', {
      headers: { prefer: 'return=minimal' },
      body: { password: 'passxyz' },
    });
    expectStatus(minimal, 204);
    expect(minimal.headers['content-type']).toBeUndefined();
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
    const plain = await limited.request('PATCH', '/accounts?id=eq.1', { body: { password: 'passabc' } });
    expectStatus(plain, 204);
  });

  it('deletes: 401 when the representation reads every column, 200 with readable ones, 204 without', async () => {
    expectError(await limited.request('DELETE', '/accounts?id=eq.1', { headers: REP }), 401, { code: '42501' });
    const picked = await limited.request('DELETE', '/accounts?id=eq.1&select=id,email', { headers: REP });
    expectStatus(picked, 200);
    expect(picked.headers['content-range']).toBe('*/*');
    expect(picked.json).toEqual([{ id: 1, email: 'one@example.com' }]);
    const minimal = await limited.request('DELETE', '/accounts?id=eq.2', { headers: { prefer: 'return=minimal' } });
    expectStatus(minimal, 204);
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
    expectStatus(await limited.request('DELETE', '/accounts?id=eq.3'), 204);
  });
});
