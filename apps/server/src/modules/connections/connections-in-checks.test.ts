import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Checks that name a connection (issue 12: "a postgres check that names a connection passes
 * against a real server"): the connection is saved through /api/db as the console saves it,
 * the canary names it, and Run Now reads it at run time, against the test PostgreSQL, the
 * MariaDB and Redis of this machine.
 */

// The server project's global setup starts a real PostgreSQL, so this test always has one.
const pgUrl = new URL(inject('testAdminDatabaseUrl'));
const pgPassword = decodeURIComponent(pgUrl.password);
const pgUser = decodeURIComponent(pgUrl.username);
const pgAddress = `postgres://${pgUrl.host}${pgUrl.pathname}`;

let testApp: TestApp;
let admin: TestUser;

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(admin),
      prefer: 'return=representation',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

async function saveConnection(body: Record<string, unknown>): Promise<string> {
  const response = await call('POST', '/api/db/connections', { namespace: 'default', properties: {}, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }[]>()[0]!.id;
}

/** Saves a canary with one check and runs it now; the Run Now answer. */
async function runCheckNamed(name: string, spec: Record<string, unknown>) {
  const created = await call('POST', '/api/db/canaries', { name, namespace: 'default', spec });
  expect(created.statusCode, created.body).toBe(201);
  const canaryId = created.json<{ id: string }[]>()[0]!.id;
  const checks = await call('GET', `/api/db/checks?canary_id=eq.${canaryId}&select=id,endpoint`);
  const [check] = checks.json<{ id: string; endpoint: string }[]>();
  const run = await call('POST', `/api/canary/run/check/${check!.id}`);
  expect(run.statusCode, run.body).toBe(200);
  return {
    endpoint: check!.endpoint,
    ...run.json<{ result: { status: boolean; message: string; error: string | null }; errors: string[] }>(),
  };
}

beforeAll(async () => {
  testApp = await buildTestApp();
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'admin@example.com',
    roles: ['admin'],
  });
});
afterAll(() => testApp.close());

describe('a check that names a connection', () => {
  it('passes against the test PostgreSQL with the connection sealed credentials, read at run time', async () => {
    await saveConnection({ name: 'pg', type: 'postgres', url: pgAddress, username: pgUser, password: pgPassword });
    const run = await runCheckNamed('pg-by-connection', {
      interval: 3600,
      postgres: [{ name: 'pg', connection: 'connection://default/pg', query: 'SELECT 1 AS one', results: 1 }],
    });
    expect(run.result.status, run.result.message).toBe(true);
    expect(run.result.message).toMatch(/^query returned 1 row from /);
    expect(run.endpoint).toBe('connection://default/pg');
    expect(JSON.stringify(run)).not.toContain(pgPassword);

    // The short form names a connection in the canary's namespace; url may name it too.
    const short = await runCheckNamed('pg-short', {
      interval: 3600,
      postgres: [{ name: 'pg', url: 'connection://pg', query: 'SELECT 1' }],
    });
    expect(short.result.status, short.result.message).toBe(true);
  });

  it("fails with the server's own words when the connection's password is wrong, and the password stays out", async () => {
    await saveConnection({
      name: 'pg-wrong',
      type: 'postgres',
      url: `postgres://${pgUser}:not-the-Password-1@${pgUrl.host}${pgUrl.pathname}`,
    });
    const run = await runCheckNamed('pg-wrong', {
      interval: 3600,
      postgres: [{ name: 'pg', connection: 'connection://default/pg-wrong' }],
    });
    expect(run.result.status).toBe(false);
    expect(run.result.message).toMatch(/password authentication failed for user/);
    expect(JSON.stringify(run)).not.toContain('not-the-Password-1');
  });

  it('fails saying so when the connection does not exist', async () => {
    const run = await runCheckNamed('pg-missing', {
      interval: 3600,
      postgres: [{ name: 'pg', connection: 'connection://default/nowhere' }],
    });
    expect(run.result).toMatchObject({
      status: false,
      message:
        'could not read connection://default/nowhere: connection://default/nowhere does not exist (or was deleted); add it under Settings > Connections.',
    });
  });

  it('passes against MariaDB at 127.0.0.1:3306', async () => {
    if (!(await reachable('127.0.0.1', 3306))) {
      console.warn('SKIPPED mysql connection check: no MariaDB at 127.0.0.1:3306');
      return;
    }
    await saveConnection({ name: 'maria', type: 'mysql', url: 'mysql://127.0.0.1:3306/test', username: 'root' });
    const run = await runCheckNamed('maria-by-connection', {
      interval: 3600,
      mysql: [{ name: 'maria', connection: 'connection://default/maria', query: 'SELECT 1' }],
    });
    expect(run.result.status, run.result.message).toBe(true);
  });

  it('passes against Redis at 127.0.0.1:6379', async () => {
    if (!(await reachable('127.0.0.1', 6379))) {
      console.warn('SKIPPED redis connection check: no Redis at 127.0.0.1:6379');
      return;
    }
    await saveConnection({ name: 'cache', type: 'redis', url: 'redis://127.0.0.1:6379', properties: { db: '1' } });
    const run = await runCheckNamed('redis-by-connection', {
      interval: 3600,
      redis: [{ name: 'cache', connection: 'connection://default/cache' }],
    });
    expect(run.result.status, run.result.message).toBe(true);
    expect(run.result.message).toMatch(/^PONG from 127\.0\.0\.1:6379 \(db 1\)/);
  });
});
