import { mkdtemp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, bearer } from '../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';

describe('serving the web app', () => {
  let webDir: string;
  let testApp: TestApp;

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Lookout</title><div id="root"></div>');
    await writeFile(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("app")');
    // What the web build writes beside each asset (apps/web/vite-precompress.ts).
    const bundle = 'export const check = "healthy";\n'.repeat(200);
    await writeFile(path.join(webDir, 'assets', 'bundle-5678.js'), bundle);
    await writeFile(path.join(webDir, 'assets', 'bundle-5678.js.br'), zlib.brotliCompressSync(bundle));
    await writeFile(path.join(webDir, 'assets', 'bundle-5678.js.gz'), zlib.gzipSync(bundle));
    testApp = await buildTestApp({ webDir });
  });
  afterAll(async () => {
    await testApp.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('answers a deep link with index.html so the client router can take over', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/health/checks?tab=all' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<div id="root">');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers / with index.html, as the browser lands there after signing in', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
  });

  it('serves fingerprinted assets with a long cache lifetime', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('serves the precompressed copy the browser accepts, keeping immutable caching', async () => {
    const bundle = 'export const check = "healthy";\n'.repeat(200);
    const br = await testApp.app.inject({
      method: 'GET',
      url: '/assets/bundle-5678.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(bundle);

    const gz = await testApp.app.inject({
      method: 'GET',
      url: '/assets/bundle-5678.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bundle);

    const plain = await testApp.app.inject({ method: 'GET', url: '/assets/bundle-5678.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.body).toBe(bundle);
  });

  it('compresses API answers above the threshold, /api/db pages with their Content-Range too', async () => {
    const docs = await testApp.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br' },
    });
    expect(docs.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(docs.rawPayload).toString()).openapi).toBe('3.1.0');

    const admin = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: 'compression-admin@example.com',
      roles: ['admin'],
    });
    await testApp.database.pool.query(
      `INSERT INTO properties (name, value, description)
       SELECT 'compression.flag' || i, 'true', repeat('A property to make the page long. ', 3) FROM generate_series(1, 40) i`,
    );
    const page = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/properties?name=like.compression.*',
      headers: { ...bearer(admin), 'accept-encoding': 'gzip', prefer: 'count=exact' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-range']).toBe('0-39/40');
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(page.rawPayload).toString())).toHaveLength(40);
  });

  it('serves files of a web build made after the server started', async () => {
    await writeFile(path.join(webDir, 'assets', 'late-5678.js'), 'console.log("rebuilt")');
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/late-5678.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('rebuilt');
  });

  it('answers a missing file with 404 instead of the page', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/gone-9999.js' });
    expect(response.statusCode).toBe(404);
  });

  it('never falls back to the page for /api paths', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/unknown/thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });

  it('answers a POST to a page path with a JSON 404', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/health', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('No API route matches POST /health.');
  });
});

describe('without a web build', () => {
  it('explains how to build the web app', async () => {
    const testApp = await buildTestApp();
    try {
      const response = await testApp.app.inject({ method: 'GET', url: '/' });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('npm run build');
    } finally {
      await testApp.close();
    }
  });
});

describe('unknown paths', () => {
  let webDir: string;
  let testApp: TestApp;
  const logLines: string[] = [];
  // Fastify's complaints when a request reaches not-found handling twice or is answered twice.
  const doubleHandling = () =>
    logLines.filter((line) => /inside a 404 handler|Sending basic 404|already sent/i.test(line));

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Lookout</title><div id="root"></div>');
    await writeFile(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("app")');
    const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    testApp = await buildTestApp({ webDir, logger });
  });
  afterAll(async () => {
    await testApp.close();
    await rm(webDir, { recursive: true, force: true });
  });

  const odd = ['/a%2fb', '//x', '/.hidden', '/a;b', '/x%20y', '/' + 'a'.repeat(300)];
  // inject resolves dot segments as a browser does, so these only reach page paths.
  const dotted = ['/%2e%2e/x', '/x/../y', '/./x'];

  it('answers every unknown /api path once, with a 404 in the error envelope', async () => {
    const paths = ['/api', '/api/', '/api/nope', '/api/canary/nope', '/api/docs/static/nope.js', '/api/docs/nope/'];
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      for (const url of [...paths, ...odd.map((p) => `/api${p}`)]) {
        const response = await testApp.app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        if (method !== 'HEAD') expect(response.json().error.code, `${method} ${url}`).toBe('not_found');
      }
    }
    expect(doubleHandling()).toEqual([]);
  });

  it('answers unknown page paths with the console (its not-found page), missing files with a 404', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      for (const url of ['/no/such/page', '/assets', '/assets/', ...odd, ...dotted]) {
        const response = await testApp.app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(200);
        expect(response.headers['content-type'], `${method} ${url}`).toContain('text/html');
      }
      for (const url of ['/assets/gone-9999.js', '/favicon.svg/x.js', '/assets/.env.js', '/INDEX.HTML']) {
        const response = await testApp.app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect(doubleHandling()).toEqual([]);
  });

  it('refuses an address that is not valid percent-encoding in the envelope', async () => {
    for (const url of ['/api/%zz', '/%E0%A4%A', '/api/%c0%ae']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code, url).toBe('bad_url');
      expect(response.json().message, url).toContain('not a valid URL');
    }
  });

  it('answers once while index.html is missing (a rebuild in progress), without Fastify’s bare 404', async () => {
    const index = path.join(webDir, 'index.html');
    await rename(index, `${index}.away`);
    try {
      const response = await testApp.app.inject({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build');
    } finally {
      await rename(`${index}.away`, index);
    }
    expect(doubleHandling()).toEqual([]);
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
