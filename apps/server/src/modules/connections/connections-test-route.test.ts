import { Writable } from 'node:stream';
import { CONNECTION_MESSAGES, CONNECTION_TYPES, ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { createLogger } from '../../logger.js';
import { testerFor } from './testers/registry.js';

/*
 * POST /api/connection/test/{id} (ui-calls 3.12): success iff 200 and message 'ok'; on a 400 the
 * console shows `error`. Against the test PostgreSQL: ok, then the server's error for a wrong
 * password, with the password in no answer and no log line; who may call it; what a type
 * without a tester and a missing connection answer.
 */

const pgUrl = new URL(inject('testAdminDatabaseUrl'));
const WRONG = 'wrong-Secret-Password-42';
let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const logLines: string[] = [];

const call = (user: TestUser | undefined, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...(user ? bearer(user) : {}),
      prefer: 'return=representation',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

async function saveConnection(body: Record<string, unknown>): Promise<string> {
  const response = await call(users.admin, 'POST', '/api/db/connections', {
    namespace: 'default',
    properties: {},
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }[]>()[0]!.id;
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  testApp = await buildTestApp({ logger: createLogger('trace', sink) });
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
});
afterAll(async () => {
  await testApp.close();
  expect(logLines.join('')).not.toContain(WRONG);
  expect(logLines.join('')).not.toContain(decodeURIComponent(pgUrl.password));
});

describe('POST /api/connection/test/{id}', () => {
  let good: string;
  let wrong: string;
  beforeAll(async () => {
    good = await saveConnection({
      name: 'pg',
      type: 'postgres',
      url: `postgres://${pgUrl.host}${pgUrl.pathname}`,
      username: decodeURIComponent(pgUrl.username),
      password: decodeURIComponent(pgUrl.password),
    });
    wrong = await saveConnection({
      name: 'pg-wrong',
      type: 'postgres',
      url: `postgres://${pgUrl.username}:${WRONG}@${pgUrl.host}${pgUrl.pathname}`,
    });
  });

  it("answers ok for a connection that works, and the server's error for a wrong password", async () => {
    const ok = await call(users.admin, 'POST', `/api/connection/test/${good}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ message: 'ok' });

    const refused = await call(users.admin, 'POST', `/api/connection/test/${wrong}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: `password authentication failed for user "${decodeURIComponent(pgUrl.username)}"`,
    });
    expect(refused.body).not.toContain(WRONG);
  });

  it('is for admins only (write on connections)', async () => {
    for (const role of ['editor', 'viewer', 'commander', 'responder'] as const) {
      expect((await call(users[role], 'POST', `/api/connection/test/${good}`)).statusCode, role).toBe(403);
    }
    expect((await call(undefined, 'POST', `/api/connection/test/${good}`)).statusCode).toBe(401);
  });

  it('answers 404 for a missing or deleted connection and 400 for an id that is none', async () => {
    const missing = await call(users.admin, 'POST', '/api/connection/test/01a1fefe-8cb3-71f1-bdca-1f41fa7808d7');
    expect(missing.statusCode).toBe(404);
    const gone = await saveConnection({ name: 'gone', type: 'postgres', url: 'postgres://db/app' });
    await testApp.database.pool.query('UPDATE connections SET deleted_at = now() WHERE id = $1', [gone]);
    expect((await call(users.admin, 'POST', `/api/connection/test/${gone}`)).statusCode).toBe(404);
    const bad = await call(users.admin, 'POST', '/api/connection/test/not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('must be the id of a connection (a UUID)');
  });

  it('says so for a type Lookout cannot test', async () => {
    const untested = CONNECTION_TYPES.find((type) => !testerFor(type));
    if (!untested) {
      console.warn('SKIPPED unsupported-type test: every connection type has a tester');
      return;
    }
    const id = await saveConnection({ name: 'untested', type: untested, url: 'https://example.org' });
    const response = await call(users.admin, 'POST', `/api/connection/test/${id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: CONNECTION_MESSAGES.testUnsupported });
  });

  it('says which reference it could not read', async () => {
    const id = await saveConnection({
      name: 'by-ref',
      type: 'postgres',
      url: `postgres://${pgUrl.host}${pgUrl.pathname}`,
      username: 'app',
      password: 'secret://nowhere/password',
    });
    const response = await call(users.admin, 'POST', `/api/connection/test/${id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(
      /^connection:\/\/default\/by-ref: could not read its password \(/,
    );
  });
});
