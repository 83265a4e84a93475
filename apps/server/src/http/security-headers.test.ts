import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';

let webDir: string;
let testApp: TestApp;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Lookout</title><div id="root"></div>');
  await writeFile(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("app")');
  testApp = await buildTestApp({ webDir, publicUrl: 'https://lookout.example' });
});
afterAll(async () => {
  await testApp.close();
  await rm(webDir, { recursive: true, force: true });
});

/** The CSP as a map of directive → sources. */
const cspOf = (response: LightMyRequestResponse): Map<string, string[]> => {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
};

const expectHardened = (response: LightMyRequestResponse, what: string) => {
  const csp = cspOf(response);
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  expect(csp.get('script-src'), what).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.has('upgrade-insecure-requests'), what).toBe(false);
  expect(response.headers['x-frame-options'], what).toBe('DENY');
  expect(response.headers['referrer-policy'], what).toBe('same-origin');
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(response.headers['strict-transport-security'], what).toBeUndefined();
};

describe('security headers', () => {
  it('are on the console page, its assets, the API, its docs and every refusal', async () => {
    const calls: Array<[string, InjectOptions]> = [
      ['console page', { method: 'GET', url: '/health' }],
      ['asset', { method: 'GET', url: '/assets/app-1234.js' }],
      ['missing asset', { method: 'GET', url: '/assets/gone.js' }],
      ['API', { method: 'GET', url: '/api/health' }],
      ['API docs', { method: 'GET', url: '/api/docs' }],
      ['unknown API path', { method: 'GET', url: '/api/nope' }],
      ['401', { method: 'GET', url: '/api/auth/whoami' }],
      ['Kratos flow', { method: 'GET', url: '/api/.ory/self-service/login/api' }],
      [
        'cross-site refusal',
        {
          method: 'POST',
          url: '/api/canary/apply',
          headers: { cookie: 'ory_kratos_session=x', origin: 'https://evil.example' },
        },
      ],
      ['malformed address', { method: 'GET', url: '/api/%zz' }],
    ];
    for (const [what, call] of calls) {
      const response = await testApp.app.inject(call);
      expect(response.statusCode, what).toBeLessThan(500);
      if (what === 'malformed address') {
        // Refused before routing, so before helmet's hook; nothing in it to frame or run.
        expect(response.headers['content-type'], what).toContain('application/json');
        continue;
      }
      expectHardened(response, what);
    }
  });

  it('allow what the console needs: its own scripts, run-time styles, data: images (TOTP QR code)', async () => {
    const csp = cspOf(await testApp.app.inject({ method: 'GET', url: '/' }));
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  });
});
