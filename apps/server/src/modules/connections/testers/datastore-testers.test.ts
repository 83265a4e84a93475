import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { findFreePort } from '../../../db/free-port.js';
import { testMysqlConnection } from './mysql-tester.js';
import { testPostgresConnection } from './postgres-tester.js';
import { redisTarget, testRedisConnection } from './redis-tester.js';

/*
 * The postgres, mysql and redis testers against real servers: the test PostgreSQL of the global
 * setup, the MariaDB at 127.0.0.1:3306 (root, no password), the Redis at 127.0.0.1:6379 and a
 * redis-server with a password that this file starts. Each answers ok with the right
 * credentials and the server's own error with a wrong password.
 */

const pgUrl = new URL(inject('testAdminDatabaseUrl'));
const pgAddress = `postgres://${pgUrl.host}${pgUrl.pathname}`;

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

describe('postgres tester', () => {
  it('answers ok with the right password, in the url or the fields', async () => {
    await testPostgresConnection(connectionUnderTest('postgres', { url: pgUrl.toString() }), testerContext());
    await testPostgresConnection(
      connectionUnderTest('postgres', {
        url: pgAddress,
        username: decodeURIComponent(pgUrl.username),
        password: decodeURIComponent(pgUrl.password),
      }),
      testerContext(),
    );
  });

  it("rejects with the server's message for a wrong password or a missing database", async () => {
    const wrong = connectionUnderTest('postgres', {
      url: pgAddress,
      username: decodeURIComponent(pgUrl.username),
      password: 'not-the-password',
    });
    await expect(testPostgresConnection(wrong, testerContext())).rejects.toThrow(
      `password authentication failed for user "${decodeURIComponent(pgUrl.username)}"`,
    );
    const missing = new URL(pgUrl.toString());
    missing.pathname = '/no_such_database';
    await expect(
      testPostgresConnection(connectionUnderTest('postgres', { url: missing.toString() }), testerContext()),
    ).rejects.toThrow('database "no_such_database" does not exist');
  });

  it('refuses a url of another kind and a connection without one', async () => {
    await expect(
      testPostgresConnection(connectionUnderTest('postgres', { url: 'mysql://db/app' }), testerContext()),
    ).rejects.toThrow("A postgres connection's URL starts with postgres://, not mysql://");
    await expect(testPostgresConnection(connectionUnderTest('postgres'), testerContext())).rejects.toThrow(
      'The postgres connection has no URL',
    );
  });

  it('gives up on a server that never answers when the signal fires, and closes its socket', async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testPostgresConnection(
        connectionUnderTest('postgres', { url: `postgres://u:p@127.0.0.1:${silent.port}/db` }),
        context,
      );
      setTimeout(() => context.abort(), 200);
      await expect(test).rejects.toThrow('The connection test timed out');
      await silent.allClosed();
    } finally {
      await silent.close();
    }
  });
});

describe('mysql tester against MariaDB', () => {
  let available = false;
  beforeAll(async () => {
    available = await reachable('127.0.0.1', 3306);
    if (!available) console.warn('SKIPPED mysql tester tests: no MariaDB at 127.0.0.1:3306');
  });

  it("answers ok as root, and the server's error for a wrong password", async () => {
    if (!available) return;
    await testMysqlConnection(
      connectionUnderTest('mysql', { url: 'mysql://127.0.0.1:3306/test', username: 'root' }),
      testerContext(),
    );
    await testMysqlConnection(
      connectionUnderTest('mysql', { url: 'mariadb://root@127.0.0.1:3306/test' }),
      testerContext(),
    );
    await expect(
      testMysqlConnection(
        connectionUnderTest('mysql', { url: 'mysql://127.0.0.1:3306/test', username: 'root', password: 'wrong-one' }),
        testerContext(),
      ),
    ).rejects.toThrow(/^Access denied for user 'root'@'(localhost|127\.0\.0\.1)' \(using password: YES\)$/);
  });
});

describe('redis tester', () => {
  const binary = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((file) => existsSync(file));
  let guarded: { child: ChildProcess; port: number } | undefined;

  beforeAll(async () => {
    if (!binary) return;
    const port = await findFreePort();
    const child = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--requirepass',
        'right-Pass-1',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(await reachable('127.0.0.1', port))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    guarded = { child, port };
  });
  afterAll(() => {
    guarded?.child.kill();
  });

  it('reads host, port, database and credentials from the url and the form', () => {
    expect(
      redisTarget(connectionUnderTest('redis', { url: 'rediss://u:p%40ss@cache.internal:6380/2', password: 'x' })),
    ).toEqual({ host: 'cache.internal', port: 6380, tls: true, db: 2, username: 'u', password: 'p@ss' });
    expect(
      redisTarget(connectionUnderTest('redis', { url: 'cache:6379', properties: { db: '3' }, password: 'pw' })),
    ).toEqual({ host: 'cache', port: 6379, tls: false, db: 3, password: 'pw' });
    expect(() => redisTarget(connectionUnderTest('redis', { url: 'http://cache' }))).toThrow(
      "A redis connection's URL starts with redis:// or rediss://, not http://",
    );
  });

  it('answers ok from the Redis at 127.0.0.1:6379', async () => {
    if (!(await reachable('127.0.0.1', 6379))) {
      console.warn('SKIPPED redis tester test: no Redis at 127.0.0.1:6379');
      return;
    }
    await testRedisConnection(
      connectionUnderTest('redis', { url: 'redis://127.0.0.1:6379', properties: { db: '1' } }),
      testerContext(),
    );
    await expect(
      testRedisConnection(
        connectionUnderTest('redis', { url: 'redis://127.0.0.1:6379', properties: { db: '99999' } }),
        testerContext(),
      ),
    ).rejects.toThrow(/DB index is out of range/);
  });

  it("answers ok with the right password and the server's error with a wrong one", async () => {
    if (!guarded) {
      console.warn('SKIPPED redis password tests: redis-server is not installed');
      return;
    }
    const url = `redis://127.0.0.1:${guarded.port}`;
    await testRedisConnection(connectionUnderTest('redis', { url, password: 'right-Pass-1' }), testerContext());
    await expect(
      testRedisConnection(connectionUnderTest('redis', { url, password: 'wrong-Pass-1' }), testerContext()),
    ).rejects.toThrow(/^WRONGPASS invalid username-password pair/);
    await expect(testRedisConnection(connectionUnderTest('redis', { url }), testerContext())).rejects.toThrow(
      /^NOAUTH /,
    );
  });

  it('says the connection was refused on a closed port', async () => {
    const port = await findFreePort();
    await expect(
      testRedisConnection(connectionUnderTest('redis', { url: `redis://127.0.0.1:${port}` }), testerContext()),
    ).rejects.toThrow(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });
});
