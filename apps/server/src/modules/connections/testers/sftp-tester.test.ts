import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { SSH_TEST_PASSWORD, sshdMissing, startSshd, type TestSshd } from '../../../../test/sshd.js';
import { readSftpSettings, testSftpConnection } from './sftp-tester.js';

const missing = sshdMissing();
let sshd: TestSshd | undefined;

beforeAll(async () => {
  if (!missing) sshd = await startSshd();
}, 30_000);

afterAll(async () => {
  await sshd?.stop();
});

/** The running sshd, or undefined (after saying SKIPPED) where sshd is not installed. */
function server(test: string): TestSshd | undefined {
  if (!sshd) console.warn(`SKIPPED sftp tester test '${test}': ${missing}`);
  return sshd;
}

const sftp = (running: TestSshd, fields = {}, properties: Record<string, string> = {}) =>
  connectionUnderTest('sftp', {
    url: '127.0.0.1',
    username: running.user,
    properties: { port: String(running.port), ...properties },
    ...fields,
  });

describe('readSftpSettings', () => {
  it('reads the host, the port (22 by default) and the folder (home by default)', () => {
    expect(readSftpSettings(connectionUnderTest('sftp', { url: 'files.example.org' }))).toEqual({
      host: 'files.example.org',
      port: 22,
      path: '.',
    });
    expect(
      readSftpSettings(
        connectionUnderTest('sftp', { url: 'files.example.org', properties: { port: '2222', path: '/srv' } }),
      ),
    ).toEqual({ host: 'files.example.org', port: 2222, path: '/srv' });
  });

  it("reads the original's sftp://user@host:port/path URL", () => {
    expect(
      readSftpSettings(connectionUnderTest('sftp', { url: 'sftp://bob@files.example.org:2022/in%20box' })),
    ).toEqual({
      host: 'files.example.org',
      port: 2022,
      path: '/in box',
    });
  });

  it('refuses a missing host, another scheme and a port that is not a number', () => {
    expect(() => readSftpSettings(connectionUnderTest('sftp'))).toThrow('The SFTP connection has no host');
    expect(() => readSftpSettings(connectionUnderTest('sftp', { url: 'https://x' }))).toThrow(
      "The SFTP connection's host 'https://x' is neither a host name nor an sftp:// URL",
    );
    expect(() => readSftpSettings(connectionUnderTest('sftp', { url: 'x', properties: { port: '0' } }))).toThrow(
      "The SFTP connection's port '0' is not a port number",
    );
  });
});

describe('testSftpConnection against OpenSSH sshd', () => {
  it('logs in with the private key and lists the home folder and a configured folder', async () => {
    const running = server('key login');
    if (!running) return;
    await testSftpConnection(sftp(running, { certificate: running.privateKey }), testerContext());
    if (running.passwordLogin) {
      await testSftpConnection(
        sftp(running, { certificate: running.privateKey }, { path: 'reports' }),
        testerContext(),
      );
    }
  });

  it('says the folder is missing when the configured one does not exist', async () => {
    const running = server('missing folder');
    if (!running) return;
    await expect(
      testSftpConnection(
        sftp(running, { certificate: running.privateKey }, { path: 'no-such-folder' }),
        testerContext(),
      ),
    ).rejects.toThrow("SFTP could not list 'no-such-folder': No such file");
  });

  it('refuses a key the server does not know, naming the methods the server accepts', async () => {
    const running = server('unknown key');
    if (!running) return;
    const methods = running.passwordLogin ? 'publickey, password' : 'publickey';
    await expect(
      testSftpConnection(sftp(running, { certificate: running.strangerKey }), testerContext()),
    ).rejects.toThrow(`SSH authentication failed for '${running.user}' (the server accepts: ${methods})`);
  });

  it('logs in with the password, and answers a wrong one with the failed authentication', async () => {
    const running = server('password login');
    if (!running) return;
    if (!running.passwordLogin) {
      console.warn('SKIPPED sftp tester password test: needs root to give the test sshd an account with a password');
      return;
    }
    await testSftpConnection(sftp(running, { password: SSH_TEST_PASSWORD }), testerContext());
    await expect(testSftpConnection(sftp(running, { password: 'wrong' }), testerContext())).rejects.toThrow(
      `SSH authentication failed for '${running.user}' (the server accepts: publickey, password)`,
    );
  });

  it('says the connection was refused on a closed port', async () => {
    const port = await findFreePort();
    await expect(
      testSftpConnection(
        connectionUnderTest('sftp', {
          url: '127.0.0.1',
          username: 'u',
          password: 'p',
          properties: { port: String(port) },
        }),
        testerContext(),
      ),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  it('stops and closes its socket when the signal fires while the server says nothing', async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testSftpConnection(
        connectionUnderTest('sftp', {
          url: '127.0.0.1',
          username: 'u',
          password: 'p',
          properties: { port: String(silent.port) },
        }),
        context,
      );
      const closed = silent.allClosed();
      setTimeout(context.abort, 200);
      await expect(test).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
