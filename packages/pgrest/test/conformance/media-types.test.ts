import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgrestResponse } from '../../src/engine-types.js';
import {
  type Conformance,
  CSV_CT,
  JSON_CT,
  OBJECT_CT,
  expectError,
  expectStatus,
  splitPath,
  startConformance,
} from './helpers.js';

// Output media types transposed from PostgREST 14's test-suite (RawOutputTypesSpec,
// HtmlRawOutputSpec, CustomMediaSpec and the Accept cases of QuerySpec) onto this file's
// fixtures. In PostgREST 14 only JSON, CSV and PostgREST's vendor types are built in: text,
// XML and binary bodies come from media type handlers (domains named like a media type),
// and a plain `text`/`bytea` result or column asked for as text/plain or
// application/octet-stream is refused with 406 PGRST107.

const EXTRA_SQL = readFileSync(new URL('./media-types-fixtures.sql', import.meta.url), 'utf8');

let api: Conformance;
beforeAll(async () => {
  api = await startConformance({ extraSql: EXTRA_SQL });
});
afterAll(async () => {
  await api?.close();
});

const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CHROME =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3';

/** The engine's own response (to see binary bodies as bytes). */
async function raw(pathAndQuery: string, accept?: string, method: 'GET' | 'HEAD' = 'GET'): Promise<PgrestResponse> {
  const { path, query } = splitPath(pathAndQuery);
  return api.engine.handle({ method, path, query, headers: accept === undefined ? {} : { accept } });
}

function unavailable(types: string): { code: string; message: string; details: null; hint: null } {
  return { code: 'PGRST107', message: `None of these media types are available: ${types}`, details: null, hint: null };
}

describe('RawOutputTypesSpec: browser Accept headers', () => {
  it('answers JSON to Firefox and Chrome on a table', async () => {
    for (const accept of [FIREFOX, CHROME]) {
      const res = await api.get('/mt_shapes?id=eq.1&select=id', { Accept: accept });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.json).toEqual([{ id: 1 }]);
    }
  });

  it('answers JSON to Firefox and Chrome on a function', async () => {
    for (const accept of [FIREFOX, CHROME]) {
      const res = await api.get('/rpc/mt_shapes_all?id=lt.3&order=id', { Accept: accept });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.json).toEqual([
        { id: 1, name: 'triangle', sides: 3 },
        { id: 2, name: 'square', sides: 4 },
      ]);
    }
  });
});

describe('CustomMediaSpec: functions returning a media type domain', () => {
  it('answers text/plain with the value itself', async () => {
    const res = await api.get('/rpc/hello', { Accept: 'text/plain' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('Hello from pgrest');
  });

  it('answers text/html without a charset (HtmlRawOutputSpec)', async () => {
    const res = await api.get('/rpc/hello_page', { Accept: 'text/html' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.text).toBe('<html>\n  <body>\n    <p>Hi</p>\n  </body>\n</html>');
  });

  it('answers text/xml from an xml domain', async () => {
    const res = await api.get('/rpc/hello_xml', { Accept: 'text/xml' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.text).toBe('<greeting lang="en"/>');
  });

  it('refuses another media type than the domain names (PGRST107)', async () => {
    expect(expectError(await api.get('/rpc/hello', { Accept: 'text/xml' }), 406, unavailable('text/xml'))).toEqual(
      unavailable('text/xml'),
    );
  });

  it("keeps a function's media type off a table of the same name", async () => {
    const call = await api.get('/rpc/twin', { Accept: 'text/plain' });
    expectStatus(call, 200);
    expect(call.text).toBe('from the function');
    expectError(await api.get('/twin', { Accept: 'text/plain' }), 406, unavailable('text/plain'));
  });

  it('still answers JSON for application/json and */*', async () => {
    for (const accept of ['application/json', '*/*']) {
      const res = await api.get('/rpc/hello', { Accept: accept });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect(res.json).toBe('Hello from pgrest');
    }
  });

  it('answers binary domains with the bytes, without a charset', async () => {
    const res = await raw('/rpc/tiny_image', 'image/png');
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('image/png');
    expect(Buffer.from(res.bodyBytes ?? [])).toEqual(Buffer.from('89504e470d0a1a0a00ff7f80', 'hex'));
  });

  it('matches image/png whatever its place among the Accept entries', async () => {
    for (const accept of [
      'image/png, */*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/png,*/*;q=0.8',
    ]) {
      const res = await raw('/rpc/tiny_image', accept);
      expect(res.status).toBe(200);
      expect(res.headers['Content-Type']).toBe('image/png');
      expect(res.bodyBytes?.byteLength).toBe(12);
    }
  });

  it('answers application/octet-stream with the bytes; no row is an empty body', async () => {
    const res = await raw('/rpc/blob_content?blob_id=1', 'application/octet-stream');
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('application/octet-stream');
    expect(Buffer.from(res.bodyBytes ?? [])).toEqual(Buffer.from('000102fffe', 'hex'));

    const missing = await raw('/rpc/blob_content?blob_id=777', 'application/octet-stream');
    expect(missing.status).toBe(200);
    expect(missing.headers['Content-Type']).toBe('application/octet-stream');
    expect(missing.body).toBe('');
  });

  it('works for POST calls too', async () => {
    const res = await api.request('POST', '/rpc/blob_content', {
      headers: { Accept: 'application/octet-stream' },
      body: { blob_id: 2 },
    });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.text).toBe('ABC');
  });

  it('refuses text/plain for a set of text/plain values (only single values are handlers)', async () => {
    expectError(await api.get('/rpc/hello_twice', { Accept: 'text/plain' }), 406, unavailable('text/plain'));
  });

  it('sends a HEAD with the handler media type and no body', async () => {
    const res = await raw('/rpc/hello', 'text/plain', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('');
  });
});

describe('No built-in text, XML or binary output', () => {
  it('refuses text/plain for a function returning plain text', async () => {
    expectError(await api.get('/rpc/plain_hello', { Accept: 'text/plain' }), 406, unavailable('text/plain'));
  });

  it('refuses application/octet-stream for a function returning plain bytea', async () => {
    expectError(
      await api.get('/rpc/plain_bytes', { Accept: 'application/octet-stream' }),
      406,
      unavailable('application/octet-stream'),
    );
  });

  it('refuses text/plain, text/xml and application/octet-stream for a single column', async () => {
    expectError(
      await api.get('/mt_blobs?select=note&id=eq.1', { Accept: 'text/plain' }),
      406,
      unavailable('text/plain'),
    );
    expectError(await api.get('/mt_blobs?select=note&id=eq.1', { Accept: 'text/xml' }), 406, unavailable('text/xml'));
    expectError(
      await api.get('/mt_blobs?select=content&id=eq.1', { Accept: 'application/octet-stream' }),
      406,
      unavailable('application/octet-stream'),
    );
  });

  it('picks JSON when text/plain comes first but cannot be produced', async () => {
    const res = await api.get('/mt_shapes?id=eq.1', { Accept: 'text/plain, application/json' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
  });

  it('sends an unparseable media type back as it came', async () => {
    expectError(await api.get('/mt_shapes', { Accept: 'undefined' }), 406, unavailable('undefined'));
  });
});

describe('CustomMediaSpec: the any (*/*) handler', () => {
  it('answers a function returning */* as application/octet-stream, whatever was asked', async () => {
    for (const accept of ['*/*', 'app/bingo', 'text/bango', 'image/boingo']) {
      const res = await api.get('/rpc/anything', { Accept: accept });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.text).toBe('anything');
    }
  });

  it('lets the function set its Content-Type or refuse', async () => {
    const middle = await api.get('/rpc/picky', { Accept: '*/*' });
    expectStatus(middle, 200);
    expect(middle.headers['content-type']).toBe('app/middle');
    expect(middle.text).toBe('middle');
    for (const side of ['left', 'right']) {
      const res = await api.get('/rpc/picky', { Accept: `app/${side}` });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(`app/${side}`);
      expect(res.text).toBe(side);
    }
    expectStatus(await api.get('/rpc/picky', { Accept: 'text/csv' }), 406);
  });

  it('serves every media type of a table with a */* aggregate', async () => {
    const any = await api.get('/mt_numbers?val=eq.1', { Accept: '*/*' });
    expectStatus(any, 200);
    expect(any.headers['content-type']).toBe('application/octet-stream');
    expect(any.text).toBe('any\n1');

    const magic = await api.get('/mt_numbers?val=eq.2', { Accept: 'magic/number' });
    expectStatus(magic, 200);
    expect(magic.headers['content-type']).toBe('magic/number');
    expect(magic.text).toBe('magic\n2');

    const unknown = await api.get('/mt_numbers?val=eq.4', { Accept: 'unknown/unknown' });
    expectStatus(unknown, 200);
    expect(unknown.headers['content-type']).toBe('application/octet-stream');
    expect(unknown.text).toBe('any\n4');
  });
});

describe('CustomMediaSpec: aggregates serving tables and table functions', () => {
  it('builds a table body with its own aggregate', async () => {
    const res = await api.get('/mt_shapes?id=in.(1,2)&order=id', { Accept: 'text/tab-separated-values' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('text/tab-separated-values');
    expect(res.text).toBe('id\tname\tsides\n1\ttriangle\t3\n2\tsquare\t4\n');
  });

  it('serves the rows of a function returning the table', async () => {
    const res = await api.get('/rpc/mt_shapes_all?id=eq.3', { Accept: 'text/tab-separated-values' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('text/tab-separated-values');
    expect(res.text).toBe('id\tname\tsides\n3\tcircle\t\n');
  });

  it('refuses a table aggregate once select changes the columns', async () => {
    for (const select of ['id', 'id,name,sides,id', 'name,id,sides', 'id,name,sides']) {
      expectError(
        await api.get(`/mt_shapes?select=${select}`, { Accept: 'text/tab-separated-values' }),
        406,
        unavailable('text/tab-separated-values'),
      );
    }
  });

  it('refuses a media type the table has no handler for', async () => {
    expectError(
      await api.get('/rpc/mt_shapes_all', { Accept: 'application/octet-stream' }),
      406,
      unavailable('application/octet-stream'),
    );
  });

  it('replaces the built-in CSV of one table (headers set by the final function)', async () => {
    const res = await api.get('/mt_shapes?order=id', { Accept: 'text/csv' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(CSV_CT);
    expect(res.headers['content-disposition']).toBe('attachment; filename="shapes.csv"');
    expect(res.text).toBe('\ufeffshape id;shape name\n1;triangle\n2;square\n3;circle\n');
  });

  it('keeps the built-in CSV for the other tables', async () => {
    const res = await api.get('/mt_blobs?select=id,name&order=id', { Accept: 'text/csv' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(CSV_CT);
    expect(res.text).toBe('id,name\n1,first\n2,second');
  });

  it('replaces application/json for one table', async () => {
    const res = await api.get('/mt_own_json', { Accept: 'application/json' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(JSON_CT);
    expect(res.text).toBe('{"replaced": true}');
  });

  it('does not let a handler replace application/vnd.pgrst.object', async () => {
    const res = await api.get('/mt_shapes?id=eq.1', { Accept: 'application/vnd.pgrst.object' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe(OBJECT_CT);
    expect(res.json).toEqual({ id: 1, name: 'triangle', sides: 3 });
  });
});

describe('CustomMediaSpec: aggregates over anyelement', () => {
  it('serves any relation, with whatever select', async () => {
    const all = await api.get('/mt_shapes?id=in.(1,3)&order=id', { Accept: 'pg/record' });
    expectStatus(all, 200);
    expect(all.headers['content-type']).toBe('pg/record');
    expect(all.text).toBe('(1,triangle,3)\n(3,circle,)\n');

    const fewer = await api.get('/mt_shapes?id=in.(1,2)&order=id&select=name,id', { Accept: 'pg/record' });
    expectStatus(fewer, 200);
    expect(fewer.text).toBe('(triangle,1)\n(square,2)\n');
  });

  it('answers a jsonb domain with its binary format version byte first', async () => {
    const res = await api.get('/mt_shapes', { Accept: 'application/vnd.geo2+json' });
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('application/vnd.geo2+json');
    expect(res.text).toBe('\u0001{"from": "any", "type": "FeatureCollection"}');
  });

  it('prefers the handler of the relation itself, for tables and functions', async () => {
    for (const path of ['/mt_special', '/rpc/mt_special_all']) {
      const res = await api.get(path, { Accept: 'application/vnd.geo2+json' });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('application/vnd.geo2+json');
      expect(res.text).toBe('\u0001"specific"');
    }
  });
});

describe('Prefer: params=single-object (removed in PostgREST 13)', () => {
  it('is an unknown preference: ignored, and refused with handling=strict', async () => {
    const lenient = await api.request('POST', '/rpc/echo_object', {
      headers: { Prefer: 'params=single-object' },
      body: { payload: { x: 1 } },
    });
    expectStatus(lenient, 200);
    expect(lenient.json).toEqual({ x: 1 });
    expect(lenient.headers['preference-applied']).toBeUndefined();
    expectError(
      await api.request('POST', '/rpc/echo_object', {
        headers: { Prefer: 'handling=strict, params=single-object' },
        body: { payload: { x: 1 } },
      }),
      400,
      { code: 'PGRST122' },
    );
  });
});
