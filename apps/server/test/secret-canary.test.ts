import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from './access-helpers.js';
import { startBasicAuthServer, type BasicAuthServer } from './basic-auth-server.js';
import { buildTestApp, type TestApp } from './build-test-app.js';
import { createLogger } from '../src/logger.js';
import { refusingSandbox } from '../src/sandbox/sandbox.js';
import { readHealthSettings } from '../src/modules/health/health-settings.js';

/**
 * Issue 12, judged: "A canary whose http check takes its password from a secret ... passes
 * against a real server; no API answer or log line contains a stored secret." The password
 * lives only in the secret store; the canary names it with valueFrom.secretKeyRef.
 */

const USERNAME = 'ops';
const PASSWORD = 'n0t-in-any-answer-4c1e8f27';
/** What the check sends on the wire; it must not leak either. */
const AUTHORIZATION = Buffer.from(`${USERNAME}:${PASSWORD}`, 'utf8').toString('base64');

let testApp: TestApp;
let server: BasicAuthServer;
let admin: TestUser;
let editor: TestUser;
const logLines: string[] = [];
const answers: string[] = [];

beforeAll(async () => {
  server = await startBasicAuthServer(USERNAME, PASSWORD);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  testApp = await buildTestApp({
    // The production logger (with its redaction) at its most verbose level, into memory.
    logger: createLogger('trace', sink),
    // The check scheduler runs too, so scheduled runs resolve the secret as Run Now does.
    health: { sandbox: refusingSandbox('this test runs no scripts'), workers: readHealthSettings({}) },
  });
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'admin@canary.example',
    roles: ['admin'],
  });
  editor = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'editor@canary.example',
    roles: ['editor'],
  });
});
afterAll(async () => {
  await testApp?.close();
  await server?.close();
});

const call = async (method: 'GET' | 'POST', url: string, user: TestUser, payload?: unknown) => {
  const response = await testApp.app.inject({
    method,
    url,
    headers: { ...bearer(user), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  answers.push(`${method} ${url} -> ${response.statusCode}\n${JSON.stringify(response.headers)}\n${response.body}`);
  return response;
};

const canary = (name: string, namespace: string, secretKey = 'password') => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata: { name, namespace },
  spec: {
    schedule: '@every 1m',
    http: [
      {
        name: `${name}-login`,
        url: server.url,
        authentication: {
          username: { value: USERNAME },
          password: { valueFrom: { secretKeyRef: { name: 'web-login', key: secretKey } } },
        },
      },
    ],
  },
});

async function applyAndRun(document: ReturnType<typeof canary>) {
  const applied = await call('POST', '/api/canary/apply', editor, document);
  expect(applied.statusCode).toBe(200);
  const checkId = applied.json<{ checks: { id: string }[] }>().checks[0]!.id;
  const run = await call('POST', `/api/canary/run/check/${checkId}`, editor);
  expect(run.statusCode).toBe(200);
  return { checkId, result: run.json<{ result: { status: boolean; message: string; error: string | null } }>().result };
}

describe('a canary whose http check takes its password from a secret', () => {
  it('passes against a real server with basic auth, Run Now and scheduled', async () => {
    const stored = await call('POST', '/api/secrets', admin, {
      kind: 'secret',
      name: 'web-login',
      data: { password: PASSWORD },
    });
    expect(stored.statusCode).toBe(201);

    const { checkId, result } = await applyAndRun(canary('web', 'default'));
    expect(result).toMatchObject({ status: true, error: null });
    expect(server.counts.accepted).toBeGreaterThanOrEqual(1);

    // The scheduler's run (a new check is due at once) resolves it the same way: Run Now's row
    // and the scheduler's, both passed.
    const runs = async () =>
      (
        await testApp.database.pool.query<{ status: boolean }>(
          'SELECT status FROM check_statuses WHERE check_id = $1',
          [checkId],
        )
      ).rows;
    while ((await runs()).length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await runs()).every((row) => row.status)).toBe(true);
  });

  it('fails with a message naming the secret, key and namespace when the canary names what is not there', async () => {
    // The canary's namespace is where the secret is looked up.
    const elsewhere = await applyAndRun(canary('web', 'payments'));
    expect(elsewhere.result).toMatchObject({
      status: false,
      message:
        "could not read the password from secret 'web-login' key 'password' (no secret 'web-login' in namespace 'payments'; add it at Settings > Secrets)",
    });
    const noKey = await applyAndRun(canary('web-nokey', 'default', 'token'));
    expect(noKey.result).toMatchObject({
      status: false,
      message:
        "could not read the password from secret 'web-login' key 'token' (secret 'web-login' in namespace 'default' has no key 'token')",
    });
  });

  it('shows the stored secret in no API answer and no log line', async () => {
    // Every way a reader may look at the canary, its checks, their results and the store.
    for (const url of ['/api/secrets', '/api/secrets/secret/default/web-login']) {
      expect((await call('GET', url, admin)).statusCode, url).toBe(200);
    }
    for (const url of [
      '/api/db/canaries?select=*',
      '/api/db/checks?select=*',
      '/api/db/check_statuses?select=*',
      '/api/canary/api/summary',
    ]) {
      for (const user of [admin, editor]) expect((await call('GET', url, user)).statusCode, url).toBe(200);
    }
    expect(answers.length).toBeGreaterThan(15);
    for (const answer of answers) {
      expect(answer).not.toContain(PASSWORD);
      expect(answer).not.toContain(AUTHORIZATION);
    }
    // The log did record the work (requests, the store's own lines) without the value.
    expect(logLines.some((line) => line.includes('Secret store entry created'))).toBe(true);
    expect(logLines.length).toBeGreaterThan(20);
    for (const line of logLines) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain(AUTHORIZATION);
    }
  });
});
