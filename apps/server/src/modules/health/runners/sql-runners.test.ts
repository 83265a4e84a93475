import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { runCheck } from './runners.js';
import type { SecretResolver } from './runner-types.js';

const resolveSecret: SecretResolver = async (ref) => {
  if (ref.secretKeyRef?.name === 'pg' && ref.secretKeyRef.key === 'password') return pgPassword;
  throw new Error('unknown secret');
};

// The server project's global setup starts a real PostgreSQL (embedded unless
// LOOKOUT_TEST_DATABASE_URL names one), so this test always has a server to talk to.
const pgUrl = new URL(inject('testAdminDatabaseUrl'));
const pgUser = decodeURIComponent(pgUrl.username);
const pgPassword = decodeURIComponent(pgUrl.password);
const pgWhere = `${pgUrl.host}${pgUrl.pathname}`;
const mysqlUrl = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/mysql';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 3306) });
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

describe('postgres runner against the test PostgreSQL', () => {
  it('passes when the query returns at least `results` rows, with CEL over the rows', async () => {
    const result = await runCheck(
      {
        type: 'postgres',
        check: {
          name: 'pg',
          url: pgUrl.toString(),
          query: 'SELECT 1 AS n UNION ALL SELECT 2',
          results: 2,
          test: { expr: 'results.count == 2 && results.rows[1].n == 2' },
        },
      },
      { resolveSecret, timeoutMs: 10_000 },
    );
    expect(result.pass).toBe(true);
    expect(result.message).toMatch(
      new RegExp(`^query returned 2 rows from ${pgWhere.replace(/\./g, '\\.')} in [\\d.]+ ms$`),
    );
    expect(result.detail).toMatchObject({ count: 2, rows: [{ n: 1 }, { n: 2 }] });
  });

  it('fills $(username) and $(password) from secret-or-value fields', async () => {
    const template = new URL(pgUrl.toString());
    template.username = 'USER';
    template.password = 'PASS';
    const url = template.toString().replace('USER', '$(username)').replace('PASS', '$(password)');
    const result = await runCheck(
      {
        type: 'postgres',
        check: {
          name: 'pg',
          url,
          username: { value: pgUser },
          password: { valueFrom: { secretKeyRef: { name: 'pg', key: 'password' } } },
          results: 1,
        },
      },
      { resolveSecret, timeoutMs: 10_000 },
    );
    expect(result).toMatchObject({ pass: true });
  });

  it('fails with too few rows, a bad query, a missing database or a closed port, and says which', async () => {
    const run = (url: string, query: string, results?: number) =>
      runCheck(
        { type: 'postgres', check: { name: 'pg', url, query, ...(results ? { results } : {}) } },
        { resolveSecret, timeoutMs: 10_000 },
      );
    expect(await run(pgUrl.toString(), 'SELECT 1 WHERE false', 1)).toMatchObject({
      pass: false,
      message: 'query returned 0 rows, expected at least 1',
    });
    expect(await run(pgUrl.toString(), 'SELECT * FROM no_such_table')).toMatchObject({
      pass: false,
      message: `query failed on ${pgWhere}: relation "no_such_table" does not exist`,
    });
    const missing = new URL(pgUrl.toString());
    missing.pathname = '/no_such_database';
    expect(await run(missing.toString(), 'SELECT 1')).toMatchObject({
      pass: false,
      message: `could not connect to ${pgUrl.host}/no_such_database: database "no_such_database" does not exist`,
    });
    const closed = new URL(pgUrl.toString());
    closed.port = String(await findFreePort());
    expect(await run(closed.toString(), 'SELECT 1')).toMatchObject({
      pass: false,
      message: `could not connect to ${closed.host}${closed.pathname}: connection refused`,
    });
  });
});

describe('mysql runner against MariaDB', () => {
  it('passes a query with enough rows and fails bad ones with the reason', async () => {
    if (!(await reachable(mysqlUrl))) {
      console.warn(`SKIPPED mysql runner test: no MySQL or MariaDB at ${new URL(mysqlUrl).host} (set MYSQL_URL)`);
      return;
    }
    const where = `${new URL(mysqlUrl).host}${new URL(mysqlUrl).pathname}`;
    const run = (query: string, results?: number, url = mysqlUrl) =>
      runCheck(
        { type: 'mysql', check: { name: 'maria', url, query, ...(results ? { results } : {}) } },
        { resolveSecret, timeoutMs: 10_000 },
      );

    const ok = await runCheck(
      {
        type: 'mysql',
        check: {
          name: 'maria',
          url: mysqlUrl,
          query: 'SELECT 1 AS n, VERSION() AS version',
          results: 1,
          test: { expr: 'results.rows[0].n == 1' },
        },
      },
      { resolveSecret, timeoutMs: 10_000 },
    );
    expect(ok.pass).toBe(true);
    expect(ok.message).toMatch(/^query returned 1 row from .+ in [\d.]+ ms$/);

    expect(await run('SELECT 1 FROM DUAL WHERE 1 = 0', 1)).toMatchObject({
      pass: false,
      message: 'query returned 0 rows, expected at least 1',
    });
    const bad = await run('SELECT * FROM no_such_table');
    expect(bad.pass).toBe(false);
    expect(bad.message).toMatch(
      new RegExp(`^query failed on ${where.replace(/\./g, '\\.')}: Table '.*no_such_table' doesn't exist$`),
    );

    const denied = new URL(mysqlUrl);
    denied.username = 'lookout_nobody';
    denied.password = 'wrong';
    const refused = await run('SELECT 1', undefined, denied.toString());
    expect(refused.pass).toBe(false);
    expect(refused.message).toMatch(/^could not connect to .+: Access denied for user 'lookout_nobody'/);
  });
});
