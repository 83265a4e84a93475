import { Secret, TOTP } from 'otpauth';
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

type FlowJson = Parameters<typeof csrfOf>[0] & {
  state: string;
  ui: { messages?: { id: number; text: string; type: string }[] };
};

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
const totpSecretOf = (flow: FlowJson) => (nodeNamed(flow, 'totp_secret_key')?.attributes.text as { text: string }).text;

/** The code an authenticator shows now for the flow's proposed seed. */
function totpCode(flow: FlowJson): string {
  return totpOf(totpSecretOf(flow)).generate();
}

/**
 * The code of the next time step: a code is accepted only once and only if its step is later
 * than the last accepted one, and the server takes one step of clock drift either way.
 */
const nextStepTotp = (secret: string) => totpOf(secret).generate({ timestamp: Date.now() + 30_000 });

async function settingsFlow(browser: TestBrowser): Promise<FlowJson> {
  return browserFlow(browser, 'settings') as Promise<FlowJson>;
}
describe('identity: settings and second factors', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    await seedIdentity(testApp.database.pool, {
      email: 'alan@example.com',
      password: PASSWORD,
      first: 'Alan',
      last: 'Turing',
    });
    await seedIdentity(testApp.database.pool, {
      email: 'admin@example.com',
      password: PASSWORD,
      first: 'Ad',
      last: 'Min',
      verified: true,
      roles: ['admin'],
    });
  });
  afterAll(() => testApp.close());

  it('needs a session for settings', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/settings/browser',
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.id).toBe('session_inactive');
    const browser = await testApp.app.inject({ method: 'GET', url: '/api/.ory/self-service/settings/browser' });
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toMatch(/\/self-service\/login\/browser\?return_to=/);
  });

  it('updates the profile and keeps the person in step', async () => {
    const browser = new TestBrowser(testApp.app);
    await browserLogin(browser, 'alan@example.com', PASSWORD);
    const flow = await settingsFlow(browser);
    expect(flow.state).toBe('show_form');
    expect(nodeNamed(flow, 'traits.name.first')?.attributes.value).toBe('Alan');
    expect(flow.ui.nodes.map((node) => node.group)).toEqual(
      expect.arrayContaining(['profile', 'password', 'lookup_secret', 'totp']),
    );
    const response = await browser.postJson(`/api/.ory/self-service/settings?flow=${flow.id}`, {
      method: 'profile',
      traits: { email: 'alan@example.com', name: { first: 'Alan M.', last: 'Turing' } },
      csrf_token: csrfOf(flow),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      state: 'success',
      ui: { messages: [{ id: 1050001, text: 'Your changes have been saved!', type: 'success' }] },
    });
    const person = await testApp.database.pool.query(`SELECT name FROM people WHERE email = 'alan@example.com'`);
    expect(person.rows[0].name).toBe('Alan M. Turing');

    const bad = await browser.postJson(`/api/.ory/self-service/settings?flow=${flow.id}`, {
      method: 'profile',
      traits: { email: '' },
      csrf_token: csrfOf(flow),
    });
    expect(bad.statusCode).toBe(400);
    expect(nodeNamed(bad.json(), 'traits.email')?.messages[0]?.id).toBe(4000002);

    const csrf = await browser.postJson(`/api/.ory/self-service/settings?flow=${flow.id}`, {
      method: 'profile',
      traits: { email: 'alan@example.com' },
      csrf_token: 'forged',
    });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json().error.id).toBe('security_csrf_violation');

    const stranger = new TestBrowser(testApp.app);
    await browserLogin(stranger, 'admin@example.com', PASSWORD);
    const mismatch = await stranger.getJson(`/api/.ory/self-service/settings/flows?id=${flow.id}`);
    expect(mismatch.statusCode).toBe(403);
  });

  it('changes the password, and asks for re-authentication when the session is old', async () => {
    const browser = new TestBrowser(testApp.app);
    const login = await browserLogin(browser, 'alan@example.com', PASSWORD);
    const flow = await settingsFlow(browser);
    const url = `/api/.ory/self-service/settings?flow=${flow.id}`;
    const weak = await browser.postJson(url, { method: 'password', password: 'short', csrf_token: csrfOf(flow) });
    expect(weak.statusCode).toBe(400);
    expect(nodeNamed(weak.json(), 'password')?.messages[0]?.id).toBe(4000032);

    await testApp.database.pool.query(
      `UPDATE identity_sessions SET authenticated_at = now() - interval '1 hour' WHERE id = $1`,
      [login.json().session.id],
    );
    const old = await browser.postJson(url, {
      method: 'password',
      password: 'a-new-password-1',
      csrf_token: csrfOf(flow),
    });
    expect(old.statusCode).toBe(403);
    expect(old.json().error.id).toBe('session_refresh_required');
    expect(old.json().redirect_browser_to).toContain('/self-service/login/browser?refresh=true');

    const refresh = await browserFlow(browser, 'login', '?refresh=true');
    expect(refresh.ui.messages?.[0]).toMatchObject({ id: 1010003 });
    expect(nodeNamed(refresh, 'identifier')?.attributes).toMatchObject({ type: 'hidden', value: 'alan@example.com' });
    const wrong = await browser.postJson(`/api/.ory/self-service/login?flow=${refresh.id}`, {
      method: 'password',
      identifier: 'alan@example.com',
      password: 'nope-nope',
      csrf_token: csrfOf(refresh),
    });
    expect(wrong.statusCode).toBe(400);
    const reauth = await browser.postJson(`/api/.ory/self-service/login?flow=${refresh.id}`, {
      method: 'password',
      identifier: 'alan@example.com',
      password: PASSWORD,
      csrf_token: csrfOf(refresh),
    });
    expect(reauth.statusCode).toBe(200);
    expect(reauth.json().session.id).toBe(login.json().session.id);

    const changed = await browser.postJson(url, {
      method: 'password',
      password: 'a-new-password-1',
      csrf_token: csrfOf(flow),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toContain('a-new-password-1');
    expect((await browserLogin(new TestBrowser(testApp.app), 'alan@example.com', 'a-new-password-1')).statusCode).toBe(
      200,
    );
    const back = await browser.postJson(url, { method: 'password', password: PASSWORD, csrf_token: csrfOf(flow) });
    expect(back.statusCode).toBe(200);
  });

  it('sets up TOTP, then requires it as a second factor', async () => {
    const browser = new TestBrowser(testApp.app);
    await browserLogin(browser, 'alan@example.com', PASSWORD);
    const flow = await settingsFlow(browser);
    expect(nodeNamed(flow, 'totp_qr')?.attributes).toMatchObject({
      node_type: 'img',
      src: expect.stringMatching(/^data:image\/png;base64,/),
    });
    expect(nodeNamed(flow, 'totp_secret_key')).toMatchObject({ type: 'text', meta: { label: { id: 1050017 } } });
    const url = `/api/.ory/self-service/settings?flow=${flow.id}`;
    const wrong = await browser.postJson(url, { method: 'totp', totp_code: '000000', csrf_token: csrfOf(flow) });
    expect(wrong.statusCode).toBe(400);
    expect(nodeNamed(wrong.json(), 'totp_code')?.messages[0]).toMatchObject({
      id: 4000008,
      text: 'The provided authentication code is invalid, please try again.',
    });
    const enablingCode = totpCode(flow);
    const linked = await browser.postJson(url, { method: 'totp', totp_code: enablingCode, csrf_token: csrfOf(flow) });
    expect(linked.statusCode).toBe(200);
    expect(nodeNamed(linked.json(), 'totp_unlink')).toBeDefined();
    const stored = await testApp.database.pool.query(
      `SELECT config::text FROM identity_credentials WHERE type = 'totp'`,
    );
    expect(stored.rows[0].config).not.toContain(
      (nodeNamed(flow, 'totp_secret_key')?.attributes.text as { text: string }).text,
    );

    // A new sign-in is aal1 until the second factor is given.
    const fresh = new TestBrowser(testApp.app);
    const login = await browserLogin(fresh, 'alan@example.com', PASSWORD);
    expect(login.json().session.authenticator_assurance_level).toBe('aal1');
    const whoami = await fresh.getJson('/api/.ory/sessions/whoami');
    expect(whoami.statusCode).toBe(403);
    expect(whoami.json().error.id).toBe('session_aal2_required');
    expect(whoami.json().redirect_browser_to).toContain('/self-service/login/browser?aal=aal2');
    expect((await fresh.getJson('/api/auth/whoami')).statusCode).toBe(401);
    expect((await fresh.getJson('/api/.ory/self-service/settings/browser')).statusCode).toBe(403);

    const second = await browserFlow(fresh, 'login', '?aal=aal2');
    expect(second).toMatchObject({ requested_aal: 'aal2', ui: { messages: [{ id: 1010004 }] } });
    expect(second.ui.nodes.map((node) => `${node.group}:${node.attributes.name}`)).toEqual([
      'default:csrf_token',
      'totp:totp_code',
      'totp:method',
    ]);
    const bad = await fresh.postJson(`/api/.ory/self-service/login?flow=${second.id}`, {
      method: 'totp',
      totp_code: '12345',
      csrf_token: csrfOf(second),
    });
    expect(bad.statusCode).toBe(400);
    expect(nodeNamed(bad.json(), 'totp_code')?.messages[0]?.id).toBe(4000008);
    // The code that enabled TOTP is used up: it can not sign in, though it is still in time.
    const enabling = await fresh.postJson(`/api/.ory/self-service/login?flow=${second.id}`, {
      method: 'totp',
      totp_code: enablingCode,
      csrf_token: csrfOf(second),
    });
    expect(enabling.statusCode).toBe(400);
    expect(nodeNamed(enabling.json(), 'totp_code')?.messages[0]).toMatchObject({
      id: 4000008,
      text: 'The provided authentication code is invalid, please try again.',
    });
    expect(totpOf(totpSecretOf(flow)).validate({ token: enablingCode, window: 1 })).not.toBeNull();
    const code = nextStepTotp(totpSecretOf(flow));
    const ok = await fresh.postJson(`/api/.ory/self-service/login?flow=${second.id}`, {
      method: 'totp',
      totp_code: code,
      csrf_token: csrfOf(second),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().session.authenticator_assurance_level).toBe('aal2');
    expect(ok.json().session.authentication_methods.map((m: { method: string }) => m.method)).toEqual([
      'password',
      'totp',
    ]);
    expect((await fresh.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(200);

    // Backup codes, then unlink both factors.
    const settings = await settingsFlow(fresh);
    const surl = `/api/.ory/self-service/settings?flow=${settings.id}`;
    const generated = await fresh.postJson(surl, {
      method: 'lookup_secret',
      lookup_secret_regenerate: true,
      csrf_token: csrfOf(settings),
    });
    expect(generated.statusCode).toBe(200);
    const codesNode = nodeNamed(generated.json(), 'lookup_secret_codes');
    const codes = (codesNode?.attributes.text as { context: { secrets: { text: string }[] } }).context.secrets.map(
      (s) => s.text,
    );
    expect(codes).toHaveLength(12);
    expect(
      (
        await fresh.postJson(surl, {
          method: 'lookup_secret',
          lookup_secret_confirm: true,
          csrf_token: csrfOf(settings),
        })
      ).statusCode,
    ).toBe(200);
    const stored2 = await testApp.database.pool.query(
      `SELECT config::text FROM identity_credentials WHERE type = 'lookup_secret'`,
    );
    expect(stored2.rows[0].config).not.toContain(codes[0]);

    const third = new TestBrowser(testApp.app);
    await browserLogin(third, 'alan@example.com', PASSWORD);
    const mfa = await browserFlow(third, 'login', '?aal=aal2');
    expect(mfa.ui.nodes.map((node) => node.attributes.name)).toEqual([
      'csrf_token',
      'totp_code',
      'method',
      'lookup_secret',
      'method',
    ]);
    const invalid = await third.postJson(`/api/.ory/self-service/login?flow=${mfa.id}`, {
      method: 'lookup_secret',
      lookup_secret: 'zzzzzzzz',
      csrf_token: csrfOf(mfa),
    });
    expect(nodeNamed(invalid.json(), 'lookup_secret')?.messages[0]?.id).toBe(4000016);
    const used = await third.postJson(`/api/.ory/self-service/login?flow=${mfa.id}`, {
      method: 'lookup_secret',
      lookup_secret: codes[0],
      csrf_token: csrfOf(mfa),
    });
    expect(used.statusCode).toBe(200);
    expect(used.json().session.authenticator_assurance_level).toBe('aal2');

    const fourth = new TestBrowser(testApp.app);
    await browserLogin(fourth, 'alan@example.com', PASSWORD);
    const again = await browserFlow(fourth, 'login', '?aal=aal2');
    const replay = await fourth.postJson(`/api/.ory/self-service/login?flow=${again.id}`, {
      method: 'lookup_secret',
      lookup_secret: codes[0],
      csrf_token: csrfOf(again),
    });
    expect(nodeNamed(replay.json(), 'lookup_secret')?.messages[0]).toMatchObject({
      id: 4000012,
      text: 'This backup recovery code has already been used.',
    });
    // So is a TOTP code used before, in another sign-in, with Kratos's invalid-code message.
    const totpReplay = await fourth.postJson(`/api/.ory/self-service/login?flow=${again.id}`, {
      method: 'totp',
      totp_code: code,
      csrf_token: csrfOf(again),
    });
    expect(totpReplay.statusCode).toBe(400);
    expect(nodeNamed(totpReplay.json(), 'totp_code')?.messages[0]).toMatchObject({
      id: 4000008,
      text: 'The provided authentication code is invalid, please try again.',
    });
    expect(totpOf(totpSecretOf(flow)).validate({ token: code, window: 1 })).not.toBeNull();
    expect((await fourth.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(403);

    const unlinkFlow = await settingsFlow(third);
    const uurl = `/api/.ory/self-service/settings?flow=${unlinkFlow.id}`;
    expect(
      (await third.postJson(uurl, { method: 'totp', totp_unlink: true, csrf_token: csrfOf(unlinkFlow) })).statusCode,
    ).toBe(200);
    expect(
      (
        await third.postJson(uurl, {
          method: 'lookup_secret',
          lookup_secret_disable: true,
          csrf_token: csrfOf(unlinkFlow),
        })
      ).statusCode,
    ).toBe(200);
    const plain = new TestBrowser(testApp.app);
    await browserLogin(plain, 'alan@example.com', PASSWORD);
    expect((await plain.getJson('/api/.ory/sessions/whoami')).statusCode).toBe(200);
  });
});
