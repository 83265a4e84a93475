import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import {
  browserFlow,
  browserLogin,
  csrfOf,
  nodeNamed,
  seedIdentity,
  TestBrowser,
} from '../../../test/identity-helpers.js';

const PASSWORD = 'correct-horse-battery';
// app.inject talks to localhost:80.
const ORIGIN = 'http://localhost:80';

describe('identity: login', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    await seedIdentity(testApp.database.pool, {
      email: 'ada@example.com',
      password: PASSWORD,
      first: 'Ada',
      last: 'Lovelace',
    });
    await seedIdentity(testApp.database.pool, { email: 'limit@example.com', password: PASSWORD });
  });
  afterAll(() => testApp.close());

  it('redirects a browser to the login page with a new flow and a CSRF cookie', async () => {
    const browser = new TestBrowser(testApp.app);
    const response = await browser.get('/api/.ory/self-service/login/browser?return_to=/health');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^http:\/\/localhost(:\d+)?\/login\?flow=[0-9a-f-]{36}$/);
    const csrf = response.cookies.find((cookie) => cookie.name === 'csrf_token');
    expect(csrf).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const id = new URL(String(response.headers.location)).searchParams.get('flow');
    const flow = await browser.getJson(`/api/.ory/self-service/login/flows?id=${id}`);
    expect(flow.statusCode).toBe(200);
    const body = flow.json();
    expect(body).toMatchObject({
      id,
      type: 'browser',
      state: 'choose_method',
      refresh: false,
      requested_aal: 'aal1',
      return_to: '/health',
    });
    expect(body.ui.action).toBe(`${ORIGIN}/api/.ory/self-service/login?flow=${id}`);
    expect(body.ui.method).toBe('POST');
    expect(
      body.ui.nodes.map(
        (node: { group: string; attributes: { name: string } }) => `${node.group}:${node.attributes.name}`,
      ),
    ).toEqual(['default:csrf_token', 'default:identifier', 'password:password', 'password:method']);
    expect(nodeNamed(body, 'password')?.attributes).toMatchObject({
      type: 'password',
      required: true,
      node_type: 'input',
      disabled: false,
    });
    expect(nodeNamed(body, 'method')).toMatchObject({
      meta: { label: { id: 1010001, text: 'Sign in', type: 'info' } },
    });
    expect(csrfOf(body)).toBe(csrf?.value);
  });

  it('refuses to show a browser flow to a request without its CSRF cookie', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browserFlow(browser, 'login');
    const stranger = await testApp.app.inject({
      method: 'GET',
      url: `/api/.ory/self-service/login/flows?id=${flow.id}`,
      headers: { accept: 'application/json' },
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error).toMatchObject({ id: 'security_csrf_violation', code: 403, status: 'Forbidden' });
  });

  it('answers a wrong password and an unknown identifier with the same 4000006 message', async () => {
    const browser = new TestBrowser(testApp.app);
    for (const [identifier, password] of [
      ['ada@example.com', 'wrong-password'],
      ['nobody@example.com', PASSWORD],
    ]) {
      const flow = await browserFlow(browser, 'login');
      const response = await browser.postJson(`/api/.ory/self-service/login?flow=${flow.id}`, {
        method: 'password',
        identifier,
        password,
        csrf_token: csrfOf(flow),
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.id).toBe(flow.id);
      expect(body.ui.messages).toEqual([
        {
          id: 4000006,
          text: 'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
          type: 'error',
        },
      ]);
      expect(nodeNamed(body, 'identifier')?.attributes.value).toBe(identifier);
      expect(nodeNamed(body, 'password')?.attributes.value).toBeUndefined();
      expect(response.body).not.toContain(password);
    }
  });

  it('says which field is missing and which method is unknown', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browserFlow(browser, 'login');
    const missing = await browser.postJson(`/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'password',
      identifier: 'ada@example.com',
      csrf_token: csrfOf(flow),
    });
    expect(missing.statusCode).toBe(400);
    expect(nodeNamed(missing.json(), 'password')?.messages).toEqual([
      { id: 4000002, text: 'Property password is missing.', type: 'error', context: { property: 'password' } },
    ]);

    const unknown = await browser.postJson(`/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'magic',
      csrf_token: csrfOf(flow),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().ui.messages[0].id).toBe(4010002);
  });

  it('rejects a CSRF token that does not belong to the flow, as JSON or as a redirect to the error page', async () => {
    const browser = new TestBrowser(testApp.app);
    const first = await browserFlow(browser, 'login');
    const other = new TestBrowser(testApp.app);
    const otherFlow = await browserFlow(other, 'login');
    const replayed = await browser.postJson(`/api/.ory/self-service/login?flow=${first.id}`, {
      method: 'password',
      identifier: 'ada@example.com',
      password: PASSWORD,
      csrf_token: csrfOf(otherFlow),
    });
    expect(replayed.statusCode).toBe(403);
    expect(replayed.json().error.id).toBe('security_csrf_violation');
    expect(browser.cookies.has('ory_kratos_session')).toBe(false);

    const form = await browser.postForm(`/api/.ory/self-service/login?flow=${first.id}`, {
      method: 'password',
      identifier: 'ada@example.com',
      password: PASSWORD,
    });
    expect(form.statusCode).toBe(303);
    const errorId = new URL(String(form.headers.location)).searchParams.get('id');
    expect(String(form.headers.location)).toMatch(/\/error\?id=/);
    const stored = await browser.getJson(`/api/.ory/self-service/errors?id=${errorId}`);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ id: errorId, error: { id: 'security_csrf_violation', code: 403 } });
    expect(
      (await browser.getJson('/api/.ory/self-service/errors?id=00000000-0000-0000-0000-000000000000')).statusCode,
    ).toBe(404);
  });

  it('signs a browser in, sets the session cookie, and answers whoami', async () => {
    const browser = new TestBrowser(testApp.app);
    const response = await browserLogin(browser, 'ADA@example.com', PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.session).toMatchObject({
      active: true,
      authenticator_assurance_level: 'aal1',
      identity: { traits: { email: 'ada@example.com' } },
    });
    expect(body.session.authentication_methods).toEqual([expect.objectContaining({ method: 'password', aal: 'aal1' })]);
    expect(body).not.toHaveProperty('session_token');
    const cookie = response.cookies.find((c) => c.name === 'ory_kratos_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    const lifetime = new Date(String(cookie?.expires)).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(23 * 3_600_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3_600_000);

    const whoami = await browser.getJson('/api/.ory/sessions/whoami');
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json()).toMatchObject({
      id: body.session.id,
      identity: { traits: { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } } },
    });

    const auth = await browser.getJson('/api/auth/whoami');
    expect(auth.statusCode).toBe(200);
    expect(auth.json()).toMatchObject({
      message: 'success',
      payload: { user: { id: body.session.identity.id, name: 'Ada Lovelace', email: 'ada@example.com', avatar: null } },
    });

    const again = await browserFlow(browser, 'login').catch((error: Error) => error);
    expect(String(again)).toMatch(/400.*session_already_available/);
  });

  it('marks the session cookie Secure when a trusted proxy says the request came over https', async () => {
    // app.inject connects from 127.0.0.1: the proxy LOOKOUT_TRUST_PROXY names here.
    const behindProxy = await buildTestApp({ trustProxy: ['127.0.0.1'] });
    try {
      await seedIdentity(behindProxy.database.pool, { email: 'ada@example.com', password: PASSWORD });
      const browser = new TestBrowser(behindProxy.app);
      const flow = await browser.request({
        method: 'GET',
        url: '/api/.ory/self-service/login/browser',
        headers: { accept: 'application/json', 'x-forwarded-proto': 'https' },
      });
      const body = flow.json();
      expect(body.ui.action).toMatch(/^https:\/\//);
      const response = await browser.request({
        method: 'POST',
        url: `/api/.ory/self-service/login?flow=${body.id}`,
        payload: { method: 'password', identifier: 'ada@example.com', password: PASSWORD, csrf_token: csrfOf(body) },
        headers: { accept: 'application/json', 'x-forwarded-proto': 'https' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.cookies.find((c) => c.name === 'ory_kratos_session')?.secure).toBe(true);
    } finally {
      await behindProxy.close();
    }
  });

  it('ignores X-Forwarded-Proto from a client that is no trusted proxy (the default)', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.request({
      method: 'GET',
      url: '/api/.ory/self-service/login/browser',
      headers: { accept: 'application/json', 'x-forwarded-proto': 'https' },
    });
    const body = flow.json();
    expect(body.ui.action).toBe(`${ORIGIN}/api/.ory/self-service/login?flow=${body.id}`);
    expect(browser.cookies.has('csrf_token')).toBe(true);
    expect(flow.cookies.find((c) => c.name === 'csrf_token')?.secure).toBeUndefined();
  });

  it('redirects a form post to return_to after signing in', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browserFlow(browser, 'login', '?return_to=/incidents');
    const response = await browser.postForm(`/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'password',
      identifier: 'ada@example.com',
      password: PASSWORD,
      csrf_token: csrfOf(flow),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^http:\/\/localhost(:\d+)?\/incidents$/);
    expect(browser.cookies.has('ory_kratos_session')).toBe(true);
  });

  it('refuses a return_to on another site', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/login/browser?return_to=https://evil.example.com/',
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      id: 'self_service_flow_return_to_forbidden',
      reason: 'Requested return_to URL "https://evil.example.com/" is not allowed.',
    });
  });

  it('answers 410 with a replacement flow when the flow expired, and 404 for an unknown flow', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browserFlow(browser, 'login');
    await testApp.database.pool.query(
      `UPDATE identity_flows SET expires_at = now() - interval '5 minutes' WHERE id = $1`,
      [flow.id],
    );
    const response = await browser.postJson(`/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'password',
      identifier: 'ada@example.com',
      password: PASSWORD,
      csrf_token: csrfOf(flow),
    });
    expect(response.statusCode).toBe(410);
    const body = response.json();
    expect(body.error).toMatchObject({ id: 'self_service_flow_expired', code: 410, status: 'Gone' });
    expect(body.use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
    const replacement = await browser.getJson(`/api/.ory/self-service/login/flows?id=${body.use_flow_id}`);
    expect(replacement.json().ui.messages[0]).toMatchObject({ id: 4010001, type: 'error' });
    expect((await browser.getJson(`/api/.ory/self-service/login/flows?id=${flow.id}`)).statusCode).toBe(410);

    const form = await browser.postForm(`/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'password',
      identifier: 'x',
      password: 'y',
      csrf_token: csrfOf(flow),
    });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toMatch(/\/login\?flow=/);

    expect(
      (await browser.getJson('/api/.ory/self-service/login/flows?id=00000000-0000-0000-0000-000000000000')).statusCode,
    ).toBe(404);
    expect((await browser.getJson('/api/.ory/self-service/login/flows?id=not-a-uuid')).statusCode).toBe(404);
    const unknownUpdate = await browser.postJson(
      '/api/.ory/self-service/login?flow=00000000-0000-0000-0000-000000000000',
      { method: 'password' },
    );
    expect(unknownUpdate.statusCode).toBe(404);
    expect(unknownUpdate.json().error).toMatchObject({ code: 404, status: 'Not Found' });
  });

  it('answers malformed bodies with a 4xx Kratos error, never a 500', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browserFlow(browser, 'login');
    const malformed = await browser.request({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.id}`,
      payload: '{"method":',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe(400);
    const array = await browser.request({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.id}`,
      payload: '[1,2]',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(array.statusCode).toBe(400);
    const xml = await browser.request({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.id}`,
      payload: '<a/>',
      headers: { 'content-type': 'application/xml', accept: 'application/json' },
    });
    expect(xml.statusCode).toBe(415);
    const typed = await browser.postJson(`/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'password',
      identifier: { $gt: '' },
      password: ['x'],
      csrf_token: csrfOf(flow),
    });
    expect(typed.statusCode).toBe(400);
  });

  it('limits password attempts per identifier with 429', async () => {
    const browser = new TestBrowser(testApp.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const flow = await browserFlow(browser, 'login');
      const response = await browser.postJson(`/api/.ory/self-service/login?flow=${flow.id}`, {
        method: 'password',
        identifier: 'limit@example.com',
        password: 'wrong-password',
        csrf_token: csrfOf(flow),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
