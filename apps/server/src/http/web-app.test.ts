import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';

describe('serving the web app', () => {
  let webDir: string;
  let testApp: TestApp;

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Lookout</title><div id="root"></div>');
    await writeFile(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("app")');
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
