import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFlow, browserLogin, csrfOf, seedIdentity, TestBrowser } from '../../../test/identity-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { buildApp } from '../../http/app.js';
import { createLogger } from '../../logger.js';
import { SERVER_VERSION } from '../../version.js';

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
