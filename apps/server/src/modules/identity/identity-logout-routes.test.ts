import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { browserLogin, nodeNamed, seedIdentity, TestBrowser } from '../../../test/identity-helpers.js';

const PASSWORD = 'correct-horse-battery';
// app.inject talks to localhost:80.
const ORIGIN = 'http://localhost:80';

describe('identity: sessions and logout', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    await seedIdentity(testApp.database.pool, {
      email: 'ada@example.com',
      password: PASSWORD,
      first: 'Ada',
      last: 'Lovelace',
    });
  });
  afterAll(() => testApp.close());

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
});
