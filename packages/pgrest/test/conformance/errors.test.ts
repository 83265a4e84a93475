import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgrestMethod } from '../../src/engine-types.js';
import { type Conformance, JSON_CT, expectError, expectStatus, rangeHeaders, startConformance } from './helpers.js';

// Errors. Sources: PostgREST docs "Errors" (body {code, message, details, hint}; the table
// mapping SQLSTATEs to HTTP statuses; the PGRST codes); src/PostgREST/Error.hs (texts of
// PGRST100/125/200/201/205 and the fuzzy hints); src/PostgREST/ApiRequest/QueryParams.hs (every
// query-string parser and the "failed to parse <what> (<value>)" messages);
// test/spec/Feature/Query/QuerySpec.hs, InsertSpec.hs, ErrorSpec.hs.

let api: Conformance;
beforeAll(async () => {
  api = await startConformance();
});
afterAll(async () => {
  await api?.close();
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('error body', () => {
  it('always has exactly code, message, details and hint, as application/json', async () => {
    const res = await api.get('/no_such_table');
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(Object.keys(res.json as object).sort()).toEqual(['code', 'details', 'hint', 'message']);
  });
});

describe('unknown relations and paths', () => {
  it('decodes the path once, and a + in it stays a +', async () => {
    expectStatus(await api.get('/boo%6Bs?select=id&limit=1'), 200);
    expectError(await api.get('/zz%2541'), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.zz%41' in the schema cache",
    });
    expectError(await api.get('/zz+top'), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.zz+top' in the schema cache",
    });
  });

  it('an unknown table is 404 / PGRST205 (no hint when nothing is close)', async () => {
    expectError(await api.get('/zzz_unknown'), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.zzz_unknown' in the schema cache",
      details: null,
      hint: null,
    });
  });

  it('hints the closest table name', async () => {
    expectError(await api.get('/book'), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.book' in the schema cache",
      details: null,
      hint: "Perhaps you meant the table 'test.books'",
    });
  });

  it('is the same for POST and DELETE', async () => {
    expectError(await api.request('POST', '/zzz_unknown', { body: { a: 1 } }), 404, { code: 'PGRST205' });
    expectError(await api.request('DELETE', '/zzz_unknown?id=eq.1'), 404, { code: 'PGRST205' });
  });

  it('wins over an invalid columns= parameter', async () => {
    expectError(await api.request('POST', '/zzz_unknown?columns=helicopter', { body: { a: 1 } }), 404, {
      code: 'PGRST205',
    });
  });

  it('does not reach tables of schemas that are not exposed', async () => {
    expectError(await api.get('/secrets'), 404, {
      code: 'PGRST205',
      message: "Could not find the table 'test.secrets' in the schema cache",
    });
  });

  it('a nested path is 404 / PGRST125', async () => {
    expectError(await api.get('/books/1'), 404, {
      code: 'PGRST125',
      message: 'Invalid path specified in request URL',
      details: null,
      hint: null,
    });
  });
});

describe('PostgreSQL errors: SQLSTATE to HTTP status', () => {
  it('23505 unique_violation is 409', async () => {
    expectError(await api.request('POST', '/codes', { body: { code: 'X1' } }), 409, {
      code: '23505',
      message: 'duplicate key value violates unique constraint "codes_code_key"',
      details: 'Key (code)=(X1) already exists.',
      hint: null,
    });
  });

  it('23503 foreign_key_violation is 409', async () => {
    expectError(await api.request('POST', '/chores', { body: { id: 500, title: 'orphan', owner_id: 999 } }), 409, {
      code: '23503',
      message: 'insert or update on table "chores" violates foreign key constraint "chores_owner_id_fkey"',
      details: 'Key (owner_id)=(999) is not present in table "users".',
      hint: null,
    });
  });

  it('23502 not_null_violation is 400', async () => {
    expectError(await api.request('POST', '/chores', { body: { id: 501, title: null } }), 400, {
      code: '23502',
      message: 'null value in column "title" of relation "chores" violates not-null constraint',
      details: /^Failing row contains \(501, null, /,
      hint: null,
    });
  });

  it('23514 check_violation is 400', async () => {
    expectError(await api.request('POST', '/chores', { body: { id: 502, title: 'x', priority: 9 } }), 400, {
      code: '23514',
      message: 'new row for relation "chores" violates check constraint "chores_priority_check"',
      details: /^Failing row contains \(502, x, f, 9, /,
      hint: null,
    });
  });

  it('23514 from an update is 400 too', async () => {
    expectError(await api.request('PATCH', '/chores?id=eq.1', { body: { title: '' } }), 400, {
      code: '23514',
      message: 'new row for relation "chores" violates check constraint "chores_title_check"',
    });
  });

  it('22P02 invalid_text_representation is 400', async () => {
    expectError(await api.get('/chores?id=eq.abc'), 400, {
      code: '22P02',
      message: 'invalid input syntax for type integer: "abc"',
      details: null,
      hint: null,
    });
  });

  it('22P02 for an unknown enum label is 400', async () => {
    // PostgREST sets search_path to the exposed schema, so PostgreSQL names the type unqualified.
    expectError(await api.get('/gadgets?mood=eq.angry'), 400, {
      code: '22P02',
      message: 'invalid input value for enum mood: "angry"',
    });
  });

  it('42703 undefined_column is 400', async () => {
    expectError(await api.get('/chores?select=nope'), 400, {
      code: '42703',
      message: 'column chores.nope does not exist',
    });
  });

  it("passes PostgreSQL's own hint through", async () => {
    expectError(await api.get('/books?select=titel'), 400, {
      code: '42703',
      message: 'column books.titel does not exist',
      hint: 'Perhaps you meant to reference the column "books.title".',
    });
  });

  it('P0001 raise_exception is 400', async () => {
    expectError(await api.request('POST', '/rpc/raise_plain', { body: {} }), 400, { code: 'P0001' });
  });

  it('nothing is written when the statement fails', async () => {
    const res = await api.request('POST', '/chores', {
      body: [
        { id: 503, title: 'ok' },
        { id: 504, title: '' },
      ],
    });
    expectStatus(res, 400);
    const { rows } = await api.db.pool.query('select id from test.chores where id in (503, 504)');
    expect(rows).toEqual([]);
  });
});

describe('aggregates (disabled by default, db-aggregates-enabled = false)', () => {
  it('count() is 400 / PGRST123', async () => {
    expectError(await api.get('/books?select=count()'), 400, {
      code: 'PGRST123',
      message: 'Use of aggregate functions is not allowed',
      details: null,
      hint: null,
    });
  });

  it('column.sum() is 400 / PGRST123', async () => {
    expectError(await api.get('/books?select=price.sum()'), 400, { code: 'PGRST123' });
  });

  it('an aggregate inside an embed is 400 / PGRST123', async () => {
    expectError(await api.get('/authors?select=name,books(count())'), 400, { code: 'PGRST123' });
  });
});

describe("parse errors: PostgREST's Parsec details for unusual inputs", () => {
  // Each `details` is what PostgREST 14's parsers (ApiRequest/QueryParams.hs, Parsec's
  // error merging) answer; the first four were also observed on live PostgREST responses.
  const cases: Array<[string, string, number, string]> = [
    [
      'select=id,',
      'select parameter (id,)',
      4,
      'unexpected end of input expecting "...", field name (* or [a..z0..9_$]), "*" or "count()"',
    ],
    [
      'select=title.*',
      'select parameter (title.*)',
      7,
      'unexpected "*" expecting "sum", "avg", "count", "max" or "min"',
    ],
    [
      'select=id,specs->,name',
      'select parameter (id,specs->,name)',
      11,
      'unexpected "," expecting "-", digit or any non reserved character different from: .,>()',
    ],
    [
      'in_print=is.not.null',
      'filter (is.not.null)',
      7,
      'unexpected "." expecting isVal: (null, not_null, true, false, unknown)',
    ],
    [
      'select=id,authors(name',
      'select parameter (id,authors(name)',
      16,
      'unexpected end of input expecting letter, digit, "-", "->>", "->", "::", ".", ")", "," or end of input',
    ],
    [
      'in_print=is.nul',
      'filter (is.nul)',
      7,
      'unexpected end of input expecting isVal: (null, not_null, true, false, unknown)',
    ],
    ['id=in.(1,2', 'filter (in.(1,2)', 8, 'unexpected end of input expecting "," or ")"'],
    ['or=(id.eq.1', 'logic tree ((id.eq.1)', 11, 'unexpected end of input expecting "," or ")"'],
    ['select=id.sumx()', 'select parameter (id.sumx())', 7, 'unexpected "x" expecting "()"'],
  ];
  for (const [query, what, column, details] of cases) {
    it(`${query} → column ${column}: ${details}`, async () => {
      const path = query.startsWith('select=id,specs') ? '/gadgets' : '/books';
      expectError(await api.get(`${path}?${query}`), 400, {
        code: 'PGRST100',
        message: `"failed to parse ${what}" (line 1, column ${column})`,
        details,
        hint: null,
      });
    });
  }

  it('an empty in.() list is accepted and matches nothing', async () => {
    const res = await api.get('/books?id=in.()');
    expectStatus(res, 200);
    expect(res.json).toEqual([]);
  });

  it('the query string is judged before the relation is looked up (PGRST100, not PGRST205)', async () => {
    expectError(await api.get('/zzz_unknown?select=a->'), 400, { code: 'PGRST100' });
  });
});

describe('relationship errors', () => {
  it('PGRST200: no relationship is 400', async () => {
    expectError(await api.get('/gadgets?select=id,books(id)'), 400, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'gadgets' and 'books' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'gadgets' and 'books' in the schema 'test', but no matches were found.",
    });
  });

  it('PGRST201: an ambiguous relationship is 300', async () => {
    expectError(await api.get('/messages?select=users(name)'), 300, {
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'messages' and 'users'",
    });
  });
});

/**
 * Every rule of PostgREST's query-string grammar, once accepted and once rejected. The rejected
 * form must answer 400 / PGRST100 with PostgREST's message shape
 * `"failed to parse <what> (<value>)" (line 1, column N)` (or the range error for limits/Range).
 */
type GrammarCase = {
  rule: string;
  method?: PgrestMethod;
  ok: string;
  bad: string;
  /** The `<what>` and `<value>` of the expected parse message. */
  fails: { what: string; value: string };
  headers?: Record<string, string>;
  body?: unknown;
};

const grammar: GrammarCase[] = [
  {
    rule: 'select: column',
    ok: '/authors?select=name',
    bad: '/authors?select=name!x',
    fails: { what: 'select parameter', value: 'name!x' },
  },
  {
    rule: 'select: alias',
    ok: '/authors?select=n:name',
    bad: '/authors?select=n:',
    fails: { what: 'select parameter', value: 'n:' },
  },
  {
    rule: 'select: cast',
    ok: '/authors?select=name::text',
    bad: '/authors?select=name::',
    fails: { what: 'select parameter', value: 'name::' },
  },
  {
    rule: 'select: JSON path',
    ok: '/gadgets?select=specs->size->>w',
    bad: '/gadgets?select=specs->>-xy',
    fails: { what: 'select parameter', value: 'specs->>-xy' },
  },
  {
    rule: 'select: embed',
    ok: '/authors?select=id,books(id)',
    bad: '/authors?select=id,books(id',
    fails: { what: 'select parameter', value: 'id,books(id' },
  },
  {
    rule: 'select: embed hint',
    ok: '/books?select=id,authors!books_author_id_fkey(name)',
    bad: '/books?select=id,authors!(name)',
    fails: { what: 'select parameter', value: 'id,authors!(name)' },
  },
  {
    rule: 'select: spread',
    ok: '/books?select=id,...authors(name)',
    bad: '/books?select=id,...authors',
    fails: { what: 'select parameter', value: 'id,...authors' },
  },
  {
    rule: 'filter: operator',
    ok: '/gadgets?id=eq.1',
    bad: '/gadgets?id=equals.1',
    fails: { what: 'filter', value: 'equals.1' },
  },
  {
    rule: 'filter: not',
    ok: '/gadgets?id=not.eq.1',
    bad: '/gadgets?id=not.1',
    fails: { what: 'filter', value: 'not.1' },
  },
  {
    rule: 'filter: quantifier',
    ok: '/gadgets?id=eq(any).{1,2}',
    bad: '/gadgets?id=eq(some).{1,2}',
    fails: { what: 'filter', value: 'eq(some).{1,2}' },
  },
  {
    rule: 'filter: in list',
    ok: '/gadgets?id=in.(1,2)',
    bad: '/gadgets?id=in.1',
    fails: { what: 'filter', value: 'in.1' },
  },
  {
    rule: 'filter: is value',
    ok: '/gadgets?active=is.true',
    bad: '/gadgets?active=is.maybe',
    fails: { what: 'filter', value: 'is.maybe' },
  },
  {
    rule: 'filter: fts configuration',
    ok: '/gadgets?doc=fts(english).widget',
    bad: '/gadgets?doc=fts().widget',
    fails: { what: 'filter', value: 'fts().widget' },
  },
  {
    rule: 'filter: embedded path',
    ok: '/authors?select=id,books(id)&books.id=eq.1',
    bad: '/authors?select=id,books(id)&books..id=eq.1',
    fails: { what: 'tree path', value: 'books..id' },
  },
  {
    rule: 'order: direction',
    ok: '/gadgets?order=id.desc',
    bad: '/gadgets?order=id.sideways',
    fails: { what: 'order', value: 'id.sideways' },
  },
  {
    rule: 'order: nulls',
    ok: '/gadgets?order=id.nullsfirst',
    bad: '/gadgets?order=id.nullsmiddle',
    fails: { what: 'order', value: 'id.nullsmiddle' },
  },
  {
    rule: 'order: related column',
    ok: '/books?select=id,authors(name)&order=authors(name)',
    bad: '/books?select=id,authors(name)&order=authors(name,id)',
    fails: { what: 'order', value: 'authors(name,id)' },
  },
  {
    rule: 'logic tree',
    ok: '/gadgets?or=(id.eq.1)',
    bad: '/gadgets?or=(id.eq.1',
    fails: { what: 'logic tree', value: '(id.eq.1' },
  },
  {
    rule: 'columns',
    method: 'POST',
    ok: '/chores?columns=id,title',
    bad: '/chores?columns=id,,title',
    fails: { what: 'columns parameter', value: 'id,,title' },
    body: { id: 600, title: 'grammar' },
  },
  {
    rule: 'on_conflict',
    method: 'POST',
    ok: '/kv?on_conflict=key',
    bad: '/kv?on_conflict=key,',
    fails: { what: 'on_conflict parameter', value: 'key,' },
    headers: { prefer: 'resolution=merge-duplicates' },
    body: { key: 'grammar', value: 'g' },
  },
];

describe('query-string grammar: one accepted and one rejected form per rule', () => {
  for (const c of grammar) {
    it(`${c.rule}: accepts ${c.ok.split('?')[1]}`, async () => {
      const init = { ...(c.headers ? { headers: c.headers } : {}), ...(c.body !== undefined ? { body: c.body } : {}) };
      const res = await api.request(c.method ?? 'GET', c.ok, init);
      expect([200, 201], `${res.status} ${res.text}`).toContain(res.status);
    });

    it(`${c.rule}: rejects ${c.bad.split('?')[1]}`, async () => {
      const init = { ...(c.headers ? { headers: c.headers } : {}), ...(c.body !== undefined ? { body: c.body } : {}) };
      const body = expectError(await api.request(c.method ?? 'GET', c.bad, init), 400, { code: 'PGRST100' });
      expect(body.message).toMatch(
        new RegExp(
          `^"failed to parse ${escapeRegExp(c.fails.what)} \\(${escapeRegExp(c.fails.value)}\\)" \\(line 1, column \\d+\\)$`,
        ),
      );
      expect(typeof body.details).toBe('string');
    });
  }

  it('limit: accepts limit=1 and rejects limit=-1 with 416 / PGRST103', async () => {
    expectStatus(await api.get('/gadgets?limit=1'), 200);
    expectError(await api.get('/gadgets?limit=-1'), 416, { code: 'PGRST103' });
  });

  it('Range header: accepts 0-1 and rejects 1-0 with 416 / PGRST103', async () => {
    expectStatus(await api.get('/gadgets', rangeHeaders('0-1')), 200);
    expectError(await api.get('/gadgets', rangeHeaders('1-0')), 416, { code: 'PGRST103' });
  });

  it('Prefer: PGRST122 comes after the errors of planning the request, as in PostgREST', async () => {
    const strict = { prefer: 'handling=strict, bogus' };
    expectError(await api.get('/zzz_unknown', strict), 404, { code: 'PGRST205' });
    expectError(await api.get('/books?select=nope(*)', strict), 400, { code: 'PGRST200' });
    expectError(await api.request('POST', '/chores?columns=nope', { headers: strict, body: { nope: 1 } }), 400, {
      code: 'PGRST204',
    });
    expectError(await api.request('POST', '/rpc/zzz_unknown', { headers: strict, body: {} }), 404, {
      code: 'PGRST202',
    });
  });

  it('Prefer: max-affected= is never an invalid preference; an unknown time zone is', async () => {
    expectStatus(await api.get('/gadgets', { prefer: 'handling=strict, max-affected=abc' }), 200);
    expectError(await api.get('/gadgets', { prefer: 'handling=strict, timezone=Mars/Base' }), 400, {
      code: 'PGRST122',
      details: 'Invalid preferences: timezone=Mars/Base',
    });
  });

  it('Prefer: accepts handling=strict with known preferences and rejects unknown ones with PGRST122', async () => {
    expectStatus(await api.get('/gadgets', { prefer: 'handling=strict, count=exact' }), 200);
    expectError(await api.get('/gadgets', { prefer: 'handling=strict, bogus' }), 400, {
      code: 'PGRST122',
      details: 'Invalid preferences: bogus',
    });
  });
});
