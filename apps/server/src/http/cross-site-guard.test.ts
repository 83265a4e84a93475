import { CROSS_SITE_REFUSAL } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { crossSiteVerdict, isGuardedRoute, ownOrigins } from './cross-site-fns.js';

const PUBLIC_URL = 'https://lookout.example';
const FOREIGN = 'https://evil.example';

describe('crossSiteVerdict', () => {
  const own = ownOrigins('lookout.example', PUBLIC_URL);
  const verdict = (method: string, headers: { site?: string; origin?: string }) =>
    crossSiteVerdict({ method, secFetchSite: headers.site, origin: headers.origin, ownOrigins: own });

  it('never refuses GET, HEAD or OPTIONS', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(verdict(method, { site: 'cross-site', origin: FOREIGN })).toEqual({ allowed: true });
    }
  });

  it('follows Sec-Fetch-Site when the browser sent it', () => {
    expect(verdict('POST', { site: 'same-origin' })).toEqual({ allowed: true });
    expect(verdict('POST', { site: 'none' })).toEqual({ allowed: true });
    expect(verdict('POST', { site: 'cross-site' })).toEqual({
      allowed: false,
      evidence: 'Sec-Fetch-Site: cross-site',
    });
    // A sibling subdomain is the same site, but not Lookout.
    expect(verdict('DELETE', { site: 'same-site', origin: 'https://blog.lookout.example' }).allowed).toBe(false);
    // The browser's word wins over an Origin a proxy made look foreign.
    expect(verdict('PATCH', { site: 'same-origin', origin: 'http://internal:8080' })).toEqual({ allowed: true });
  });

  it('compares Origin with Lookout’s own origins when Sec-Fetch-Site is missing', () => {
    expect(verdict('POST', { origin: PUBLIC_URL })).toEqual({ allowed: true });
    expect(verdict('POST', { origin: 'https://LOOKOUT.example:443' })).toEqual({ allowed: true });
    expect(verdict('POST', { origin: 'http://lookout.example' })).toEqual({ allowed: true });
    expect(verdict('POST', { origin: FOREIGN })).toEqual({ allowed: false, evidence: `Origin ${FOREIGN}` });
    expect(verdict('POST', { origin: 'https://lookout.example.evil.example' }).allowed).toBe(false);
    expect(verdict('POST', { origin: 'https://lookout.example:8443' }).allowed).toBe(false);
    expect(verdict('POST', { origin: 'null' })).toEqual({ allowed: false, evidence: 'Origin null' });
    expect(verdict('POST', { origin: 'not a url' }).allowed).toBe(false);
  });

  it('lets requests without either header through: they do not come from a browser', () => {
    expect(verdict('POST', {})).toEqual({ allowed: true });
  });

  it('knows Lookout by its Host too, with or without LOOKOUT_PUBLIC_URL', () => {
    expect(ownOrigins('localhost:8080', undefined)).toEqual(['http://localhost:8080', 'https://localhost:8080']);
    expect(ownOrigins('[::1]:80', undefined)).toContain('http://[::1]');
  });

  it('guards /api but leaves the Kratos public API to its own CSRF protection', () => {
    expect(isGuardedRoute('/api/db/*')).toBe(true);
    expect(isGuardedRoute('/api/canary/apply')).toBe(true);
    expect(isGuardedRoute('/api/.ory/admin/identities')).toBe(true);
    expect(isGuardedRoute('/api/.ory/self-service/login')).toBe(false);
    expect(isGuardedRoute('/health')).toBe(false);
    expect(isGuardedRoute(undefined)).toBe(false);
  });
});

describe('cross-site writes with a session cookie', () => {
  let testApp: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    testApp = await buildTestApp({ publicUrl: PUBLIC_URL });
    admin = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: 'csrf-admin@example.com',
      roles: ['admin'],
    });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  // The session cookie a browser sign-in sets holds the session token.
  const cookie = () => `ory_kratos_session=${admin.token}`;
  const propertyNamed = async (name: string) =>
    (await testApp.database.pool.query('SELECT value FROM properties WHERE name = $1', [name])).rows;
  const canaryNamed = async (name: string) =>
    (await testApp.database.pool.query('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name])).rows;
  const canaryYaml = (name: string) =>
    [
      'apiVersion: canaries.flanksource.com/v1',
      'kind: Canary',
      `metadata: {name: ${name}, namespace: default}`,
      'spec:',
      '  tcp:',
      '    - {name: port, endpoint: "127.0.0.1:1"}',
    ].join('\n');

  it('refuses the form a foreign page posts to /api/db/properties, and stores nothing', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/properties',
      headers: {
        cookie: cookie(),
        origin: FOREIGN,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'name=incidents.disable&value=true',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe(CROSS_SITE_REFUSAL.code);
    expect(response.json().message).toBe(CROSS_SITE_REFUSAL.message('POST', '/api/db/properties', `Origin ${FOREIGN}`));
    expect(await propertyNamed('incidents.disable')).toEqual([]);
  });

  it('refuses the text/plain canary a foreign page posts to /api/canary/apply, and creates nothing', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/canary/apply',
      headers: { cookie: cookie(), origin: FOREIGN, 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' },
      payload: canaryYaml('forged'),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('Sec-Fetch-Site: cross-site');
    expect(await canaryNamed('forged')).toEqual([]);
  });

  it('refuses DELETE and PATCH from a sibling subdomain too', async () => {
    for (const method of ['DELETE', 'PATCH'] as const) {
      const response = await testApp.app.inject({
        method,
        url: '/api/db/properties?name=eq.anything',
        headers: {
          cookie: cookie(),
          origin: 'https://blog.lookout.example',
          'sec-fetch-site': 'same-site',
          'content-type': 'application/json',
        },
        payload: method === 'PATCH' ? { value: 'x' } : undefined,
      });
      expect(response.statusCode, method).toBe(403);
    }
  });

  it('refuses the Kratos admin API under /api/.ory/admin, in its own error format', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/.ory/admin/identities',
      headers: { cookie: cookie(), origin: FOREIGN, 'content-type': 'application/json' },
      payload: { schema_id: 'default', traits: { email: 'forged@example.com' } },
    });
    expect(response.statusCode).toBe(403);
    expect(JSON.stringify(response.json())).toContain('another site');
    const rows = await testApp.database.pool.query(
      `SELECT 1 FROM identities WHERE traits->>'email' = 'forged@example.com'`,
    );
    expect(rows.rowCount).toBe(0);
  });

  it('accepts the same write from Lookout’s own pages', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/properties',
      headers: {
        cookie: cookie(),
        origin: PUBLIC_URL,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      payload: { name: 'logs.disable', value: 'true' },
    });
    expect(response.statusCode).toBe(201);
    expect(await propertyNamed('logs.disable')).toEqual([{ value: 'true' }]);
  });

  it('accepts a page served on the request’s own host when LOOKOUT_PUBLIC_URL names another', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/canary/apply',
      headers: {
        cookie: cookie(),
        host: 'lookout.internal:8080',
        origin: 'http://lookout.internal:8080',
        'content-type': 'application/yaml',
      },
      payload: canaryYaml('from-own-host'),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await canaryNamed('from-own-host')).toHaveLength(1);
  });

  it('does not check requests that authenticate with a session token, whatever their Origin', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/canary/apply',
      headers: {
        authorization: `Bearer ${admin.token}`,
        origin: FOREIGN,
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/yaml',
      },
      payload: canaryYaml('by-token'),
    });
    expect(response.statusCode).toBe(200);
    expect(await canaryNamed('by-token')).toHaveLength(1);
  });

  it('accepts a cookie without Origin or Sec-Fetch-Site: a script, not a browser another site can steer', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/canary/apply',
      headers: { cookie: cookie(), 'content-type': 'application/yaml' },
      payload: canaryYaml('by-script'),
    });
    expect(response.statusCode).toBe(200);
  });

  it('leaves reads alone and the Kratos browser flows to their own CSRF check', async () => {
    const read = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/properties',
      headers: { cookie: cookie(), origin: FOREIGN, 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(200);
    const flow = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/login/browser',
      headers: { accept: 'application/json' },
    });
    const login = await testApp.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.json<{ id: string }>().id}`,
      headers: { origin: FOREIGN, 'sec-fetch-site': 'cross-site', accept: 'application/json' },
      payload: { method: 'password', identifier: admin.email, password: 'x', csrf_token: 'forged' },
    });
    // Kratos's own answer (a CSRF violation), not the cross-site guard's.
    expect(login.statusCode).toBe(403);
    expect(login.json().error.id).toBe('security_csrf_violation');
  });
});
