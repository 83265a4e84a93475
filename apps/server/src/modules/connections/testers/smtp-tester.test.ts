import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { selfSignedCertificate, type SelfSignedCertificate } from '../../../../test/self-signed-certificate.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { readSmtpSettings, testSmtpConnection } from './smtp-tester.js';

type Login = { method: string; user: string; secure: boolean };

/** A real SMTP server (smtp-server) that accepts alice/s3cret with PLAIN or LOGIN and logs each login. */
async function startServer(
  options: SMTPServerOptions,
  logins: Login[],
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    logger: false,
    authMethods: ['PLAIN', 'LOGIN'],
    ...options,
    onAuth(auth, session, callback) {
      logins.push({ method: auth.method, user: auth.username ?? '', secure: session.secure });
      if (auth.username === 'alice' && auth.password === 's3cret') return callback(null, { user: 'alice' });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let certificate: SelfSignedCertificate;
let startTls: { port: number; close: () => Promise<void> };
let implicitTls: { port: number; close: () => Promise<void> };
let plainOnly: { port: number; close: () => Promise<void> };
const logins: Login[] = [];

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  startTls = await startServer({ key: certificate.key, cert: certificate.cert }, logins);
  implicitTls = await startServer({ secure: true, key: certificate.key, cert: certificate.cert }, logins);
  plainOnly = await startServer({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true }, logins);
});

afterAll(async () => {
  await Promise.all([startTls.close(), implicitTls.close(), plainOnly.close()]);
});

const email = (port: number, properties: Record<string, string>, fields = {}) =>
  connectionUnderTest('email', {
    username: 'alice',
    password: 's3cret',
    properties: { host: '127.0.0.1', port: String(port), ...properties },
    ...fields,
  });

describe('readSmtpSettings', () => {
  it('reads host, port and the choices from the properties, with Auto, Unknown and 587 as defaults', () => {
    expect(readSmtpSettings(email(2525, { encryptionMethod: 'ImplicitTLS', authMethod: 'CRAMMD5' }))).toEqual({
      host: '127.0.0.1',
      port: 2525,
      encryption: 'ImplicitTLS',
      auth: 'CRAMMD5',
    });
    expect(readSmtpSettings(connectionUnderTest('email', { properties: { host: 'mail.example.com' } }))).toEqual({
      host: 'mail.example.com',
      port: 587,
      encryption: 'Auto',
      auth: 'Unknown',
    });
  });

  it('falls back on the smtp:// service url', () => {
    expect(
      readSmtpSettings(
        connectionUnderTest('email', {
          url: 'smtp://$(username):$(password)@mail.example.com:25/?encryption=None&auth=Plain',
        }),
      ),
    ).toEqual({ host: 'mail.example.com', port: 25, encryption: 'None', auth: 'Plain' });
  });

  it('refuses a connection with no host or a port that is not a number', () => {
    expect(() => readSmtpSettings(connectionUnderTest('email'))).toThrow('The email connection has no SMTP host');
    expect(() => readSmtpSettings(connectionUnderTest('email', { properties: { host: 'h', port: 'x' } }))).toThrow(
      "The email connection's port 'x' is not a port number",
    );
  });
});

describe('testSmtpConnection against a real SMTP server', () => {
  it('says EHLO, upgrades with STARTTLS and logs in with the right password', async () => {
    logins.length = 0;
    await testSmtpConnection(email(startTls.port, {}, { insecureTls: true }), testerContext());
    expect(logins).toEqual([{ method: 'PLAIN', user: 'alice', secure: true }]);
  });

  it('uses the auth method the connection names (Plain) and the server offers', async () => {
    logins.length = 0;
    await testSmtpConnection(
      email(startTls.port, { encryptionMethod: 'ExplicitTLS', authMethod: 'Plain' }, { insecureTls: true }),
      testerContext(),
    );
    expect(logins).toEqual([{ method: 'PLAIN', user: 'alice', secure: true }]);
  });

  it("answers a wrong password with the server's 535 reply", async () => {
    await expect(
      testSmtpConnection(email(startTls.port, {}, { insecureTls: true, password: 'wrong' }), testerContext()),
    ).rejects.toThrow(/535 Invalid username or password/);
  });

  it('refuses the self-signed certificate unless insecure TLS is on or the certificate is given as CA', async () => {
    await expect(testSmtpConnection(email(startTls.port, {}), testerContext())).rejects.toThrow(
      /self-signed certificate/,
    );
    await testSmtpConnection(email(startTls.port, {}, { certificate: certificate.cert }), testerContext());
  });

  it('speaks TLS from the start for ImplicitTLS', async () => {
    logins.length = 0;
    await testSmtpConnection(
      email(implicitTls.port, { encryptionMethod: 'ImplicitTLS' }, { insecureTls: true }),
      testerContext(),
    );
    expect(logins).toEqual([{ method: 'PLAIN', user: 'alice', secure: true }]);
  });

  it('fails ExplicitTLS against a server that does not offer STARTTLS, and goes on in plain text with None', async () => {
    await expect(
      testSmtpConnection(email(plainOnly.port, { encryptionMethod: 'ExplicitTLS' }), testerContext()),
    ).rejects.toThrow(/STARTTLS/);
    logins.length = 0;
    await testSmtpConnection(email(plainOnly.port, { encryptionMethod: 'None' }), testerContext());
    expect(logins).toEqual([{ method: 'PLAIN', user: 'alice', secure: false }]);
  });

  it('does not log in when auth is None', async () => {
    logins.length = 0;
    await testSmtpConnection(email(plainOnly.port, { authMethod: 'None' }), testerContext());
    expect(logins).toEqual([]);
  });

  it('says the connection was refused on a closed port', async () => {
    const port = await findFreePort();
    await expect(testSmtpConnection(email(port, {}), testerContext())).rejects.toThrow(/ECONNREFUSED/);
  });

  it('stops and closes its socket when the signal fires while the server says nothing', async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testSmtpConnection(email(silent.port, {}), context);
      const closed = silent.allClosed();
      setTimeout(context.abort, 200);
      await expect(test).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
