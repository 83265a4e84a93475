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

describe('identity: login, sessions and logout', () => {
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

  it('logs out with a logout token once; the token cannot be replayed', async () => {
    const browser = new TestBrowser(testApp.app);
    await browserLogin(browser, 'ada@example.com', PASSWORD);
    const logout = await browser.getJson('/api/.ory/self-service/logout/browser');
    expect(logout.statusCode).toBe(200);
    const { logout_token: token, logout_url: url } = logout.json();
    expect(url).toBe(`${ORIGIN}/api/.ory/self-service/logout?token=${token}`);
    const used = await browser.getJson(`/api/.ory/self-service/logout?token=${token}`);
    expect(used.statusCode).toBe(204);
    expect(used.cookies.find((c) => c.name === 'ory_kratos_session')?.value).toBe('');
    expect((await browser.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(401);

    const replay = await testApp.app.inject({
      method: 'GET',
      url: `/api/.ory/self-service/logout?token=${token}`,
      headers: { accept: 'application/json' },
    });
    expect(replay.statusCode).toBe(403);
    expect(replay.json().error.id).toBe('security_csrf_violation');
    expect((await testApp.app.inject({ method: 'GET', url: '/api/.ory/self-service/logout/browser' })).statusCode).toBe(
      401,
    );
  });

  it('redirects a browser logout to return_to', async () => {
    const browser = new TestBrowser(testApp.app);
    await browserLogin(browser, 'ada@example.com', PASSWORD);
    const { logout_token: token } = (
      await browser.getJson('/api/.ory/self-service/logout/browser?return_to=/login')
    ).json();
    const response = await browser.get(`/api/.ory/self-service/logout?token=${token}&return_to=/login`);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${ORIGIN}/login`);
  });

  it('answers whoami without a session with 401 session_inactive', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/.ory/sessions/whoami' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: {
        id: 'session_inactive',
        code: 401,
        status: 'Unauthorized',
        reason: 'No active session was found in this request.',
        message: 'request does not have a valid authentication session',
      },
    });
    const auth = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/whoami',
      headers: { authorization: 'Bearer ory_st_nope' },
    });
    expect(auth.statusCode).toBe(401);
  });

  it('signs an API client in with a session token that works as X-Session-Token and Bearer', async () => {
    const created = await testApp.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api' });
    expect(created.statusCode).toBe(200);
    const flow = created.json();
    expect(flow.type).toBe('api');
    expect(nodeNamed(flow, 'csrf_token')).toBeUndefined();
    const login = await testApp.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.id}`,
      payload: { method: 'password', identifier: 'ada@example.com', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const { session_token: token, session, continue_with: continueWith } = login.json();
    expect(token).toMatch(/^ory_st_/);
    expect(continueWith).toEqual([{ action: 'set_ory_session_token', ory_session_token: token }]);
    expect(login.cookies).toEqual([]);

    const whoami = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/sessions/whoami',
      headers: { 'x-session-token': token },
    });
    expect(whoami.json().id).toBe(session.id);
    const bearer = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/whoami',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);

    const stored = await testApp.database.pool.query('SELECT token_hash FROM identity_sessions WHERE id = $1', [
      session.id,
    ]);
    expect(stored.rows[0].token_hash).not.toBe(token);

    const logout = await testApp.app.inject({
      method: 'DELETE',
      url: '/api/.ory/self-service/logout/api',
      payload: { session_token: token },
    });
    expect(logout.statusCode).toBe(204);
    expect(
      (
        await testApp.app.inject({
          method: 'GET',
          url: '/api/.ory/sessions/whoami',
          headers: { 'x-session-token': token },
        })
      ).statusCode,
    ).toBe(401);
    const again = await testApp.app.inject({
      method: 'DELETE',
      url: '/api/.ory/self-service/logout/api',
      payload: { session_token: token },
    });
    expect(again.statusCode).toBe(403);
    const empty = await testApp.app.inject({ method: 'DELETE', url: '/api/.ory/self-service/logout/api', payload: {} });
    expect(empty.statusCode).toBe(400);
  });

  it('ends an expired session', async () => {
    const browser = new TestBrowser(testApp.app);
    const login = await browserLogin(browser, 'ada@example.com', PASSWORD);
    await testApp.database.pool.query(
      `UPDATE identity_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [login.json().session.id],
    );
    expect((await browser.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(401);
  });

  it('lists and revokes my other sessions', async () => {
    const first = new TestBrowser(testApp.app);
    const second = new TestBrowser(testApp.app);
    await browserLogin(first, 'ada@example.com', PASSWORD);
    const secondLogin = await browserLogin(second, 'ada@example.com', PASSWORD);
    const listed = await first.getJson('/api/.ory/sessions');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((s: { id: string }) => s.id)).toContain(secondLogin.json().session.id);
    const revoked = await first.request({
      method: 'DELETE',
      url: `/api/.ory/sessions/${secondLogin.json().session.id}`,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await second.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(401);
    expect(
      (await first.request({ method: 'DELETE', url: '/api/.ory/sessions/00000000-0000-0000-0000-000000000000' }))
        .statusCode,
    ).toBe(404);
    const all = await first.request({ method: 'DELETE', url: '/api/.ory/sessions' });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toHaveProperty('count');
    expect((await first.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(200);
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
