import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Conformance, JSON_CT, expectError, expectRows, expectStatus, startConformance } from './helpers.js';

// Insert, update, upsert, PUT and delete.
// Sources: PostgREST docs "Tables and Views > Insert / Update / Upsert / Delete", "Preferences"
// (return=minimal|headers-only|representation, missing=default, resolution=...);
// test/spec/Feature/Query/InsertSpec.hs, UpdateSpec.hs, UpsertSpec.hs, DeleteSpec.hs,
// SingularSpec.hs; src/PostgREST/Response.hs (status codes, Location only for headers-only,
// Content-Range "*/*" on inserts and deletes, "a-b/*" on updates, Preference-Applied order:
// resolution, missing, return, count, tx).
//
// Tests run in file order against one database; each one touches its own rows.

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

/** Rows of a table straight from PostgreSQL, to check what a mutation really did. */
async function sql(text: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return (await api.db.pool.query(text, values)).rows as Array<Record<string, unknown>>;
}

const REP = { prefer: 'return=representation' };

describe('POST (insert)', () => {
  it('inserts one object: 201, empty body, no Content-Type, no Location', async () => {
    const res = await api.request('POST', '/chores', { body: { id: 10, title: 'one' } });
    expectStatus(res, 201);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-range']).toBe('*/*');
    expect(await sql('select title, done, priority from test.chores where id = 10')).toEqual([
      { title: 'one', done: false, priority: 3 },
    ]);
  });

  it('inserts an array of objects', async () => {
    const res = await api.request('POST', '/chores', {
      body: [
        { id: 11, title: 'a' },
        { id: 12, title: 'b' },
      ],
    });
    expectStatus(res, 201);
    expect((await sql('select id from test.chores where id in (11, 12) order by id')).map((r) => r.id)).toEqual([
      11, 12,
    ]);
  });

  it('return=representation answers the inserted rows', async () => {
    const res = await api.request('POST', '/chores?select=id,title,done,priority', {
      headers: REP,
      body: { id: 13, title: 'rep' },
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['preference-applied']).toBe('return=representation');
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.headers.location).toBeUndefined();
    expect(res.json).toEqual([{ id: 13, title: 'rep', done: false, priority: 3 }]);
  });

  it('return=representation with count=exact reports */n', async () => {
    const res = await api.request('POST', '/chores?select=id', {
      headers: { prefer: 'return=representation, count=exact' },
      body: [
        { id: 14, title: 'c1' },
        { id: 15, title: 'c2' },
      ],
    });
    expectStatus(res, 201);
    expect(res.headers['content-range']).toBe('*/2');
    expect(res.headers['preference-applied']).toBe('return=representation, count=exact');
  });

  it('return=representation can embed related rows', async () => {
    const res = await api.request('POST', '/chores?select=title,users(name)', {
      headers: REP,
      body: { id: 16, title: 'owned', owner_id: 2 },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ title: 'owned', users: { name: 'bob' } }]);
  });

  it('return=minimal answers nothing and echoes the preference', async () => {
    const res = await api.request('POST', '/chores', {
      headers: { prefer: 'return=minimal' },
      body: { id: 17, title: 'min' },
    });
    expectStatus(res, 201);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  it('return=headers-only answers a Location built from the primary key', async () => {
    const res = await api.request('POST', '/chores', {
      headers: { prefer: 'return=headers-only' },
      body: { id: 18, title: 'loc' },
    });
    expectStatus(res, 201);
    expect(res.text).toBe('');
    expect(res.headers.location).toBe('/chores?id=eq.18');
    expect(res.headers['content-range']).toBe('*/*');
    expect(res.headers['preference-applied']).toBe('return=headers-only');
  });

  it('return=headers-only with a composite primary key lists every key column', async () => {
    const res = await api.request('POST', '/grid', {
      headers: { prefer: 'return=headers-only' },
      body: { x: 3, y: 'c', val: 'three-c' },
    });
    expectStatus(res, 201);
    expect(res.headers.location).toBe('/grid?x=eq.3&y=eq.c');
  });

  it('return=headers-only on a table without primary key answers no Location', async () => {
    const res = await api.request('POST', '/logbook', {
      headers: { prefer: 'return=headers-only' },
      body: { entry: 'x', level: 'debug' },
    });
    expectStatus(res, 201);
    expect(res.headers.location).toBeUndefined();
  });

  it('leaves out columns absent from the object, so their defaults apply', async () => {
    const res = await api.request('POST', '/chores?select=priority,done', {
      headers: REP,
      body: { id: 19, title: 'defaults' },
    });
    expect(res.json).toEqual([{ priority: 3, done: false }]);
  });

  it('lets PostgreSQL read "now()" as a timestamp value', async () => {
    const res = await api.request('POST', '/chores?select=id', {
      headers: REP,
      body: { id: 20, title: 'timed', created_at: 'now()' },
    });
    expectStatus(res, 201);
    const [row] = await sql('select extract(epoch from now() - created_at) as age from test.chores where id = 20');
    expect(Math.abs(Number(row?.age))).toBeLessThan(60);
  });

  it('columns= inserts only the listed keys and ignores the others', async () => {
    const res = await api.request('POST', '/chores?columns=id,title&select=id,title,priority', {
      headers: REP,
      body: [
        { id: 21, title: 'cols', priority: 5, bogus: 'ignored' },
        { id: 22, title: 'cols2', other: 1 },
      ],
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([
      { id: 21, title: 'cols', priority: 3 },
      { id: 22, title: 'cols2', priority: 3 },
    ]);
  });

  it('columns= sends NULL for keys missing from an object', async () => {
    const res = await api.request('POST', '/chores?columns=id,title,priority&select=id,priority', {
      headers: REP,
      body: [
        { id: 23, title: 'p', priority: 2 },
        { id: 24, title: 'q' },
      ],
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([
      { id: 23, priority: 2 },
      { id: 24, priority: null },
    ]);
  });

  it('missing=default uses the column default for keys missing from an object', async () => {
    const res = await api.request('POST', '/chores?columns=id,title,priority&select=id,priority', {
      headers: { prefer: 'return=representation, missing=default' },
      body: [
        { id: 25, title: 'p', priority: 2 },
        { id: 26, title: 'q' },
      ],
    });
    expectStatus(res, 201);
    expect(res.headers['preference-applied']).toBe('missing=default, return=representation');
    expect(res.json).toEqual([
      { id: 25, priority: 2 },
      { id: 26, priority: 3 },
    ]);
  });

  it('an empty array inserts nothing (201, [] with representation)', async () => {
    const res = await api.request('POST', '/chores', { headers: REP, body: [] });
    expectStatus(res, 201);
    expect(res.json).toEqual([]);
  });

  it('accepts application/x-www-form-urlencoded bodies', async () => {
    const res = await api.request('POST', '/chores?select=id,title,priority', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...REP },
      body: 'id=27&title=from+a+form&priority=4',
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ id: 27, title: 'from a form', priority: 4 }]);
  });

  it('accepts a JSON body whose Content-Type carries a charset', async () => {
    const res = await api.request('POST', '/chores', {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ id: 40, title: 'charset' }),
    });
    expectStatus(res, 201);
  });

  it('inserts CSV bodies (NULL is the null value) and answers CSV', async () => {
    const res = await api.request('POST', '/logbook', {
      headers: { 'content-type': 'text/csv', accept: 'text/csv', prefer: 'return=representation' },
      body: 'entry,level\ncsv1,info\nNULL,warn',
    });
    expectStatus(res, 201);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.text).toBe('entry,level\ncsv1,info\n,warn');
  });

  it('CSV lines with a different number of fields are 400 / PGRST102', async () => {
    expectError(
      await api.request('POST', '/logbook', {
        headers: { 'content-type': 'text/csv' },
        body: 'entry,level\nx,info\ny',
      }),
      400,
      { code: 'PGRST102', message: 'All lines must have same number of fields', details: null, hint: null },
    );
  });

  describe('CSV bodies (read as cassava reads them in PostgREST)', () => {
    const csv = (body: string, path = '/logbook') =>
      api.request('POST', path, { headers: { 'content-type': 'text/csv', ...REP }, body });

    it('accepts quoted fields with commas, quotes and line breaks; "NULL" quoted or not is null', async () => {
      const res = await csv('entry,level\n"a, ""quoted""\nentry",NULL\nplain,"NULL"');
      expectStatus(res, 201);
      expect(res.json).toEqual([
        { entry: 'a, "quoted"\nentry', level: null },
        { entry: 'plain', level: null },
      ]);
    });

    it('skips blank lines and accepts CRLF line ends', async () => {
      const res = await csv('entry,level\r\ncsv-crlf,info\r\n\r\ncsv-crlf2,warn\r\n');
      expectStatus(res, 201);
      expect(res.json).toEqual([
        { entry: 'csv-crlf', level: 'info' },
        { entry: 'csv-crlf2', level: 'warn' },
      ]);
    });

    it('inserts nothing for a header line alone', async () => {
      const res = await csv('entry,level\n');
      expectStatus(res, 201);
      expect(res.json).toEqual([]);
    });

    it('drops fields beyond the header, and inserts fewer columns when every line is short', async () => {
      // cassava zips each line with the header, so only differing key sets are refused.
      expect((await csv('entry,level\nlong-line,info,extra')).json).toEqual([{ entry: 'long-line', level: 'info' }]);
      expect((await csv('entry,level\nshort-1\nshort-2')).json).toEqual([
        { entry: 'short-1', level: null },
        { entry: 'short-2', level: null },
      ]);
    });

    it("an empty body is 400 / PGRST102 with cassava's message", async () => {
      expectError(await csv(''), 400, {
        code: 'PGRST102',
        message: 'parse error (not enough input) at ""',
        details: null,
        hint: null,
      });
    });

    it('a header without a line break is 400 / PGRST102', async () => {
      expectError(await csv('entry,level'), 400, { code: 'PGRST102', message: 'parse error (not enough input) at ""' });
    });

    it('an unterminated quoted field is 400 / PGRST102', async () => {
      expectError(await csv('entry,level\n"open,info'), 400, {
        code: 'PGRST102',
        message: 'parse error (not enough input) at ""',
      });
    });

    it('ignores columns= (the CSV header names the columns)', async () => {
      const res = await csv('entry,level\ncsv-columns,info', '/logbook?columns=entry');
      expect(expectRows(res, 201)).toEqual([{ entry: 'csv-columns', level: 'info' }]);
    });
  });

  it('inserts through an auto-updatable view', async () => {
    const res = await api.request('POST', '/book_summaries', { body: { id: 100, title: 'Via a view', author_id: 3 } });
    expectStatus(res, 201);
    expect(await sql('select title, author_id from test.books where id = 100')).toEqual([
      { title: 'Via a view', author_id: 3 },
    ]);
  });

  it('a singular Accept with several rows is 406 / PGRST116 and nothing is inserted', async () => {
    const res = await api.request('POST', '/chores', {
      headers: { accept: 'application/vnd.pgrst.object+json' },
      body: [
        { id: 28, title: 's1' },
        { id: 29, title: 's2' },
      ],
    });
    expectError(res, 406, { code: 'PGRST116', details: 'The result contains 2 rows' });
    expect(await sql('select id from test.chores where id in (28, 29)')).toEqual([]);
  });

  it('a singular Accept with one row and representation answers an object', async () => {
    const res = await api.request('POST', '/chores?select=id,title', {
      headers: { accept: 'application/vnd.pgrst.object+json', ...REP },
      body: { id: 30, title: 'single' },
    });
    expectStatus(res, 201);
    expect(res.json).toEqual({ id: 30, title: 'single' });
  });

  it('invalid JSON is 400 / PGRST102', async () => {
    expectError(
      await api.request('POST', '/chores', { headers: { 'content-type': 'application/json' }, body: '}{ x = 2' }),
      400,
      {
        code: 'PGRST102',
        message: 'Empty or invalid json',
        details: null,
        hint: null,
      },
    );
  });

  it('an empty body is 400 / PGRST102', async () => {
    expectError(
      await api.request('POST', '/chores', { headers: { 'content-type': 'application/json' }, body: '' }),
      400,
      {
        code: 'PGRST102',
        message: 'Empty or invalid json',
      },
    );
  });

  it('objects with different keys are 400 / PGRST102', async () => {
    expectError(
      await api.request('POST', '/chores', {
        body: [
          { id: 31, title: 'x' },
          { id: 32, title: 'y', done: true },
        ],
      }),
      400,
      { code: 'PGRST102', message: 'All object keys must match', details: null, hint: null },
    );
  });

  it('a key that is not a column is 400 / PGRST204', async () => {
    expectError(await api.request('POST', '/chores', { body: { id: 33, title: 'x', colour: 'red' } }), 400, {
      code: 'PGRST204',
      message: "Could not find the 'colour' column of 'chores' in the schema cache",
      details: null,
      hint: null,
    });
  });

  it('columns= naming a column that does not exist is 400 / PGRST204', async () => {
    expectError(await api.request('POST', '/chores?columns=id,helicopter', { body: { id: 34 } }), 400, {
      code: 'PGRST204',
      message: "Could not find the 'helicopter' column of 'chores' in the schema cache",
    });
  });

  it('an empty columns= fails to parse (PostgREST parser message)', async () => {
    expectError(await api.request('POST', '/chores?columns=', { body: { id: 35, title: 'x' } }), 400, {
      code: 'PGRST100',
      message: '"failed to parse columns parameter ()" (line 1, column 1)',
      details: 'unexpected end of input expecting field name (* or [a..z0..9_$])',
      hint: null,
    });
  });
});

describe('upsert (POST with Prefer: resolution)', () => {
  it('merge-duplicates inserts and updates on primary-key conflict (201 when something was inserted)', async () => {
    const res = await api.request('POST', '/kv?select=key,value', {
      headers: { prefer: 'return=representation, resolution=merge-duplicates' },
      body: [
        { key: 'a', value: 'ALPHA' },
        { key: 'm', value: 'mu' },
      ],
    });
    expectStatus(res, 201);
    expect(res.headers['preference-applied']).toBe('resolution=merge-duplicates, return=representation');
    expect(res.json).toEqual([
      { key: 'a', value: 'ALPHA' },
      { key: 'm', value: 'mu' },
    ]);
  });

  it('merge-duplicates that only updates answers 200', async () => {
    const res = await api.request('POST', '/kv?select=key,value', {
      headers: { prefer: 'return=representation, resolution=merge-duplicates' },
      body: [{ key: 'b', value: 'BETA' }],
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ key: 'b', value: 'BETA' }]);
  });

  it('ignore-duplicates inserts only the new rows and returns only those', async () => {
    const res = await api.request('POST', '/kv?select=key,value', {
      headers: { prefer: 'return=representation, resolution=ignore-duplicates' },
      body: [
        { key: 'b', value: 'not applied' },
        { key: 'n', value: 'nu' },
      ],
    });
    expectStatus(res, 201);
    expect(res.headers['preference-applied']).toBe('resolution=ignore-duplicates, return=representation');
    expect(res.json).toEqual([{ key: 'n', value: 'nu' }]);
    expect(await sql("select value from test.kv where key = 'b'")).toEqual([{ value: 'BETA' }]);
  });

  it('on_conflict targets a unique column other than the primary key', async () => {
    const res = await api.request('POST', '/codes?on_conflict=code&select=id,code,label', {
      headers: { prefer: 'return=representation, resolution=merge-duplicates' },
      body: [{ code: 'X1', label: 'updated' }],
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ id: 1, code: 'X1', label: 'updated' }]);
  });

  it('on_conflict with ignore-duplicates skips the conflicting rows', async () => {
    const res = await api.request('POST', '/codes?on_conflict=code&select=code,label', {
      headers: { prefer: 'return=representation, resolution=ignore-duplicates' },
      body: [
        { code: 'X2', label: 'not applied' },
        { code: 'X3', label: 'third' },
      ],
    });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ code: 'X3', label: 'third' }]);
  });

  it('without a resolution a duplicate key is 409 / 23505', async () => {
    expectError(await api.request('POST', '/kv', { body: { key: 'a', value: 'dup' } }), 409, {
      code: '23505',
      message: 'duplicate key value violates unique constraint "kv_pkey"',
      details: 'Key (key)=(a) already exists.',
      hint: null,
    });
  });

  it('ignores the resolution (and does not echo it) on a table without primary key', async () => {
    const res = await api.request('POST', '/logbook', {
      headers: { prefer: 'return=representation, resolution=merge-duplicates' },
      body: [{ entry: 'boot', level: 'info' }],
    });
    expectStatus(res, 201);
    expect(res.headers['preference-applied']).toBe('return=representation');
  });

  it('an empty on_conflict fails to parse', async () => {
    const body = expectError(
      await api.request('POST', '/kv?on_conflict=', {
        headers: { prefer: 'resolution=merge-duplicates' },
        body: { key: 'q', value: 'x' },
      }),
      400,
      { code: 'PGRST100' },
    );
    expect(body.message).toMatch(/^"failed to parse on_conflict parameter \(\)" \(line 1, column 1\)$/);
  });
});

describe('PUT (single-row upsert)', () => {
  it('inserts a missing row: 201 with representation', async () => {
    const res = await api.request('PUT', '/kv?key=eq.p', { headers: REP, body: { key: 'p', value: 'pi' } });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ key: 'p', value: 'pi', version: 1 }]);
  });

  it('replaces an existing row: 200 with representation', async () => {
    const res = await api.request('PUT', '/kv?key=eq.p', { headers: REP, body: { key: 'p', value: 'PI', version: 2 } });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ key: 'p', value: 'PI', version: 2 }]);
  });

  it('answers 204 without representation', async () => {
    const res = await api.request('PUT', '/kv?key=eq.r', { body: { key: 'r', value: 'rho' } });
    expectStatus(res, 204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(await sql("select value from test.kv where key = 'r'")).toEqual([{ value: 'rho' }]);
  });

  it('works with a composite primary key', async () => {
    const res = await api.request('PUT', '/grid?x=eq.2&y=eq.z', { headers: REP, body: { x: 2, y: 'z', val: 'two-z' } });
    expectStatus(res, 201);
    expect(res.json).toEqual([{ x: 2, y: 'z', val: 'two-z' }]);
  });

  it('filters other than eq on every primary-key column are 405 / PGRST105', async () => {
    const expected = {
      code: 'PGRST105',
      message: "Filters must include all and only primary key columns with 'eq' operators",
      details: null,
      hint: null,
    };
    expectError(await api.request('PUT', '/kv?value=eq.x', { body: { key: 'x', value: 'x' } }), 405, expected);
    expectError(await api.request('PUT', '/kv?key=not.eq.x', { body: { key: 'x', value: 'x' } }), 405, expected);
    expectError(await api.request('PUT', '/kv?key=in.(x)', { body: { key: 'x', value: 'x' } }), 405, expected);
    expectError(await api.request('PUT', '/grid?x=eq.1', { body: { x: 1, y: 'a', val: 'v' } }), 405, expected);
  });

  it('a table without primary key is 405 / PGRST105', async () => {
    expectError(await api.request('PUT', '/logbook?entry=eq.x', { body: { entry: 'x', level: 'y' } }), 405, {
      code: 'PGRST105',
    });
  });

  it('a payload whose key differs from the URL is 400 / PGRST115', async () => {
    expectError(await api.request('PUT', '/kv?key=eq.a', { body: { key: 'b', value: 'x' } }), 400, {
      code: 'PGRST115',
      message: 'Payload values do not match URL in primary key column(s)',
      details: null,
      hint: null,
    });
  });

  it('limit or offset is 400 / PGRST114', async () => {
    const expected = { code: 'PGRST114', message: 'limit/offset querystring parameters are not allowed for PUT' };
    expectError(await api.request('PUT', '/kv?key=eq.a&limit=1', { body: { key: 'a', value: 'x' } }), 400, expected);
    expectError(await api.request('PUT', '/kv?key=eq.a&offset=1', { body: { key: 'a', value: 'x' } }), 400, expected);
  });
});

describe('PATCH (update)', () => {
  it('updates the filtered rows: 204 with the updated range', async () => {
    const res = await api.request('PATCH', '/chores?id=eq.1', { body: { done: true } });
    expectStatus(res, 204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-range']).toBe('0-0/*');
    expect(await sql('select done from test.chores where id = 1')).toEqual([{ done: true }]);
  });

  it('return=representation answers the updated rows with 200', async () => {
    const res = await api.request('PATCH', '/chores?id=eq.2&select=id,title', {
      headers: REP,
      body: { title: 'reread docs' },
    });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.headers['content-range']).toBe('0-0/*');
    expect(res.headers['preference-applied']).toBe('return=representation');
    expect(res.json).toEqual([{ id: 2, title: 'reread docs' }]);
  });

  it('reports the range of several updated rows', async () => {
    const res = await api.request('PATCH', '/scratch?id=in.(1,2)', { body: { label: 'patched' } });
    expectStatus(res, 204);
    expect(res.headers['content-range']).toBe('0-1/*');
  });

  it('reports the count with count=exact', async () => {
    const res = await api.request('PATCH', '/scratch?id=in.(1,2)', {
      headers: { prefer: 'count=exact' },
      body: { label: 'again' },
    });
    expectStatus(res, 204);
    expect(res.headers['content-range']).toBe('0-1/2');
  });

  it('matching nothing is 204 with */* (200 and [] with representation)', async () => {
    const res = await api.request('PATCH', '/chores?id=eq.999999', { body: { done: true } });
    expectStatus(res, 204);
    expect(res.headers['content-range']).toBe('*/*');
    const rep = await api.request('PATCH', '/chores?id=eq.999999', { headers: REP, body: { done: true } });
    expectStatus(rep, 200);
    expect(rep.json).toEqual([]);
  });

  it('an empty object updates nothing and answers 204 with */*', async () => {
    const res = await api.request('PATCH', '/chores?id=eq.3', { body: {} });
    expectStatus(res, 204);
    expect(res.headers['content-range']).toBe('*/*');
    expect(await sql('select title from test.chores where id = 3')).toEqual([{ title: 'ship it' }]);
  });

  it('can embed related rows in the representation', async () => {
    const res = await api.request('PATCH', '/chores?id=eq.3&select=title,users(name)', {
      headers: REP,
      body: { priority: 4 },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ title: 'ship it', users: { name: 'bob' } }]);
  });

  it('accepts logic trees as filters', async () => {
    const res = await api.request('PATCH', '/scratch?or=(id.eq.3,id.eq.4)&select=id', {
      headers: REP,
      body: { label: 'or' },
    });
    expectStatus(res, 200);
    expect((res.json as Array<{ id: number }>).map((r) => r.id).sort()).toEqual([3, 4]);
  });

  it('columns= restricts which keys are applied', async () => {
    const res = await api.request('PATCH', '/chores?id=eq.3&columns=priority&select=title,priority', {
      headers: REP,
      body: { priority: 5, title: 'ignored' },
    });
    expectStatus(res, 200);
    expect(res.json).toEqual([{ title: 'ship it', priority: 5 }]);
  });

  it('a singular Accept with several matching rows is 406 / PGRST116 and nothing changes', async () => {
    const res = await api.request('PATCH', '/chores?id=in.(1,2)', {
      headers: { accept: 'application/vnd.pgrst.object+json' },
      body: { priority: 1 },
    });
    expectError(res, 406, { code: 'PGRST116', details: 'The result contains 2 rows' });
    expect(await sql('select priority from test.chores where id = 2')).toEqual([{ priority: 2 }]);
  });

  it('max-affected with handling=strict refuses to change more rows (400 / PGRST124)', async () => {
    const res = await api.request('PATCH', '/kv?key=in.(a,b)', {
      headers: { prefer: 'handling=strict, max-affected=1' },
      body: { version: 9 },
    });
    expectError(res, 400, {
      code: 'PGRST124',
      message: 'Query result exceeds max-affected preference constraint',
      details: 'The query affects 2 rows',
      hint: null,
    });
    expect(await sql("select version from test.kv where key in ('a', 'b') order by key")).toEqual([
      { version: 1 },
      { version: 1 },
    ]);
  });

  it('max-affected within the limit applies and is echoed with handling=strict', async () => {
    const res = await api.request('PATCH', '/kv?key=in.(a,b)', {
      headers: { prefer: 'handling=strict, max-affected=2' },
      body: { version: 2 },
    });
    expectStatus(res, 204);
    expect(res.headers['preference-applied']).toBe('handling=strict, max-affected=2');
  });

  it('max-affected is ignored without handling=strict', async () => {
    const res = await api.request('PATCH', '/kv?key=in.(a,b)', {
      headers: { prefer: 'max-affected=1' },
      body: { version: 3 },
    });
    expectStatus(res, 204);
    expect(await sql("select version from test.kv where key in ('a', 'b') order by key")).toEqual([
      { version: 3 },
      { version: 3 },
    ]);
  });

  it('invalid JSON is 400 / PGRST102', async () => {
    expectError(
      await api.request('PATCH', '/chores?id=eq.1', { headers: { 'content-type': 'application/json' }, body: '{' }),
      400,
      {
        code: 'PGRST102',
        message: 'Empty or invalid json',
      },
    );
  });

  it('a key that is not a column is 400 / PGRST204', async () => {
    expectError(await api.request('PATCH', '/chores?id=eq.1', { body: { colour: 'red' } }), 400, {
      code: 'PGRST204',
      message: "Could not find the 'colour' column of 'chores' in the schema cache",
    });
  });

  it('an unknown table is 404 / PGRST205', async () => {
    expectError(await api.request('PATCH', '/chorez?id=eq.1', { body: { done: true } }), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.chorez' in the schema cache",
      hint: "Perhaps you meant the table 'test.chores'",
    });
  });
});

describe('DELETE', () => {
  it('deletes the filtered rows: 204, Content-Range */*', async () => {
    const res = await api.request('DELETE', '/scratch?id=eq.1');
    expectStatus(res, 204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-range']).toBe('*/*');
    expect(await sql('select id from test.scratch where id = 1')).toEqual([]);
  });

  it('return=representation answers the deleted rows with 200', async () => {
    const res = await api.request('DELETE', '/scratch?id=eq.2&select=id', { headers: REP });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.json).toEqual([{ id: 2 }]);
  });

  it('reports */n with count=exact', async () => {
    const res = await api.request('DELETE', '/scratch?id=in.(3,4)', { headers: { prefer: 'count=exact' } });
    expectStatus(res, 204);
    expect(res.headers['content-range']).toBe('*/2');
  });

  it('matching nothing is still 204', async () => {
    const res = await api.request('DELETE', '/scratch?id=eq.999');
    expectStatus(res, 204);
  });

  it('does not report missing= as applied (Response.hs lists it for POST and PATCH only)', async () => {
    const res = await api.request('DELETE', '/scratch?id=eq.999', {
      headers: { prefer: 'missing=default, return=minimal' },
    });
    expectStatus(res, 204);
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  it('without filters deletes every row', async () => {
    const res = await api.request('DELETE', '/logbook');
    expectStatus(res, 204);
    expect(await sql('select count(*)::int as n from test.logbook')).toEqual([{ n: 0 }]);
  });

  it('a singular Accept with several matching rows is 406 / PGRST116 and nothing is deleted', async () => {
    const res = await api.request('DELETE', '/chores?id=in.(1,2)', {
      headers: { accept: 'application/vnd.pgrst.object+json' },
    });
    expectError(res, 406, { code: 'PGRST116', details: 'The result contains 2 rows' });
    expect(await sql('select count(*)::int as n from test.chores where id in (1, 2)')).toEqual([{ n: 2 }]);
  });

  it('a foreign-key violation is 409 / 23503', async () => {
    expectError(await api.request('DELETE', '/users?id=eq.1'), 409, {
      code: '23503',
      message:
        'update or delete on table "users" violates foreign key constraint "messages_sender_fkey" on table "messages"',
      details: 'Key (id)=(1) is still referenced from table "messages".',
    });
  });
});
