import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSV_CT,
  type Conformance,
  JSON_CT,
  OBJECT_CT,
  SINGULAR,
  expectError,
  expectStatus,
  startConformance,
  startVariant,
} from './helpers.js';

// Content negotiation: singular objects, CSV, unknown media types, schema profiles.
// Sources: PostgREST docs "Resource Representation" (singular or plural, builtin media types,
// 406 for anything else), "Schemas" (Accept-Profile); test/spec/Feature/Query/SingularSpec.hs,
// QuerySpec.hs ("Accept headers"), InsertSpec.hs (CSV); src/PostgREST/Error.hs (PGRST106,
// PGRST107, PGRST116 texts; errors are always application/json); the CSV body is built by
// PostgREST from each row's record text, so values with spaces or commas come double-quoted.

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

describe('singular object (Accept: application/vnd.pgrst.object+json)', () => {
  it('returns the single row as an object', async () => {
    const res = await api.get('/authors?id=eq.2', { accept: SINGULAR });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(OBJECT_CT);
    expect(res.json).toEqual({ id: 2, name: 'Stanislaw Lem', birth_year: 1921, country: 'PL' });
  });

  it('also accepts the media type without +json', async () => {
    const res = await api.get('/authors?select=name&id=eq.2', { accept: 'application/vnd.pgrst.object' });
    expectStatus(res, 200);
    expect(res.json).toEqual({ name: 'Stanislaw Lem' });
  });

  it('shapes embedded resources inside the object', async () => {
    const res = await api.get('/books?select=title,authors(name)&id=eq.3', { accept: SINGULAR });
    expectStatus(res, 200);
    expect(res.json).toEqual({ title: 'Solaris', authors: { name: 'Stanislaw Lem' } });
  });

  it('is 406 / PGRST116 when no row matches', async () => {
    expectError(await api.get('/authors?id=eq.999', { accept: SINGULAR }), 406, {
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 0 rows',
      hint: null,
    });
  });

  it('is 406 / PGRST116 when several rows match', async () => {
    expectError(await api.get('/authors?country=eq.US', { accept: SINGULAR }), 406, {
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 2 rows',
      hint: null,
    });
  });

  it('applies to function results', async () => {
    const one = await api.get('/rpc/books_by_author?author=3&select=title', { accept: SINGULAR });
    expectStatus(one, 200);
    expect(one.json).toEqual({ title: 'Kindred' });
    expectError(await api.get('/rpc/books_by_author?author=1', { accept: SINGULAR }), 406, {
      code: 'PGRST116',
      details: 'The result contains 2 rows',
    });
  });

  it('lets a scalar function result through', async () => {
    const res = await api.get('/rpc/add?a=1&b=2', { accept: SINGULAR });
    expectStatus(res, 200);
    expect(res.json).toBe(3);
  });
});

describe('CSV (Accept: text/csv)', () => {
  it('returns a header line and one line per row, without a trailing newline', async () => {
    const res = await api.get('/gadgets?select=id,name,qty&order=id&limit=3', { accept: 'text/csv' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(CSV_CT);
    expect(res.text).toBe('id,name,qty\n1,Widget,10\n2,Gizmo,0\n3,Doohickey,5');
  });

  it('writes NULL as an empty field', async () => {
    const res = await api.get('/gadgets?select=id,price&id=eq.4', { accept: 'text/csv' });
    expect(res.text).toBe('id,price\n4,');
  });

  it('double-quotes values containing spaces, commas or quotes', async () => {
    const res = await api.get('/people?select=id,name&id=in.(1,2,4)&order=id', { accept: 'text/csv' });
    expectStatus(res, 200);
    expect(res.text).toBe('id,name\n1,"Doe, John"\n2,"Jane Roe"\n4,"Say ""cheese"""');
  });

  it('is chosen when it comes first, even before application/json', async () => {
    const res = await api.get('/publishers?select=id&order=id', { accept: 'text/csv, application/json' });
    expect(res.headers['content-type']).toBe(CSV_CT);
    expect(res.text).toBe('id\n1\n2\n3');
  });

  it('is chosen over */*', async () => {
    const res = await api.get('/publishers?select=id&order=id', { accept: 'text/csv, */*' });
    expect(res.headers['content-type']).toBe(CSV_CT);
  });

  it('applies to function results', async () => {
    const res = await api.get('/rpc/tag_names?id=lte.2', { accept: 'text/csv' });
    expectStatus(res, 200);
    expect(res.text).toBe('id,name\n1,classic\n2,scifi');
  });
});

describe('JSON and unknown media types', () => {
  it('answers JSON for Accept: application/json', async () => {
    const res = await api.get('/publishers?id=eq.1', { accept: 'application/json' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
  });

  it('answers JSON for Accept: */*', async () => {
    const res = await api.get('/publishers?id=eq.1', { accept: '*/*' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
  });

  it('answers JSON when there is no Accept header', async () => {
    const res = await api.get('/publishers?id=eq.1');
    expect(res.headers['content-type']).toBe(JSON_CT);
  });

  it('*/* rescues an unknown type listed before it', async () => {
    const res = await api.get('/publishers?id=eq.1', { accept: 'text/unknowntype, */*' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
  });

  it('picks the first available type of several', async () => {
    const res = await api.get('/publishers?select=id&id=eq.1', { accept: 'text/unknowntype, text/csv' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(CSV_CT);
  });

  it('is 406 / PGRST107 for a media type PostgREST cannot produce', async () => {
    expectError(await api.get('/publishers', { accept: 'text/unknowntype' }), 406, {
      code: 'PGRST107',
      message: 'None of these media types are available: text/unknowntype',
      details: null,
      hint: null,
    });
  });

  it('is 406 for an unknown media type on a function too', async () => {
    const res = await api.get('/rpc/add?a=1&b=2', { accept: 'audio/mpeg3' });
    expectError(res, 406, { code: 'PGRST107', message: 'None of these media types are available: audio/mpeg3' });
  });
});

describe('schema profiles', () => {
  it('Accept-Profile naming the exposed schema works', async () => {
    const res = await api.get('/publishers?id=eq.1', { 'accept-profile': 'test' });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 1, name: 'Ace' }]);
  });

  it('Accept-Profile naming a schema that is not exposed is 406 / PGRST106', async () => {
    expectError(await api.get('/secrets', { 'accept-profile': 'hidden' }), 406, {
      code: 'PGRST106',
      message: 'Invalid schema: hidden',
      details: null,
      hint: 'Only the following schemas are exposed: test',
    });
  });

  it('Content-Profile naming a schema that is not exposed is 406 / PGRST106', async () => {
    const res = await api.request('POST', '/secrets', {
      headers: { 'content-profile': 'hidden' },
      body: { id: 1, secret: 'x' },
    });
    expectError(res, 406, { code: 'PGRST106', message: 'Invalid schema: hidden' });
  });
});

describe('Prefer: timezone', () => {
  // test/spec/Feature/Query/Preferences/TimezoneSpec.hs: timestamptz values are rendered in the
  // requested zone and the preference is echoed.
  it('renders timestamptz in the database time zone by default', async () => {
    const res = await api.get('/chores?select=created_at&id=eq.1');
    expect(res.json).toEqual([{ created_at: '2024-06-01T12:00:00+00:00' }]);
  });

  it('renders timestamptz in the requested time zone and echoes it', async () => {
    const res = await api.get('/chores?select=created_at&id=eq.1', { prefer: 'timezone=America/Los_Angeles' });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ created_at: '2024-06-01T05:00:00-07:00' }]);
    expect(res.headers['preference-applied']).toBe('timezone=America/Los_Angeles');
  });
});

describe('several exposed schemas', () => {
  // test/spec/Feature/Query/MultipleSchemaSpec.hs: with more than one schema every response names
  // its schema in Content-Profile; the first schema is the default; Accept-Profile (reads) and
  // Content-Profile (writes) pick another one. QuerySpec.hs: a single schema sends no header.
  let multi: Conformance['request'];
  let closeMulti: () => Promise<void>;
  beforeAll(async () => {
    const variant = await startVariant(api, { schemas: ['test', 'hidden'] });
    multi = variant.request;
    closeMulti = variant.close;
  });
  afterAll(async () => {
    await closeMulti?.();
  });

  it('sends no Content-Profile when a single schema is exposed', async () => {
    const res = await api.get('/publishers?id=eq.1');
    expect(res.headers['content-profile']).toBeUndefined();
  });

  it('uses the first schema by default and names it in Content-Profile', async () => {
    const res = await multi('GET', '/publishers?id=eq.1');
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 1, name: 'Ace' }]);
    expect(res.headers['content-profile']).toBe('test');
  });

  it('reads another schema with Accept-Profile', async () => {
    const res = await multi('GET', '/secrets', { headers: { 'accept-profile': 'hidden' } });
    expectStatus(res, 200);
    expect(res.json).toEqual([]);
    expect(res.headers['content-profile']).toBe('hidden');
  });

  it('writes to another schema with Content-Profile', async () => {
    const res = await multi('POST', '/secrets', {
      headers: { 'content-profile': 'hidden', prefer: 'return=representation' },
      body: { id: 1, secret: 'sesame' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ id: 1, secret: 'sesame' }]);
    expect(res.headers['content-profile']).toBe('hidden');
  });

  it('does not find a table of the default schema in another one (404 / PGRST205)', async () => {
    expectError(await multi('GET', '/publishers', { headers: { 'accept-profile': 'hidden' } }), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'hidden.publishers' in the schema cache",
    });
  });

  it('lists every exposed schema in the PGRST106 hint', async () => {
    expectError(await multi('GET', '/publishers', { headers: { 'accept-profile': 'nope' } }), 406, {
      code: 'PGRST106',
      message: 'Invalid schema: nope',
      hint: 'Only the following schemas are exposed: test, hidden',
    });
  });
});
