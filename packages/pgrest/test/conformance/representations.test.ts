import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Conformance,
  CSV_CT,
  JSON_CT,
  expectError,
  expectRows,
  expectStatus,
  ids,
  startConformance,
} from './helpers.js';

// Data representations ("domain representations" in PostgREST's documentation): a column whose
// type is a domain with implicit casts through functions is formatted in JSON output by the
// `domain AS json` cast, read from JSON bodies by the `json AS domain` cast and read from filter
// values by the `text AS domain` cast. The cases follow the data representation cases of
// PostgREST 14's QuerySpec.hs, InsertSpec.hs and UpdateSpec.hs, on this file's own fixtures
// (representations-fixtures.sql), whose rows mirror theirs.

const EXTRA_SQL = readFileSync(new URL('./representations-fixtures.sql', import.meta.url), 'utf8');

let api: Conformance;
beforeAll(async () => {
  api = await startConformance({ extraSql: EXTRA_SQL });
});
afterAll(async () => {
  await api?.close();
});

/** The seeded errands, every column formatted. */
const ERRAND_1 = {
  id: 1,
  title: 'Report',
  tint: '#000000',
  due_on: '2018-01-02T00:00:00Z',
  thumb: 'iVBORw0KGgo=',
  logged_at: 1513213350,
  cost: '12.50',
};
const ERRAND_2 = {
  id: 2,
  title: 'Essay',
  tint: '#000100',
  due_on: '2018-01-03T00:00:00Z',
  thumb: null,
  logged_at: 1513213350,
  cost: '100000000000000.13',
};
const ERRAND_3 = {
  id: 3,
  title: 'Algebra',
  tint: '#01E240',
  due_on: '2018-01-01T14:12:34.123456Z',
  thumb: null,
  logged_at: 1513213350,
  cost: '0.00',
};

const REPRESENTATION = { Prefer: 'return=representation' };

describe('formatting in output', () => {
  it('formats a selected column', async () => {
    expect(expectRows(await api.get('/errands?select=id,tint&id=lt.4'))).toEqual([
      { id: 1, tint: '#000000' },
      { id: 2, tint: '#000100' },
      { id: 3, tint: '#01E240' },
    ]);
  });

  it('formats two columns with their own functions', async () => {
    expect(expectRows(await api.get('/errands?select=id,tint,due_on&id=lt.4'))).toEqual([
      { id: 1, tint: '#000000', due_on: '2018-01-02T00:00:00Z' },
      { id: 2, tint: '#000100', due_on: '2018-01-03T00:00:00Z' },
      { id: 3, tint: '#01E240', due_on: '2018-01-01T14:12:34.123456Z' },
    ]);
  });

  it('still refuses an unknown column', async () => {
    expectError(await api.get('/errands?select=id,tint,banana'), 400, {
      code: '42703',
      message: 'column errands.banana does not exist',
    });
  });

  it('formats the columns of a view, a computed one included', async () => {
    expect(expectRows(await api.get('/errands_shaded?select=id,tint,shade&order=id'))).toEqual([
      { id: 1, tint: '#000000', shade: '#000000' },
      { id: 2, tint: '#000100', shade: '#000080' },
      { id: 3, tint: '#01E240', shade: '#00F120' },
      { id: 4, tint: '', shade: '' },
    ]);
  });

  it('formats an aliased column', async () => {
    expect(expectRows(await api.get('/errands?select=id,colour:tint&id=lt.4'))).toEqual([
      { id: 1, colour: '#000000' },
      { id: 2, colour: '#000100' },
      { id: 3, colour: '#01E240' },
    ]);
  });

  it('casts the formatted JSON value (::text gives its JSON text)', async () => {
    expect(expectRows(await api.get('/errands?select=id,colour:tint::text&id=lt.4'))).toEqual([
      { id: 1, colour: '"#000000"' },
      { id: 2, colour: '"#000100"' },
      { id: 3, colour: '"#01E240"' },
    ]);
  });

  it('leaves NULL to the formatting function', async () => {
    // The tint function turns NULL into "", the zulu one keeps it null.
    expect(expectRows(await api.get('/errands?select=id,tint,due_on&id=gt.2&id=lt.5'))).toEqual([
      { id: 3, tint: '#01E240', due_on: '2018-01-01T14:12:34.123456Z' },
      { id: 4, tint: '', due_on: null },
    ]);
  });

  it('formats every column of select=*', async () => {
    expect(expectRows(await api.get('/errands?select=*&id=lt.4'))).toEqual([ERRAND_1, ERRAND_2, ERRAND_3]);
  });

  it('formats every column without a select', async () => {
    expect(expectRows(await api.get('/errands?id=lt.4'))).toEqual([ERRAND_1, ERRAND_2, ERRAND_3]);
  });

  it('spells * out where it stands, after a named column', async () => {
    const res = await api.get('/errands?select=due_on,*&id=eq.1');
    expectStatus(res, 200);
    expect(res.text).toBe(
      '[{"due_on":"2018-01-02T00:00:00Z","id":1,"title":"Report","tint":"#000000","due_on":"2018-01-02T00:00:00Z",' +
        '"thumb":"iVBORw0KGgo=","logged_at":1513213350,"cost":"12.50"}]',
    );
  });

  it('formats the columns of an embedded resource', async () => {
    expect(
      expectRows(
        await api.get(
          '/errand_pairs?select=id,label,first:errands!errand_pairs_first_errand_fkey(tint,due_on)&order=id',
        ),
      ),
    ).toEqual([
      { id: 1, label: 'school related', first: { tint: '#000100', due_on: '2018-01-03T00:00:00Z' } },
      { id: 2, label: 'do these first', first: { tint: '#000000', due_on: '2018-01-02T00:00:00Z' } },
    ]);
  });

  it('formats the columns of an embedded resource selected with *', async () => {
    expect(
      expectRows(
        await api.get('/errand_pairs?select=id,label,second:errands!errand_pairs_second_errand_fkey(*)&order=id'),
      ),
    ).toEqual([
      { id: 1, label: 'school related', second: ERRAND_3 },
      { id: 2, label: 'do these first', second: ERRAND_3 },
    ]);
  });

  it('formats the columns a to-one spread lifts', async () => {
    expect(
      expectRows(await api.get('/errand_pairs?select=id,...errands!errand_pairs_first_errand_fkey(tint)&order=id')),
    ).toEqual([
      { id: 1, tint: '#000100' },
      { id: 2, tint: '#000000' },
    ]);
  });

  it('formats the rows a function returns, and parses filters on them', async () => {
    expect(expectRows(await api.get('/rpc/first_errands?n=3&select=id,tint,due_on&tint=neq.000100'))).toEqual([
      { id: 1, tint: '#000000', due_on: '2018-01-02T00:00:00Z' },
      { id: 3, tint: '#01E240', due_on: '2018-01-01T14:12:34.123456Z' },
    ]);
  });

  it('formats the values of a CSV body too', async () => {
    const res = await api.get('/errands?select=id,tint&id=lt.3&order=id', { Accept: 'text/csv' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(CSV_CT);
    expect(res.text).toBe('id,tint\n1,"""#000000"""\n2,"""#000100"""');
  });

  it('orders by the stored value, not the formatted one', async () => {
    // As text, "12.50" would sort after "100000000000000.13".
    expect(ids(await api.get('/errands?select=id&id=lt.4&order=cost.desc'))).toEqual([2, 1, 3]);
  });

  it('ignores a domain cast that is not implicit', async () => {
    expect(expectRows(await api.get('/slogans'))).toEqual([{ id: 1, words: 'quiet please' }]);
  });
});

describe('parsing filter values', () => {
  it('reads an eq value through the text cast', async () => {
    expect(expectRows(await api.get('/errands?select=id,due_on&tint=eq.000100'))).toEqual([
      { id: 2, due_on: '2018-01-03T00:00:00Z' },
    ]);
  });

  it('reads comparison values through the text cast', async () => {
    expect(ids(await api.get('/errands?select=id&tint=gt.000100&order=id'))).toEqual([3]);
    expect(ids(await api.get('/errands?select=id&tint=gte.%23000100&order=id'))).toEqual([2, 3]);
    expect(ids(await api.get('/errands?select=id&tint=neq.000000&order=id'))).toEqual([2, 3]);
  });

  it('does not fall back on the JSON cast when there is no text cast', async () => {
    // The JSON parser would have read the "Z" and failed differently.
    expectError(await api.get('/errands?select=id,due_on&due_on=eq.Z'), 400, {
      code: '22007',
      message: 'invalid input syntax for type timestamp with time zone: "Z"',
      details: null,
      hint: null,
    });
  });

  it('reads each in value through the text cast', async () => {
    expect(expectRows(await api.get('/errands?select=id,due_on&tint=in.(000100,01E240)&order=id'))).toEqual([
      { id: 2, due_on: '2018-01-03T00:00:00Z' },
      { id: 3, due_on: '2018-01-01T14:12:34.123456Z' },
    ]);
  });

  it('reads each not.in value through the text cast', async () => {
    expect(expectRows(await api.get('/errands?select=id,due_on&tint=not.in.(000000,01E240)'))).toEqual([
      { id: 2, due_on: '2018-01-03T00:00:00Z' },
    ]);
  });

  it('reads the filter of an embedded resource through the text cast', async () => {
    expect(
      expectRows(
        await api.get(
          '/errand_pairs?select=id,label,errands!errand_pairs_first_errand_fkey(tint,due_on)&errands.tint=neq.000100&order=id',
        ),
      ),
    ).toEqual([
      { id: 1, label: 'school related', errands: null },
      { id: 2, label: 'do these first', errands: { tint: '#000000', due_on: '2018-01-02T00:00:00Z' } },
    ]);
  });

  it('counts with the parsed filter', async () => {
    const res = await api.get('/errands?select=id&tint=eq.01E240', { Prefer: 'count=exact' });
    expect(ids(res)).toEqual([3]);
    expect(res.headers['content-range']).toBe('0-0/1');
  });

  it('leaves a pattern unparsed, which the domain has no operator for', async () => {
    expectError(await api.get('/errands?select=id,title&tint=ilike.%23*100'), 404, {
      code: '42883',
      message: 'operator does not exist: reps.tint ~~* unknown',
      details: null,
      hint: 'No operator matches the given name and argument types. You might need to add explicit type casts.',
    });
  });

  it('answers the error the text cast function raises', async () => {
    expectError(await api.get('/errands?select=id&tint=eq.zz'), 400, {
      code: '22P02',
      message: '"z" is not a valid hexadecimal digit',
    });
  });
});

describe('parsing request bodies', () => {
  beforeEach(async () => {
    await api.db.pool.query('SELECT reps.reset_errands()');
  });

  const PARTY = { id: 5, title: 'party', tint: '#001100', due_on: '2018-01-03T11:00:00+00' };

  it('POST reads the values through the JSON casts', async () => {
    const res = await api.request('POST', '/errands', { headers: { Prefer: 'return=headers-only' }, body: PARTY });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers.location).toBe('/errands?id=eq.5');
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.text).toBe('');
    const stored = await api.db.pool.query<{ tint: number; due: string }>(
      `SELECT tint::int AS tint, to_char(due_on AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS due FROM test.errands WHERE id = 5`,
    );
    expect(stored.rows).toEqual([{ tint: 0x1100, due: '2018-01-03 11:00' }]);
  });

  it('POST formats the selected columns of its representation', async () => {
    const res = await api.request('POST', '/errands?select=id,tint', { headers: REPRESENTATION, body: PARTY });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.json).toEqual([{ id: 5, tint: '#001100' }]);
  });

  it('POST round-trips every represented column', async () => {
    const res = await api.request('POST', '/errands', {
      headers: REPRESENTATION,
      body: { ...PARTY, thumb: '3q2+7w', logged_at: -15, cost: '-100000000000000.13' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([
      {
        id: 5,
        title: 'party',
        tint: '#001100',
        due_on: '2018-01-03T11:00:00Z',
        thumb: '3q2+7w==',
        logged_at: -15,
        cost: '-100000000000000.13',
      },
    ]);
  });

  it('POST with columns= reads only the listed keys', async () => {
    const res = await api.request('POST', '/errands?columns=id,tint&select=id,title,tint,due_on', {
      headers: REPRESENTATION,
      body: { ...PARTY, due_on: 'invalid but should be ignored' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ id: 5, title: null, tint: '#001100', due_on: '2018-01-01T00:00:00Z' }]);
  });

  it('POST with columns= naming an unknown column parses nothing', async () => {
    const res = await api.request('POST', '/errands?columns=id,tint,helicopters&select=id,title,tint,due_on', {
      headers: REPRESENTATION,
      body: { due_on: '2019-01-03T11:00:00+00', smth: 'here', tint: 'invalid', fake_id: 13 },
    });
    expectError(res, 400, {
      code: 'PGRST204',
      message: "Could not find the 'helicopters' column of 'errands' in the schema cache",
      details: null,
      hint: null,
    });
  });

  it('POST on an updatable view reads and formats the same way', async () => {
    const headersOnly = await api.request('POST', '/errands_shaded', {
      headers: { Prefer: 'return=headers-only' },
      body: PARTY,
    });
    expectStatus(headersOnly, 201);
    expect(headersOnly.headers.location).toBe('/errands_shaded?id=eq.5');
    await api.db.pool.query('SELECT reps.reset_errands()');
    const res = await api.request('POST', '/errands_shaded', { headers: REPRESENTATION, body: PARTY });
    expectStatus(res, 201);
    expect(res.json).toEqual([
      { id: 5, title: 'party', tint: '#001100', due_on: '2018-01-03T11:00:00Z', shade: '#000880' },
    ]);
  });

  it('POST on a view with columns= reads only the listed keys', async () => {
    const res = await api.request('POST', '/errands_shaded?columns=id,tint&select=id,title,tint,due_on', {
      headers: REPRESENTATION,
      body: { ...PARTY, due_on: 'invalid but should be ignored' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ id: 5, title: null, tint: '#001100', due_on: '2018-01-01T00:00:00Z' }]);
  });

  it('POST with missing=default fills absent keys with defaults', async () => {
    const res = await api.request('POST', '/errands?columns=id,tint,due_on&select=id,tint,due_on', {
      headers: { Prefer: 'return=representation, missing=default' },
      body: [
        { id: 6, tint: '#0000FF' },
        { id: 7, due_on: '2020-02-02T00:00:00Z' },
      ],
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([
      { id: 6, tint: '#0000FF', due_on: '2018-01-01T00:00:00Z' },
      { id: 7, tint: '#000000', due_on: '2020-02-02T00:00:00Z' },
    ]);
  });

  it('an upsert reads the values through the JSON casts', async () => {
    const res = await api.request('POST', '/errands?select=id,tint', {
      headers: { Prefer: 'return=representation, resolution=merge-duplicates' },
      body: [{ id: 1, tint: '#000002' }],
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 1, tint: '#000002' }]);
  });

  it('PUT reads the values through the JSON casts', async () => {
    const res = await api.request('PUT', '/errands?id=eq.8&select=id,tint,cost', {
      headers: REPRESENTATION,
      body: { id: 8, title: 'new', tint: '#000001', cost: '3.10' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ id: 8, tint: '#000001', cost: '3.10' }]);
  });

  it('answers the error the JSON cast function raises', async () => {
    const res = await api.request('POST', '/errands', { body: { id: 9, tint: '#zz' } });
    expectError(res, 400, { code: '22P02', message: '"z" is not a valid hexadecimal digit' });
  });

  it('a domain without representations keeps its default', async () => {
    const res = await api.request('POST', '/counters', { headers: REPRESENTATION, body: { name: 'x' } });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ id: 42, name: 'x' }]);
  });

  it('PATCH reads the values through the JSON casts', async () => {
    const res = await api.request('PATCH', '/errands_shaded?id=eq.2', {
      headers: { Prefer: 'return=headers-only' },
      body: { tint: '#221100', due_on: '2019-01-03T11:00:00Z' },
    });
    expectStatus(res, 204);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-range']).toBe('0-0/*');
  });

  it('PATCH formats the selected columns of its representation', async () => {
    const res = await api.request('PATCH', '/errands_shaded?id=eq.2&select=id,tint', {
      headers: REPRESENTATION,
      body: { tint: '#221100', due_on: '2019-01-03T11:00:00Z' },
    });
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-0/*');
    expect(res.headers['preference-applied']).toBe('return=representation');
    expect(res.json).toEqual([{ id: 2, tint: '#221100' }]);
  });

  it('PATCH formats every column of its representation', async () => {
    const res = await api.request('PATCH', '/errands_shaded?id=eq.2', {
      headers: REPRESENTATION,
      body: { tint: '#221100', due_on: '2019-01-03T11:00:20Z' },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([
      { id: 2, title: 'Essay', tint: '#221100', shade: '#110880', due_on: '2019-01-03T11:00:20Z' },
    ]);
  });

  it('PATCH of several rows formats each', async () => {
    const res = await api.request('PATCH', '/errands_shaded?id=lt.4&select=id,title,tint,shade&order=id', {
      headers: REPRESENTATION,
      body: { tint: '#221100', due_on: '2019-01-03T11:00:00Z' },
    });
    expectStatus(res, 200);
    expect(res.headers['content-range']).toBe('0-2/*');
    expect(res.json).toEqual([
      { id: 1, title: 'Report', tint: '#221100', shade: '#110880' },
      { id: 2, title: 'Essay', tint: '#221100', shade: '#110880' },
      { id: 3, title: 'Algebra', tint: '#221100', shade: '#110880' },
    ]);
  });

  it('PATCH with columns= reads only the listed keys', async () => {
    const res = await api.request('PATCH', '/errands_shaded?id=eq.2&columns=due_on', {
      headers: REPRESENTATION,
      body: { due_on: '2019-01-03T11:00:00Z', smth: 'here', tint: 'invalid', fake_id: 13 },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([
      { id: 2, title: 'Essay', tint: '#000100', shade: '#000080', due_on: '2019-01-03T11:00:00Z' },
    ]);
  });

  it('PATCH with columns= naming an unknown column fails', async () => {
    const res = await api.request('PATCH', '/errands_shaded?id=eq.2&columns=tint,helicopters', {
      headers: REPRESENTATION,
      body: { due_on: '2019-01-03T11:00:00Z', smth: 'here', tint: 'invalid', fake_id: 13 },
    });
    expectError(res, 400, {
      code: 'PGRST204',
      message: "Could not find the 'helicopters' column of 'errands_shaded' in the schema cache",
    });
  });

  it('PATCH matching no row does not parse the payload', async () => {
    const res = await api.request('PATCH', '/errands_shaded?id=eq.2001&columns=tint', {
      headers: REPRESENTATION,
      body: { due_on: '2019-01-03T11:00:00Z', smth: 'here', tint: 'invalid', fake_id: 13 },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([]);
  });

  it('PATCH and DELETE filters go through the text cast', async () => {
    const patched = await api.request('PATCH', '/errands?tint=eq.01E240&select=id,tint', {
      headers: REPRESENTATION,
      body: { tint: '#000003' },
    });
    expectStatus(patched, 200);
    expect(patched.json).toEqual([{ id: 3, tint: '#000003' }]);
    expectStatus(await api.request('POST', '/errands', { body: { id: 10, tint: '#0000AA' } }), 201);
    const deleted = await api.request('DELETE', '/errands?tint=in.(0000AA,0000AB)&select=id,tint', {
      headers: REPRESENTATION,
    });
    expectStatus(deleted, 200);
    expect(deleted.json).toEqual([{ id: 10, tint: '#0000AA' }]);
  });
});
