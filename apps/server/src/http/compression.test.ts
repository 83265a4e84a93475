import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES, registerCompression } from './compression.js';

const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `check-${i}`, status: 'healthy' }));
const bigJson = JSON.stringify(rows);
const wideText = 'é'.repeat(600);

let app: FastifyInstance;
let dir: string;
let file: string;
let baseUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-compression-'));
  file = path.join(dir, 'bundle.js');
  await writeFile(file, 'export const answer = 42;\n'.repeat(400));

  app = Fastify({ logger: false });
  registerCompression(app);
  app.get('/rows', async () => rows);
  app.get('/small', async () => ({ ok: true }));
  // Fewer characters than the threshold, but more UTF-8 bytes.
  app.get('/wide', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(wideText));
  // A PostgREST-style page: the range counts items, not bytes.
  app.get('/page', async (_request, reply) => reply.header('content-range', '0-199/573').send(rows));
  app.get('/bytes', async (_request, reply) =>
    reply.header('content-range', `bytes 0-${bigJson.length - 1}/${bigJson.length}`).send(bigJson),
  );
  app.get('/no-transform', async (_request, reply) => reply.header('cache-control', 'no-transform').send(rows));
  app.get('/tagged', async (_request, reply) => reply.header('etag', '"v1"').send(rows));
  app.get('/encoded', async (_request, reply) =>
    reply.header('content-encoding', 'gzip').type('application/json').send(zlib.gzipSync(bigJson)),
  );
  app.get('/file', async (_request, reply) => {
    const { size } = await stat(file);
    return reply.type('text/javascript').header('content-length', size).send(createReadStream(file));
  });
  // Server-sent events: one event now, the stream stays open until /events/end is called.
  const openStreams: PassThrough[] = [];
  app.get('/events', async (_request, reply) => {
    const stream = new PassThrough();
    openStreams.push(stream);
    stream.write(`data: ${'x'.repeat(2000)}\n\n`);
    return reply.type('text/event-stream').send(stream);
  });
  // Progressive output of unknown length (NDJSON lines as they come).
  app.get('/progress', async (_request, reply) => {
    const stream = new PassThrough();
    openStreams.push(stream);
    stream.write(`${JSON.stringify({ step: 1, note: 'y'.repeat(2000) })}\n`);
    return reply.type('application/x-ndjson').send(stream);
  });
  app.get('/end', async () => {
    for (const stream of openStreams.splice(0)) stream.end();
    return { ended: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br', ...headers } });

describe('compression of answers', () => {
  it('sends large JSON with brotli or gzip, as accepted, and it decodes to the same body', async () => {
    const br = await get('/rows');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(bigJson.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(bigJson);

    const gz = await get('/rows', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bigJson);

    const plain = await get('/rows', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.body).toBe(bigJson);
  });

  it(`leaves bodies under ${COMPRESSION_THRESHOLD_BYTES} bytes alone`, async () => {
    const response = await get('/small');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ ok: true });
  });

  it('measures a text body in bytes, not characters', async () => {
    const response = await get('/wide');
    expect(response.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(wideText);
  });

  it('compresses a page of rows with an item Content-Range, but not a byte range', async () => {
    const page = await get('/page');
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-range']).toBe('0-199/573');
    const bytes = await get('/bytes');
    expect(bytes.headers['content-encoding']).toBeUndefined();
  });

  it('respects no-transform and bodies encoded already, and weakens a strong ETag', async () => {
    expect((await get('/no-transform')).headers['content-encoding']).toBeUndefined();
    const encoded = await get('/encoded');
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(encoded.rawPayload).toString()).toBe(bigJson);
    const tagged = await get('/tagged');
    expect(tagged.headers.etag).toBe('W/"v1"');
  });

  it('compresses a streamed file of known length', async () => {
    const response = await get('/file');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-length']).toBeUndefined();
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toContain('export const answer = 42;');
  });
});

/** Reads over real HTTP until the first chunk arrives, while the server keeps the stream open. */
function firstChunk(url: string): Promise<{ headers: http.IncomingHttpHeaders; chunk: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${url}`, { headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
      response.once('data', (chunk: Buffer) => {
        resolve({ headers: response.headers, chunk: chunk.toString() });
        request.destroy();
      });
    });
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
  });
}

describe('streams are not held back', () => {
  it('delivers a server-sent event at once, uncompressed, while the stream is still open', async () => {
    const { headers, chunk } = await firstChunk('/events');
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers['content-type']).toContain('text/event-stream');
    expect(chunk.startsWith('data: xxx')).toBe(true);
    await app.inject({ method: 'GET', url: '/end' });
  });

  it('delivers progressive output of unknown length as it is written', async () => {
    const { headers, chunk } = await firstChunk('/progress');
    expect(headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(chunk.trim())).toMatchObject({ step: 1 });
    await app.inject({ method: 'GET', url: '/end' });
  });
});
