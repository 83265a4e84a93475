import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { nodeNamed, seedIdentity } from '../../../test/identity-helpers.js';

/**
 * Self-service updates whose body leaves out `method`: the method is inferred from the
 * fields only it sends (Kratos's strategies do so for their own submit buttons), through
 * API flows as a native app or script would send them.
 */

const PASSWORD = 'correct-horse-battery';

type FlowJson = Parameters<typeof nodeNamed>[0] & {
  state: string;
  ui: { messages?: { id: number; text: string }[] };
};

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
const messageIds = (response: LightMyRequestResponse) =>
  ((response.json() as FlowJson).ui.messages ?? []).map((message) => message.id);

describe('identity: the method of a self-service update is inferred when the body names none', () => {
  let testApp: TestApp;

  const post = (url: string, payload: object, token?: string) =>
    testApp.app.inject({
      method: 'POST',
      url,
      payload,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(token ? { 'x-session-token': token } : {}),
      },
    });
  const get = (url: string, token?: string) =>
    testApp.app.inject({
      method: 'GET',
      url,
      headers: { accept: 'application/json', ...(token ? { 'x-session-token': token } : {}) },
    });

  async function apiFlow(kind: string, token?: string, query = ''): Promise<FlowJson> {
    const response = await get(`/api/.ory/self-service/${kind}/api${query}`, token);
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  /** An API login with identifier and password only: `password` is inferred. */
  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const flow = await apiFlow('login');
    const response = await post(`/api/.ory/self-service/login?flow=${flow.id}`, { identifier: email, password });
    expect(response.statusCode).toBe(200);
    return response.json().session_token as string;
  }

  beforeAll(async () => {
    testApp = await buildTestApp({ identity: { registrationOpen: true } });
    await seedIdentity(testApp.database.pool, { email: 'mary@example.com', password: PASSWORD });
  });
  afterAll(() => testApp.close());

  it('login: identifier and password sign in; provider starts social sign-in; nothing known is refused', async () => {
    const token = await signIn('mary@example.com');
    expect(token).toBeTruthy();

    const flow = await apiFlow('login');
    const social = await post(`/api/.ory/self-service/login?flow=${flow.id}`, { provider: 'nowhere' });
    expect(social.statusCode).toBe(400);
    expect(social.json().ui.messages[0].text).toBe("No social sign-in provider 'nowhere' is configured.");

    const unknown = await post(`/api/.ory/self-service/login?flow=${flow.id}`, { identifier: 'mary@example.com' });
    expect(unknown.statusCode).toBe(400);
    expect(messageIds(unknown)).toEqual([4010002]);
  });

  it('registration: traits and password sign up; provider starts social sign-up', async () => {
    const flow = await apiFlow('registration');
    const url = `/api/.ory/self-service/registration?flow=${flow.id}`;
    const social = await post(url, { provider: 'nowhere', traits: { email: 'nell@example.com' } });
    expect(social.statusCode).toBe(400);
    expect(social.json().ui.messages[0].text).toBe("No social sign-in provider 'nowhere' is configured.");

    const traitsOnly = await post(url, { traits: { email: 'nell@example.com' } });
    expect(traitsOnly.statusCode).toBe(400);
    expect(messageIds(traitsOnly)).toEqual([4010003]);

    const created = await post(url, {
      traits: { email: 'nell@example.com', name: { first: 'Nell', last: 'Harris' } },
      password: 'a-good-password-1',
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().identity.traits.email).toBe('nell@example.com');
    expect(await signIn('nell@example.com', 'a-good-password-1')).toBeTruthy();
  });

  it('settings: traits, password, backup codes, social link, security key and TOTP each reach their method', async () => {
    let token = await signIn('mary@example.com');
    const flow = await apiFlow('settings', token);
    const url = `/api/.ory/self-service/settings?flow=${flow.id}`;

    const profile = await post(
      url,
      { traits: { email: 'mary@example.com', name: { first: 'Mary', last: 'J' } } },
      token,
    );
    expect(profile.statusCode).toBe(200);
    expect(profile.json().state).toBe('success');
    expect(profile.json().identity.traits.name).toEqual({ first: 'Mary', last: 'J' });

    const password = await post(url, { password: 'another-password-2' }, token);
    expect(password.statusCode).toBe(200);
    expect(messageIds(password)).toEqual([1050001]);
    token = await signIn('mary@example.com', 'another-password-2');

    const codes = await post(url, { lookup_secret_regenerate: true }, token);
    expect(codes.statusCode).toBe(200);
    expect(nodeNamed(codes.json(), 'lookup_secret_codes')).toBeDefined();

    const link = await post(url, { link: 'nowhere' }, token);
    expect(link.statusCode).toBe(400);
    expect(link.json().ui.messages[0].text).toBe("No social sign-in provider 'nowhere' is configured.");

    const key = await post(url, { webauthn_remove: 'no-such-key' }, token);
    expect(key.statusCode).toBe(400);
    expect(messageIds(key)).toEqual([4000013]);

    const nothing = await post(url, { csrf_token: 'x' }, token);
    expect(nothing.statusCode).toBe(400);
    expect(messageIds(nothing)).toEqual([4010004]);

    // TOTP: a settings flow proposes a seed; the code alone enables it.
    const totpFlow = await apiFlow('settings', token);
    const secret = (nodeNamed(totpFlow, 'totp_secret_key')?.attributes.text as { text: string }).text;
    const totpUrl = `/api/.ory/self-service/settings?flow=${totpFlow.id}`;
    const enabled = await post(totpUrl, { totp_code: totpOf(secret).generate() }, token);
    expect(enabled.statusCode).toBe(200);
    expect(nodeNamed(enabled.json(), 'totp_unlink')).toBeDefined();

    // The second factor by its code alone (a later step: the enabling code is spent) ...
    const mfa = await apiFlow('login', token, '?aal=aal2');
    const aal2 = await post(
      `/api/.ory/self-service/login?flow=${mfa.id}`,
      { totp_code: totpOf(secret).generate({ timestamp: Date.now() + 30_000 }) },
      token,
    );
    expect(aal2.statusCode).toBe(200);
    expect(aal2.json().session.authenticator_assurance_level).toBe('aal2');

    // ... and the unlink button alone removes it.
    const unlinkFlow = await apiFlow('settings', token);
    const unlinked = await post(
      `/api/.ory/self-service/settings?flow=${unlinkFlow.id}`,
      { totp_unlink: 'true' },
      token,
    );
    expect(unlinked.statusCode).toBe(200);
    expect(nodeNamed(unlinked.json(), 'totp_unlink')).toBeUndefined();
    expect(nodeNamed(unlinked.json(), 'totp_secret_key')).toBeDefined();
  });

  it('an explicit method wins over the fields', async () => {
    const flow = await apiFlow('login');
    const response = await post(`/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'oidc',
      identifier: 'mary@example.com',
      password: 'another-password-2',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().ui.messages[0].text).toBe("No social sign-in provider '' is configured.");
  });
});

describe('identity: a TOTP code is accepted once, even by sign-ins racing with it', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    await seedIdentity(testApp.database.pool, { email: 'grace@example.com', password: PASSWORD });
  });
  afterAll(() => testApp.close());

  const json = { accept: 'application/json', 'content-type': 'application/json' };

  async function apiLogin(): Promise<string> {
    const flow = (await testApp.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api' })).json();
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.id}`,
      headers: json,
      payload: { method: 'password', identifier: 'grace@example.com', password: PASSWORD },
    });
    return response.json().session_token as string;
  }

  it('lets exactly one of several sign-ins with the same code through', async () => {
    const token = await apiLogin();
    const settings = (
      await testApp.app.inject({
        method: 'GET',
        url: '/api/.ory/self-service/settings/api',
        headers: { 'x-session-token': token },
      })
    ).json();
    const secret = (nodeNamed(settings, 'totp_secret_key')?.attributes.text as { text: string }).text;
    const enabled = await testApp.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/settings?flow=${settings.id}`,
      headers: { ...json, 'x-session-token': token },
      payload: { method: 'totp', totp_code: totpOf(secret).generate() },
    });
    expect(enabled.statusCode).toBe(200);
    const stored = await testApp.database.pool.query<{ totp_last_step: string }>(
      `SELECT totp_last_step FROM identity_credentials WHERE type = 'totp'`,
    );
    expect(Number(stored.rows[0]?.totp_last_step)).toBeGreaterThan(0);

    const code = totpOf(secret).generate({ timestamp: Date.now() + 30_000 });
    const sessions = await Promise.all([apiLogin(), apiLogin(), apiLogin(), apiLogin()]);
    const flows = await Promise.all(
      sessions.map(
        async (session) =>
          (
            await testApp.app.inject({
              method: 'GET',
              url: '/api/.ory/self-service/login/api?aal=aal2',
              headers: { 'x-session-token': session },
            })
          ).json().id as string,
      ),
    );
    const answers = await Promise.all(
      sessions.map((session, index) =>
        testApp.app.inject({
          method: 'POST',
          url: `/api/.ory/self-service/login?flow=${flows[index]}`,
          headers: { ...json, 'x-session-token': session },
          payload: { method: 'totp', totp_code: code },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400, 400]);
    for (const refused of answers.filter((answer) => answer.statusCode === 400)) {
      expect(nodeNamed(refused.json(), 'totp_code')?.messages[0]).toMatchObject({ id: 4000008 });
    }
  });
});
