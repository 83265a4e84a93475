import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { browserFlow, browserLogin, csrfOf, seedIdentity, TestBrowser } from '../../../test/identity-helpers.js';

const PASSWORD = 'correct-horse-battery';
const NEW_PASSWORD = 'amber-forest-kite-42';
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };
const FIFTEEN_MINUTES_S = 15 * 60;

/** A 429 that says when to come back: Retry-After in seconds, within the 15-minute window. */
function expectRetryAfter(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(429);
  const seconds = Number(response.headers['retry-after']);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(FIFTEEN_MINUTES_S);
  expect(response.json().error).toMatchObject({
    id: 'rate_limit_exceeded',
    code: 429,
    details: { retry_after_seconds: seconds },
  });
}

/** Signs in through the API flow from `remoteAddress` and returns the session token. */
async function apiToken(testApp: TestApp, email: string, password: string, remoteAddress = '127.0.0.1') {
  const flow = await testApp.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api', remoteAddress });
  const login = await testApp.app.inject({
    method: 'POST',
    url: `/api/.ory/self-service/login?flow=${flow.json<{ id: string }>().id}`,
    headers: JSON_HEADERS,
    payload: { method: 'password', identifier: email, password },
    remoteAddress,
  });
  expect(login.statusCode, login.body).toBe(200);
  return login.json<{ session_token: string }>().session_token;
}

const whoamiStatus = async (testApp: TestApp, token: string) =>
  (
    await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/sessions/whoami',
      headers: { 'x-session-token': token },
    })
  ).statusCode;

/** Changes the password through a settings flow of the signed-in browser. */
async function changePassword(browser: TestBrowser, password: string) {
  const flow = await browserFlow(browser, 'settings');
  return browser.postJson(`/api/.ory/self-service/settings?flow=${flow.id}`, {
    method: 'password',
    password,
    csrf_token: csrfOf(flow),
  });
}

describe('identity: a password change ends the other sessions (revoke_active_sessions)', () => {
  let testApp: TestApp;
  let keeping: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    keeping = await buildTestApp({ identity: { revokeSessionsOnPasswordChange: false } });
    for (const app of [testApp, keeping]) {
      await seedIdentity(app.database.pool, { email: 'owner@example.com', password: PASSWORD });
      await seedIdentity(app.database.pool, { email: 'bystander@example.com', password: PASSWORD });
    }
  });
  afterAll(async () => {
    await testApp.close();
    await keeping.close();
  });

  it('signs out a stolen browser session and a script token, keeps the session that changed it and other people’s', async () => {
    const attacker = new TestBrowser(testApp.app, '203.0.113.9');
    expect((await browserLogin(attacker, 'owner@example.com', PASSWORD)).statusCode).toBe(200);
    const scriptToken = await apiToken(testApp, 'owner@example.com', PASSWORD);
    const bystanderToken = await apiToken(testApp, 'bystander@example.com', PASSWORD);
    const owner = new TestBrowser(testApp.app);
    expect((await browserLogin(owner, 'owner@example.com', PASSWORD)).statusCode).toBe(200);

    const changed = await changePassword(owner, NEW_PASSWORD);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().ui.messages[0]).toMatchObject({ id: 1050001 });

    expect((await attacker.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(401);
    expect(await whoamiStatus(testApp, scriptToken)).toBe(401);
    expect((await owner.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(200);
    expect((await owner.getJson('/api/.ory/sessions')).json()).toEqual([]);
    expect(await whoamiStatus(testApp, bystanderToken)).toBe(200);

    // The old password no longer signs anyone in; the new one does.
    const oldPassword = await browserLogin(new TestBrowser(testApp.app), 'owner@example.com', PASSWORD);
    expect(oldPassword.json().ui.messages[0].id).toBe(4000006);
    expect((await browserLogin(new TestBrowser(testApp.app), 'owner@example.com', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('also when the password is set after a recovery: the intruder’s session ends', async () => {
    await seedIdentity(testApp.database.pool, { email: 'recovered@example.com', password: PASSWORD });
    const intruderToken = await apiToken(testApp, 'recovered@example.com', PASSWORD, '203.0.113.10');
    const admin = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: 'recovery-admin@example.com',
      roles: ['admin'],
    });
    const [identity] = (
      await testApp.app.inject({
        method: 'GET',
        url: '/api/.ory/admin/identities?credentials_identifier=recovered@example.com',
        headers: bearer(admin),
      })
    ).json<{ id: string }[]>();
    const link = await testApp.app.inject({
      method: 'POST',
      url: '/api/.ory/admin/recovery/link',
      headers: { ...JSON_HEADERS, ...bearer(admin) },
      payload: { identity_id: identity!.id },
    });
    const url = new URL(link.json<{ recovery_link: string }>().recovery_link);
    const owner = new TestBrowser(testApp.app);
    expect((await owner.get(`${url.pathname}${url.search}`)).statusCode).toBe(303);

    expect((await changePassword(owner, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await whoamiStatus(testApp, intruderToken)).toBe(401);
    expect((await owner.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(200);
  });

  it('keeps the other sessions when LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE is false', async () => {
    const other = await apiToken(keeping, 'owner@example.com', PASSWORD);
    const owner = new TestBrowser(keeping.app);
    await browserLogin(owner, 'owner@example.com', PASSWORD);
    expect((await changePassword(owner, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await whoamiStatus(keeping, other)).toBe(200);
  });
});

describe('identity: limits that stop guessing without locking the owner out', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    await seedIdentity(testApp.database.pool, { email: 'victim@example.com', password: PASSWORD });
    await seedIdentity(testApp.database.pool, { email: 'someone@example.com', password: PASSWORD });
  });
  afterAll(() => testApp.close());

  it('lets the owner sign in from their address while an attacker has used up the attempts at their email', async () => {
    const attacker = new TestBrowser(testApp.app, '203.0.113.66');
    const statuses: number[] = [];
    let refused: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await browserLogin(attacker, 'victim@example.com', `guess-number-${attempt}`);
      statuses.push(response.statusCode);
      refused = response;
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expectRetryAfter(refused!);
    // The attacker stays refused, even with the right password.
    expectRetryAfter(await browserLogin(attacker, 'victim@example.com', PASSWORD));

    const owner = new TestBrowser(testApp.app, '198.51.100.20');
    const signedIn = await browserLogin(owner, 'victim@example.com', PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await owner.getJson('/api/.ory/sessions/whoami')).json().identity.traits.email).toBe('victim@example.com');
  });

  it('answers a form post that is refused for too many attempts with the 429 itself, not the error page', async () => {
    const attacker = new TestBrowser(testApp.app, '203.0.113.67');
    let last: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 11; attempt++) {
      const flow = await browserFlow(attacker, 'login');
      last = await attacker.postForm(`/api/.ory/self-service/login?flow=${flow.id}`, {
        method: 'password',
        identifier: 'someone@example.com',
        password: `guess-number-${attempt}`,
        csrf_token: csrfOf(flow),
      });
    }
    expect(last!.statusCode).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('limits password attempts per client across identifiers, with Retry-After', async () => {
    const sprayer = new TestBrowser(testApp.app, '203.0.113.68');
    let last: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 101; attempt++) {
      last = await browserLogin(sprayer, `user-${attempt}@example.com`, 'spray-password-1');
      if (attempt < 100) expect(last.statusCode).toBe(400);
    }
    expectRetryAfter(last!);
  });

  it('limits code emails per address with Retry-After', async () => {
    const browser = new TestBrowser(testApp.app, '203.0.113.69');
    let last: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 6; attempt++) {
      const flow = await browserFlow(browser, 'recovery');
      last = await browser.postJson(`/api/.ory/self-service/recovery?flow=${flow.id}`, {
        method: 'code',
        email: 'victim@example.com',
        csrf_token: csrfOf(flow),
      });
      if (attempt < 5) expect(last.statusCode).toBe(200);
    }
    expectRetryAfter(last!);
  });
});

describe('identity: flow creation is limited per client', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(() => testApp.close());

  const flowCount = async () =>
    Number((await testApp.database.pool.query<{ n: string }>('SELECT count(*) AS n FROM identity_flows')).rows[0]!.n);
  const flowErrorCount = async () =>
    Number(
      (await testApp.database.pool.query<{ n: string }>('SELECT count(*) AS n FROM identity_flow_errors')).rows[0]!.n,
    );

  it('answers 429 with Retry-After past 300 new flows in 15 minutes and stores nothing more', async () => {
    const from = '203.0.113.90';
    const create = (url: string, headers: Record<string, string> = {}) =>
      testApp.app.inject({ method: 'GET', url, headers, remoteAddress: from });
    // Every kind and both variants count: API login flows (the reviewer's loop), and the rest.
    const urls = [
      '/api/.ory/self-service/login/api',
      '/api/.ory/self-service/recovery/api',
      '/api/.ory/self-service/verification/api',
      '/api/.ory/self-service/login/browser',
      '/api/.ory/self-service/recovery/browser',
    ];
    for (let index = 0; index < 300; index++) {
      const url = urls[index % urls.length]!;
      const response = await create(url, url.endsWith('/browser') ? { accept: 'application/json' } : {});
      expect(response.statusCode, `${index} ${url}`).toBe(200);
    }
    const flows = await flowCount();
    const errors = await flowErrorCount();
    expect(flows).toBe(300);

    for (const url of [...urls, '/api/.ory/self-service/registration/api', '/api/.ory/self-service/settings/api']) {
      expectRetryAfter(await create(url));
    }
    // A browser without Accept: application/json gets the 429 too, not a redirect to an error page.
    const browser = await create('/api/.ory/self-service/login/browser');
    expect(browser.statusCode).toBe(429);
    expect(browser.headers.location).toBeUndefined();
    expect(Number(browser.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await flowCount()).toBe(flows);
    expect(await flowErrorCount()).toBe(errors);

    // Another client is not affected.
    const other = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/login/api',
      remoteAddress: '198.51.100.90',
    });
    expect(other.statusCode).toBe(200);
  });

  it('counts the replacement of an expired flow as a new flow', async () => {
    const from = '203.0.113.91';
    const created = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/login/api',
      remoteAddress: from,
    });
    const flowId = created.json<{ id: string }>().id;
    await testApp.database.pool.query(
      `UPDATE identity_flows SET expires_at = now() - interval '1 minute' WHERE id = $1`,
      [flowId],
    );
    const submit = () =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/.ory/self-service/login?flow=${flowId}`,
        headers: JSON_HEADERS,
        payload: { method: 'password', identifier: 'x@example.com', password: 'whatever-1' },
        remoteAddress: from,
      });
    const replaced = await submit();
    expect(replaced.statusCode).toBe(410);
    expect(replaced.json().use_flow_id).toBeDefined();
    await testApp.database.pool.query(
      `UPDATE identity_rate_limits SET hits = 300 WHERE bucket = 'flowsPerClient' AND key = $1`,
      [from],
    );
    const before = await flowCount();
    expectRetryAfter(await submit());
    expect(await flowCount()).toBe(before);
  });
});
