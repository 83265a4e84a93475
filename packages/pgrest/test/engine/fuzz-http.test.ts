import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgrestMethod, PgrestResponse } from '../../src/engine-types.js';
import { startEngine, type EngineHarness } from './helpers.js';
import { LOOKOUT_SQL } from './lookout-fixture.js';

/*
 * Bad input is never a 500: random requests assembled from real names, operators and
 * grammar characters must end in a 2xx/3xx/4xx, and the database must survive them. Names
 * outside ASCII and binary bodies too, and every header of the answer can be written by Node
 * (which refuses text outside Latin-1 and control characters in a header: a host's 500).
 */

// Relations and functions named outside ASCII, and functions taking a body whole.
const EXTRA_SQL = `
CREATE TABLE "größe" (id int PRIMARY KEY, "maß" text, data bytea);
INSERT INTO "größe" VALUES (1, 'klein', '\\x00ff');
CREATE TABLE "日本語" (id int PRIMARY KEY, "größe_id" int REFERENCES "größe" (id), "名前" text);
INSERT INTO "日本語" VALUES (1, 1, '茶');
CREATE FUNCTION "grüße"(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'Grüß ' || name $$;
CREATE FUNCTION blob_hex(bytea) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT encode($1, 'hex') $$;
CREATE FUNCTION text_length(text) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT length($1) $$;
CREATE FUNCTION xml_text(xml) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT $1::text $$;
`;

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine(LOOKOUT_SQL + EXTRA_SQL);
});
afterAll(async () => {
  await h.close();
});

const names = fc.constantFrom(
  'id',
  'name',
  'labels',
  'status',
  'canary_id',
  'canaries',
  'agents',
  'checks',
  'nope',
  'created_at',
  '*',
);
const ops = fc.constantFrom(
  'eq.',
  'neq.',
  'gt.',
  'in.(',
  'is.',
  'like.',
  'cs.',
  'fts.',
  'not.',
  'eq(any).',
  'ov.',
  'isdistinct.',
);
const junk = fc.constantFrom(
  '(',
  ')',
  ',',
  '.',
  ':',
  '!',
  '"',
  '*',
  '->',
  '->>',
  '{',
  '}',
  'null',
  'true',
  '1',
  'x',
  "'",
  ';',
  '%',
  '\\',
  '::',
  'inner',
  'desc',
);
const piece = fc.oneof(names, ops, junk, fc.string({ maxLength: 4 }));
const text = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));

describe('random requests never fail with 5xx', () => {
  it('on reads', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, text, text, async (select, key, value, order) => {
        const query = [
          `select=${encodeURIComponent(select)}`,
          `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
          `order=${encodeURIComponent(order)}`,
        ].join('&');
        const response = await h.get(`checks?${query}`);
        expect(response.status, `${query} -> ${response.body}`).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });

  it('on writes and calls', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.json({ maxDepth: 2 }), async (key, body) => {
        const patch = await h.request(
          'PATCH',
          `canaries?id=eq.00000000-0000-0000-0000-00000000dead&${encodeURIComponent(key)}=eq.1`,
          { body },
        );
        expect(patch.status, patch.body).toBeLessThan(500);
        const call = await h.request('POST', 'rpc/related_configs_recursive', { body });
        expect(call.status, call.body).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    const alive = await h.get('checks?select=id');
    expect(alive.status).toBe(200);
  });
});

/** Node's own checks when a host writes the answer (`res.writeHead`, Fastify's `reply.header`). */
function writableHeaders(response: PgrestResponse): void {
  for (const [name, value] of Object.entries(response.headers)) {
    http.validateHeaderName(name);
    for (const one of Array.isArray(value) ? value : [value]) http.validateHeaderValue(name, one);
  }
}

const nonAsciiPath = fc.constantFrom(
  'größe',
  encodeURIComponent('größe'),
  '日本語',
  encodeURIComponent('日本語'),
  'rpc/grüße',
  `rpc/${encodeURIComponent('grüße')}`,
  'rpc/blob_hex',
  'rpc/text_length',
  'rpc/xml_text',
  'gr%C3%B6%C3',
  'naïve',
  'checks',
);
const nonAsciiPiece = fc.oneof(
  fc.constantFrom(
    'maß',
    'größe',
    '名前',
    '日本語',
    'größe_id',
    'id',
    'data',
    '*',
    '(',
    ')',
    ',',
    'eq.',
    'like.*',
    '::text',
  ),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const nonAsciiText = fc.array(nonAsciiPiece, { maxLength: 6 }).map((parts) => parts.join(''));
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 24 }),
  fc.constantFrom(
    Uint8Array.from([0xff, 0xfe, 0x00]),
    Uint8Array.from([0xc3, 0x28]),
    Buffer.from('{"maß":"groß"}', 'utf8'),
    Buffer.from('{"name":"\xff"}', 'latin1'),
    Buffer.from('id,maß\n9,x', 'utf8'),
  ),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/octet-stream',
  'text/plain',
  'text/xml',
  'text/csv',
  'application/x-www-form-urlencoded',
);
const method = fc.constantFrom<PgrestMethod>('GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS');

describe('names outside ASCII and binary bodies never fail with 5xx', () => {
  it('on every method, with headers Node can write', async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        nonAsciiPath,
        nonAsciiText,
        nonAsciiText,
        bytes,
        contentType,
        async (verb, path, select, filter, body, type) => {
          const query = `select=${encodeURIComponent(select)}&${encodeURIComponent(filter)}=eq.1`;
          const response = await h.engine.handle({
            method: verb,
            path,
            query,
            headers: { 'content-type': type, prefer: 'return=representation' },
            ...(verb === 'GET' || verb === 'HEAD' ? {} : { body }),
          });
          const what = `${verb} /${path}?${query} (${type}, ${body.length} bytes) -> ${response.status} ${response.body.slice(0, 200)}`;
          expect(response.status, what).toBeLessThan(500);
          writableHeaders(response);
        },
      ),
      { numRuns: 300 },
    );
    const alive = await h.get('checks?select=id');
    expect(alive.status).toBe(200);
  });

  it('reads relations named outside ASCII and passes binary bodies on byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (body) => {
        const response = await h.engine.handle({
          method: 'POST',
          path: 'rpc/blob_hex',
          query: '',
          headers: { 'content-type': 'application/octet-stream' },
          body,
        });
        expect(response.status, response.body).toBe(200);
        expect(JSON.parse(response.body)).toBe(Buffer.from(body).toString('hex'));
      }),
      { numRuns: 100 },
    );
    // The random writes above may have changed these rows: put them back first.
    await h.db.pool.query(
      `INSERT INTO "größe" VALUES (1, 'klein', NULL) ON CONFLICT (id) DO UPDATE SET "maß" = 'klein'`,
    );
    await h.db.pool.query(`DELETE FROM "日本語"`);
    await h.db.pool.query(`INSERT INTO "日本語" VALUES (1, 1, '茶')`);
    const read = await h.engine.handle({
      method: 'GET',
      path: encodeURIComponent('日本語'),
      query: 'select=名前,größe(maß)',
      headers: {},
    });
    expect(read.status, read.body).toBe(200);
    expect(JSON.parse(read.body)).toEqual([{ 名前: '茶', größe: { maß: 'klein' } }]);
    writableHeaders(read);
  });
});
