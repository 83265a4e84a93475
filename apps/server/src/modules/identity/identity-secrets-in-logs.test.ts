import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourierMessage } from '@lookout/contracts';
import { apiLogin } from '../../../test/access-helpers.js';
import { browserFlow, browserLogin, csrfOf, seedIdentity, TestBrowser } from '../../../test/identity-helpers.js';
import { TEST_SECRET_KEY } from '../../../test/build-test-app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createSealer } from '../../crypto/sealed-values.js';
import { buildApp } from '../../http/app.js';
import { createSmtpTransport } from '../../mail/smtp-transport.js';
import { createLogger } from '../../logger.js';
import { SERVER_VERSION } from '../../version.js';
import { createCourierRepository } from './identity-courier-repository.js';
import { createCourierSender } from './identity-courier-sender.js';
import { createSecretBox, randomToken } from './identity-crypto.js';
import { createJobs } from '../../jobs/jobs.js';

const PASSWORD = 'log-test-password-77';

describe('identity: no secret reaches a log line', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    app = await buildApp({
      // The production logger (with its redaction), at the most verbose level, into memory.
      logger: createLogger('trace', sink),
      database,
      version: SERVER_VERSION,
      webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
      sealer: createSealer(TEST_SECRET_KEY),
      identity: { registrationOpen: true, smtpUrl: 'smtp://127.0.0.1:1' },
    });
    await app.ready();
    await seedIdentity(database.pool, { email: 'quiet@example.com', password: PASSWORD });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('logs requests without passwords, session tokens, logout tokens, CSRF tokens or codes', async () => {
    const secrets: string[] = [PASSWORD];
    const browser = new TestBrowser(app);
    const login = await browserLogin(browser, 'quiet@example.com', PASSWORD);
    expect(login.statusCode).toBe(200);
    secrets.push(browser.cookies.get('ory_kratos_session')!, browser.cookies.get('csrf_token')!);

    const api = await app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api' });
    const apiLogin = await app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${api.json().id}`,
      payload: { method: 'password', identifier: 'quiet@example.com', password: PASSWORD },
    });
    const token = apiLogin.json().session_token as string;
    secrets.push(token);
    await app.inject({ method: 'GET', url: '/api/auth/whoami', headers: { authorization: `Bearer ${token}` } });
    await app.inject({ method: 'GET', url: '/api/.ory/sessions/whoami', headers: { 'x-session-token': token } });

    const registration = await browserFlow(browser, 'registration').catch(() => undefined);
    expect(registration).toBeUndefined(); // signed in: no registration

    const recovery = new TestBrowser(app);
    const flow = await browserFlow(recovery, 'recovery');
    await recovery.postJson(`/api/.ory/self-service/recovery?flow=${flow.id}`, {
      method: 'code',
      email: 'quiet@example.com',
      csrf_token: csrfOf(flow),
    });
    await recovery.postJson(`/api/.ory/self-service/recovery?flow=${flow.id}`, {
      method: 'code',
      code: '918273',
      csrf_token: csrfOf(flow),
    });
    await recovery.get(`/api/.ory/self-service/recovery?flow=${flow.id}&code=918274`);
    secrets.push('918273', '918274');

    const logout = (await browser.getJson('/api/.ory/self-service/logout/browser')).json().logout_token as string;
    secrets.push(logout);
    await browser.get(`/api/.ory/self-service/logout?token=${logout}`);

    const all = lines.join('\n');
    expect(all).toContain('incoming request');
    expect(all).toContain('token=[redacted]');
    expect(all).toContain('code=[redacted]');
    for (const secret of secrets) expect(all).not.toContain(secret);
  });
});

/**
 * Issue 20 item 6: without LOOKOUT_SMTP_URL, codes and invitation links used to be written to
 * the log, so anyone who could read it could take over any account. They now stay in the
 * email outbox. This drives every flow that mails someone, with no SMTP server and then with
 * one that refuses connections, through the production logger at its most verbose level,
 * reads the codes and links from the outbox as an admin would, and finds none of them (nor
 * any line of a message body) in the log.
 */
describe('identity: emails without SMTP reach the outbox, not the log', () => {
  let database: TestDatabase;
  const lines: string[] = [];
  const secretKey = randomToken();

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('keeps recovery and verification codes, invitation links and bodies out of every log line', async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const logger = createLogger('trace', sink);
    const app = await buildApp({
      logger,
      database,
      version: SERVER_VERSION,
      webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
      sealer: createSealer(TEST_SECRET_KEY),
      identity: { registrationOpen: true, secretKey },
    });
    await app.ready();
    try {
      await seedIdentity(database.pool, {
        email: 'owner@example.com',
        password: PASSWORD,
        roles: ['admin'],
        verified: true,
      });
      await seedIdentity(database.pool, { email: 'victim@example.com', password: PASSWORD });
      const admin = { authorization: `Bearer ${await apiLogin(app, 'owner@example.com', PASSWORD)}` };

      // Recovery (browser and API flows), verification, registration (which verifies), invitation.
      const browser = new TestBrowser(app);
      const recovery = await browserFlow(browser, 'recovery');
      await browser.postJson(`/api/.ory/self-service/recovery?flow=${recovery.id}`, {
        method: 'code',
        email: 'victim@example.com',
        csrf_token: csrfOf(recovery),
      });
      const apiRecovery = await app.inject({ method: 'GET', url: '/api/.ory/self-service/recovery/api' });
      await app.inject({
        method: 'POST',
        url: `/api/.ory/self-service/recovery?flow=${apiRecovery.json<{ id: string }>().id}`,
        payload: { method: 'code', email: 'victim@example.com' },
      });
      const verifier = new TestBrowser(app);
      const verification = await browserFlow(verifier, 'verification');
      await verifier.postJson(`/api/.ory/self-service/verification?flow=${verification.id}`, {
        method: 'code',
        email: 'victim@example.com',
        csrf_token: csrfOf(verification),
      });
      const registration = await app.inject({ method: 'GET', url: '/api/.ory/self-service/registration/api' });
      const registered = await app.inject({
        method: 'POST',
        url: `/api/.ory/self-service/registration?flow=${registration.json<{ id: string }>().id}`,
        payload: {
          method: 'password',
          password: 'a-long-new-password-9',
          traits: { email: 'newcomer@example.com', name: { first: 'New', last: 'Comer' } },
        },
      });
      expect(registered.statusCode).toBe(200);
      const invited = await app.inject({
        method: 'POST',
        url: '/api/auth/invite_user',
        headers: admin,
        payload: { firstName: 'Ivy', lastName: 'Invitee', email: 'ivy@example.com' },
      });
      expect(invited.statusCode).toBe(201);

      const outbox = await app.inject({
        method: 'GET',
        url: '/api/.ory/admin/courier/messages?page_size=100',
        headers: admin,
      });
      const messages = outbox.json<CourierMessage[]>();
      expect(messages.map((message) => message.template_type).sort()).toEqual([
        'invite',
        'recovery_code_valid',
        'recovery_code_valid',
        'verification_code_valid',
        'verification_code_valid',
      ]);
      expect(messages.every((message) => message.status === 'queued')).toBe(true);

      // Then a sender whose SMTP server refuses connections tries each message and logs why.
      const sender = createCourierSender({
        repository: createCourierRepository(database.pool),
        box: createSecretBox(secretKey),
        transport: createSmtpTransport('smtp://127.0.0.1:1'),
        from: 'Lookout <lookout@example.com>',
        logger,
        jobs: createJobs({ pool: database.pool, logger }),
        settings: { retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 10 } },
      });
      expect((await sender.sendDue()).abandoned).toBe(messages.length);
      expect(lines.join('\n')).toContain('Gave up on an email after 1 attempts');

      const secrets = [invited.json<{ link: string }>().link];
      for (const message of messages) {
        const code = /following code:\s+(\d{6})/.exec(message.body)?.[1];
        if (code) secrets.push(code);
        secrets.push(...(message.body.match(/https?:\/\/\S+/g) ?? []));
        // Every line of the body that carries something: the greeting is no secret.
        secrets.push(...message.body.split('\n').filter((line) => line.length > 12));
      }
      expect(secrets.filter((secret) => /^\d{6}$/.test(secret))).toHaveLength(4);
      const all = lines.join('\n');
      expect(all).toContain('incoming request');
      for (const secret of secrets) expect(all, secret).not.toContain(secret);
      expect(all).not.toMatch(/Code: \d{6}/);
    } finally {
      await app.close();
    }
  });
});
