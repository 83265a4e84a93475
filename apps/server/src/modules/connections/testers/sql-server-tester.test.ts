import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { selfSignedCertificate, type SelfSignedCertificate } from '../../../../test/self-signed-certificate.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { startTdsServer, type TdsServer } from '../../../../test/tds-server.js';
import { readSqlServerSettings, testSqlServerConnection } from './sql-server-tester.js';

let plain: TdsServer;
let strict: TdsServer;
let certificate: SelfSignedCertificate;

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  plain = await startTdsServer({ user: 'lookout', password: 'Str0ng!pass' });
  strict = await startTdsServer({ user: 'lookout', password: 'Str0ng!pass', tls: certificate });
});

afterAll(async () => {
  await Promise.all([plain.close(), strict.close()]);
});

const sqlServer = (url: string, fields = {}) =>
  connectionUnderTest('sql_server', { url, username: 'lookout', password: 'Str0ng!pass', ...fields });

describe('readSqlServerSettings', () => {
  it('reads host, port (1433), database, encryption (on by default) and trust from the URL', () => {
    expect(readSqlServerSettings(sqlServer('sqlserver://db.example.org?database=ops'))).toEqual({
      host: 'db.example.org',
      port: 1433,
      database: 'ops',
      user: 'lookout',
      password: 'Str0ng!pass',
      encrypt: true,
      trustServerCertificate: false,
    });
    expect(
      readSqlServerSettings(sqlServer('sqlserver://db:1444/SQLEXPRESS?encrypt=strict&TrustServerCertificate=true')),
    ).toMatchObject({ port: 1444, instance: 'SQLEXPRESS', encrypt: 'strict', trustServerCertificate: true });
    expect(readSqlServerSettings(sqlServer('sqlserver://db/SQLEXPRESS?encrypt=disable'))).toMatchObject({
      instance: 'SQLEXPRESS',
      encrypt: false,
    });
    expect(readSqlServerSettings(sqlServer('sqlserver://db/SQLEXPRESS')).port).toBeUndefined();
  });

  it('refuses another scheme and a missing URL or user', () => {
    expect(() => readSqlServerSettings(sqlServer('postgres://db'))).toThrow(
      "The sql_server connection's URL must start with sqlserver://",
    );
    expect(() => readSqlServerSettings(sqlServer(''))).toThrow('The sql_server connection has no URL');
    expect(() => readSqlServerSettings(sqlServer('sqlserver://db', { username: '' }))).toThrow(
      'The sql_server connection has no username',
    );
  });
});

describe('testSqlServerConnection (tedious) against a local server speaking the TDS login', () => {
  it('logs in with the right password, asking for the database', async () => {
    plain.logins.length = 0;
    await testSqlServerConnection(
      sqlServer(`sqlserver://127.0.0.1:${plain.port}?database=ops&encrypt=disable`),
      testerContext(),
    );
    expect(plain.logins).toEqual([{ user: 'lookout', database: 'ops', accepted: true }]);
  });

  it("answers a wrong password with SQL Server's error 18456 text", async () => {
    await expect(
      testSqlServerConnection(
        sqlServer(`sqlserver://127.0.0.1:${plain.port}?encrypt=disable`, { password: 'wrong' }),
        testerContext(),
      ),
    ).rejects.toThrow("Login failed for user 'lookout'.");
  });

  it('speaks TDS 8.0 inside TLS with encrypt=strict, which always verifies the certificate (a CA may be given)', async () => {
    const url = `sqlserver://127.0.0.1:${strict.port}?encrypt=strict`;
    await expect(testSqlServerConnection(sqlServer(url), testerContext())).rejects.toThrow(/self-signed certificate/);
    await expect(testSqlServerConnection(sqlServer(url, { insecureTls: true }), testerContext())).rejects.toThrow(
      /self-signed certificate/,
    );
    strict.logins.length = 0;
    await testSqlServerConnection(sqlServer(url, { certificate: certificate.cert }), testerContext());
    expect(strict.logins).toEqual([{ user: 'lookout', database: '', accepted: true }]);
  });

  it('says the connection was refused on a closed port', async () => {
    const port = await findFreePort();
    await expect(
      testSqlServerConnection(sqlServer(`sqlserver://127.0.0.1:${port}?encrypt=disable`), testerContext()),
    ).rejects.toThrow(
      `Failed to connect to 127.0.0.1:${port} - Could not connect (sequence): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('stops and closes its socket when the signal fires while the server says nothing', async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testSqlServerConnection(sqlServer(`sqlserver://127.0.0.1:${silent.port}?encrypt=disable`), context);
      const closed = silent.allClosed();
      setTimeout(context.abort, 200);
      await expect(test).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
