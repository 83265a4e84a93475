import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import {
  browserFlow,
  browserLogin,
  csrfOf,
  nodeNamed,
  seedIdentity,
  TestBrowser,
} from '../../../test/identity-helpers.js';
import { createTestDatabase } from '../../../test/test-database.js';
import { ensureAdminIdentity } from './identity-bootstrap.js';

/**
 * The reviewer's passwords (`password`, `12345678`, `aaaaaaaa`) at every place a password is
 * set: registration, settings, the password an invited person sets, the admin identity API,
 * and the first admin's LOOKOUT_ADMIN_PASSWORD.
 */

const PASSWORD = 'correct-horse-battery';
const STRONG = 'quiet-harbor-lamp-81';
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };
const BREACHED = {
  id: 4000034,
  text: 'The password has been found in data breaches and must no longer be used.',
  type: 'error',
};
const REPEATED = {
  id: 4000005,
  text: 'The password can not be used because it repeats one character, as in aaaaaaaa; a few unrelated words make a stronger password.',
  type: 'error',
  context: {
    reason: 'it repeats one character, as in aaaaaaaa; a few unrelated words make a stronger password',
  },
};
const REFUSED = [
  ['password', BREACHED],
  ['12345678', BREACHED],
  ['aaaaaaaa', REPEATED],
] as const;

type FlowJson = Parameters<typeof csrfOf>[0];
const passwordMessages = (flow: FlowJson) => nodeNamed(flow, 'password')?.messages;

describe('password policy at every entry point', () => {
  let testApp: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    testApp = await buildTestApp({ identity: { registrationOpen: true } });
    admin = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: 'policy-admin@example.com',
      roles: ['admin'],
    });
    await seedIdentity(testApp.database.pool, { email: 'grace@example.com', password: PASSWORD });
  });
  afterAll(() => testApp.close());

  const identityCount = async (email: string) =>
    Number(
      (
        await testApp.database.pool.query<{ n: string }>(
          "SELECT count(*) AS n FROM identities WHERE traits->>'email' = $1",
          [email],
        )
      ).rows[0]!.n,
    );

  it.each(REFUSED)('registration refuses %s and creates no account', async (password, message) => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browserFlow(browser, 'registration');
    const response = await browser.postJson(`/api/.ory/self-service/registration?flow=${flow.id}`, {
      method: 'password',
      traits: { email: 'newcomer@example.com' },
      password,
      csrf_token: csrfOf(flow),
    });
    expect(response.statusCode).toBe(400);
    expect(passwordMessages(response.json())).toEqual([message]);
    expect(await identityCount('newcomer@example.com')).toBe(0);
  });

  it('registration shows the message on the flow page after a form post, then takes a strong password', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browserFlow(browser, 'registration');
    const url = `/api/.ory/self-service/registration?flow=${flow.id}`;
    const posted = await browser.postForm(url, {
      method: 'password',
      'traits.email': 'former@example.com',
      password: 'password',
      csrf_token: csrfOf(flow),
    });
    expect(posted.statusCode).toBe(303);
    const shown = await browser.getJson(`/api/.ory/self-service/registration/flows?id=${flow.id}`);
    expect(passwordMessages(shown.json())).toEqual([BREACHED]);
    const accepted = await browser.postJson(url, {
      method: 'password',
      traits: { email: 'former@example.com' },
      password: STRONG,
      csrf_token: csrfOf(flow),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it.each(REFUSED)('settings refuse %s as a new password and keep the old one', async (password, message) => {
    const browser = new TestBrowser(testApp.app);
    await browserLogin(browser, 'grace@example.com', PASSWORD);
    const flow = await browserFlow(browser, 'settings');
    const response = await browser.postJson(`/api/.ory/self-service/settings?flow=${flow.id}`, {
      method: 'password',
      password,
      csrf_token: csrfOf(flow),
    });
    expect(response.statusCode).toBe(400);
    expect(passwordMessages(response.json())).toEqual([message]);
    expect((await browserLogin(new TestBrowser(testApp.app), 'grace@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('an invited person can not set a common password through the invitation link', async () => {
    const invited = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/invite_user',
      headers: { ...JSON_HEADERS, ...bearer(admin) },
      payload: { email: 'invitee@example.com', firstName: 'In', lastName: 'Vitee', role: 'viewer' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const link = new URL(invited.json<{ link: string }>().link);
    const invitee = new TestBrowser(testApp.app);
    expect((await invitee.get(`${link.pathname}${link.search}`)).statusCode).toBe(303);
    const flow = await browserFlow(invitee, 'settings');
    const url = `/api/.ory/self-service/settings?flow=${flow.id}`;
    for (const [password, message] of REFUSED) {
      const response = await invitee.postJson(url, { method: 'password', password, csrf_token: csrfOf(flow) });
      expect(response.statusCode).toBe(400);
      expect(passwordMessages(response.json())).toEqual([message]);
    }
    const accepted = await invitee.postJson(url, { method: 'password', password: STRONG, csrf_token: csrfOf(flow) });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await browserLogin(new TestBrowser(testApp.app), 'invitee@example.com', STRONG)).statusCode).toBe(200);
  });

  it.each(REFUSED)('the admin API refuses %s when it creates an identity', async (password, message) => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/.ory/admin/identities',
      headers: { ...JSON_HEADERS, ...bearer(admin) },
      payload: {
        schema_id: 'default',
        traits: { email: 'made-by-admin@example.com' },
        credentials: { password: { config: { password } } },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 400,
      reason: `credentials.password.config.password: ${message.text}`,
      details: { messages: [message] },
    });
    expect(await identityCount('made-by-admin@example.com')).toBe(0);
  });

  it('the admin API refuses a common password when it updates an identity, and keeps the old one', async () => {
    const [grace] = (
      await testApp.app.inject({
        method: 'GET',
        url: '/api/.ory/admin/identities?credentials_identifier=grace@example.com',
        headers: bearer(admin),
      })
    ).json<{ id: string }[]>();
    for (const [password, message] of REFUSED) {
      const response = await testApp.app.inject({
        method: 'PUT',
        url: `/api/.ory/admin/identities/${grace!.id}`,
        headers: { ...JSON_HEADERS, ...bearer(admin) },
        payload: {
          schema_id: 'default',
          traits: { email: 'grace@example.com' },
          credentials: { password: { config: { password } } },
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details.messages).toEqual([message]);
    }
    expect((await browserLogin(new TestBrowser(testApp.app), 'grace@example.com', PASSWORD)).statusCode).toBe(200);
  });
});

describe('password policy for the first admin (LOOKOUT_ADMIN_PASSWORD)', () => {
  it.each(['password', '12345678', 'aaaaaaaa'])(
    'stops the first start with %s, naming the setting',
    async (password) => {
      const database = await createTestDatabase();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-admin-policy-'));
      try {
        const start = ensureAdminIdentity({
          pool: database.pool,
          dataDir,
          logger: pino({ level: 'silent' }),
          adminEmail: 'boss@example.com',
          adminPassword: password,
        });
        await expect(start).rejects.toThrow(
          /^LOOKOUT_ADMIN_PASSWORD \(--admin-password\) can not be the first admin's password: The password/,
        );
        const { rows } = await database.pool.query('SELECT id FROM identities');
        expect(rows).toEqual([]);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
        await database.drop();
      }
    },
  );
});
