import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { CONNECTION_MESSAGES } from '@lookout/contracts';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../test/notification-services.js';
import { startS3Server, type S3Server } from '../../../test/s3-server.js';
import { LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, slapdMissing, startSlapd, type TestSlapd } from '../../../test/slapd.js';
import { SSH_TEST_PASSWORD, sshdMissing, startSshd, type TestSshd } from '../../../test/sshd.js';

/*
 * POST /api/connection/test/{id} end to end for the testers of part 2: a connection saved
 * through the data API (its password sealed), then tested by id against a server on this
 * machine: 'ok' with the right password, the server's own error with a wrong one. Each tester's
 * cases are in its own test beside it; this proves the route reaches them with the stored,
 * unsealed credentials.
 */

const WRONG = 'wrong-Part2-Password-7';
let testApp: TestApp;
let admin: TestUser;
let smtp: { port: number; close: () => Promise<void> };
let slapd: TestSlapd | undefined;
let sshd: TestSshd | undefined;
let s3: S3Server;
let services: NotificationServices;
let repositories = '';

beforeAll(async () => {
  testApp = await buildTestApp();
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'admin@example.com',
    roles: ['admin'],
  });
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) =>
      auth.username === 'alice' && auth.password === 's3cret'
        ? callback(null, { user: 'alice' })
        : callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 })),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  smtp = {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  if (!slapdMissing()) slapd = await startSlapd();
  if (!sshdMissing()) sshd = await startSshd();
  s3 = await startS3Server({ buckets: { reports: { keys: [] } }, secrets: { AKIDPART2: 'part2-secret' } });
  services = await startNotificationServices();
  repositories = await mkdtemp(path.join(os.tmpdir(), 'lookout-route-git-'));
  const git = (...args: string[]) =>
    promisify(execFile)('git', args, {
      cwd: repositories,
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.org',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.org',
      },
    });
  await git('init', '-q', '-b', 'main', 'app');
  await git('-C', 'app', 'commit', '-q', '--allow-empty', '-m', 'first');
}, 60_000);

afterAll(async () => {
  await Promise.all([testApp.close(), smtp.close(), slapd?.stop(), sshd?.stop(), s3.close(), services.close()]);
  await rm(repositories, { recursive: true, force: true });
});

async function save(body: Record<string, unknown>): Promise<string> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/db/connections',
    headers: { ...bearer(admin), prefer: 'return=representation', 'content-type': 'application/json' },
    payload: JSON.stringify({ namespace: 'default', properties: {}, ...body }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }[]>()[0]!.id;
}

async function test(id: string): Promise<{ status: number; body: Record<string, string> }> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/connection/test/${id}`,
    headers: bearer(admin),
  });
  expect(response.body).not.toContain(WRONG);
  return { status: response.statusCode, body: response.json() };
}

/** Saves the connection twice, with the right password and with WRONG, and tests both. */
async function rightAndWrong(name: string, body: Record<string, unknown>, right: string) {
  const good = await test(await save({ name, ...body, password: right }));
  const bad = await test(await save({ name: `${name}-wrong`, ...body, password: WRONG }));
  return { good, bad };
}

describe('POST /api/connection/test/{id} against servers on this machine', () => {
  it('email: ok, then the SMTP server’s 535', async () => {
    const { good, bad } = await rightAndWrong(
      'mail',
      {
        type: 'email',
        username: 'alice',
        properties: { host: '127.0.0.1', port: String(smtp.port), encryptionMethod: 'None' },
      },
      's3cret',
    );
    expect(good).toEqual({ status: 200, body: { message: 'ok' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/535 Invalid username or password/);
  });

  it('ldap: ok, then Invalid credentials (49)', async () => {
    if (!slapd) return console.warn(`SKIPPED ldap route test: ${slapdMissing()}`);
    const { good, bad } = await rightAndWrong(
      'directory',
      { type: 'ldap', url: slapd.url, username: LDAP_ADMIN_DN },
      LDAP_ADMIN_PASSWORD,
    );
    expect(good).toEqual({ status: 200, body: { message: 'ok' } });
    expect(bad).toEqual({ status: 400, body: { error: 'Invalid credentials (49)' } });
  });

  it('sftp: ok, then the failed SSH authentication', async () => {
    if (!sshd?.passwordLogin) {
      return console.warn('SKIPPED sftp route test: needs sshd and root for a password account');
    }
    const { good, bad } = await rightAndWrong(
      'files',
      { type: 'sftp', url: '127.0.0.1', username: sshd.user, properties: { port: String(sshd.port) } },
      SSH_TEST_PASSWORD,
    );
    expect(good).toEqual({ status: 200, body: { message: 'ok' } });
    expect(bad).toEqual({
      status: 400,
      body: { error: `SSH authentication failed for '${sshd.user}' (the server accepts: publickey, password)` },
    });
  });

  it('s3: ok, then SignatureDoesNotMatch', async () => {
    const { good, bad } = await rightAndWrong(
      'bucket',
      { type: 's3', url: s3.url, username: 'AKIDPART2', properties: { bucket: 'reports' } },
      'part2-secret',
    );
    expect(good).toEqual({ status: 200, body: { message: 'ok' } });
    expect(bad.body.error).toMatch(/^403 SignatureDoesNotMatch: /);
  });

  it('ntfy: ok, then ntfy’s unauthorized', async () => {
    const { good, bad } = await rightAndWrong(
      'push',
      {
        type: 'ntfy',
        username: GOOD.ntfyUser,
        insecure_tls: true,
        properties: { host: `${services.host}/ntfy`, topic: 'alerts' },
      },
      GOOD.ntfyPassword,
    );
    expect(good).toEqual({ status: 200, body: { message: 'ok' } });
    expect(bad).toEqual({ status: 400, body: { error: '401 Unauthorized: unauthorized' } });
  });

  it('git: ok for a local repository with the ref, the missing ref named otherwise', async () => {
    const url = path.join(repositories, 'app');
    expect(await test(await save({ name: 'repo', type: 'git', url, properties: { ref: 'main' } }))).toEqual({
      status: 200,
      body: { message: 'ok' },
    });
    expect(await test(await save({ name: 'repo-release', type: 'git', url, properties: { ref: 'release' } }))).toEqual({
      status: 400,
      body: { error: `The repository ${url} has no ref 'release'` },
    });
  });

  it('teams: says it cannot be tested', async () => {
    const id = await save({ name: 'chat', type: 'teams', properties: { tenant: 't', altID: 'a', groupOwner: 'g' } });
    expect(await test(id)).toEqual({ status: 400, body: { error: CONNECTION_MESSAGES.testUnsupported } });
  });
});
