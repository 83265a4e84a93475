import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { selfSignedCertificate, type SelfSignedCertificate } from '../../../../test/self-signed-certificate.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import {
  LDAP_ADMIN_DN,
  LDAP_ADMIN_PASSWORD,
  LDAP_USER_DN,
  LDAP_USER_PASSWORD,
  slapdMissing,
  startSlapd,
  type TestSlapd,
} from '../../../../test/slapd.js';
import { testLdapConnection } from './ldap-tester.js';

const missing = slapdMissing();
let slapd: TestSlapd | undefined;
let certificate: SelfSignedCertificate;

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  if (missing) return;
  slapd = await startSlapd(certificate);
}, 30_000);

afterAll(async () => {
  await slapd?.stop();
});

/** The running slapd, or undefined (after saying SKIPPED) where slapd is not installed. */
function server(test: string): TestSlapd | undefined {
  if (!slapd) console.warn(`SKIPPED ldap tester test '${test}': ${missing}`);
  return slapd;
}

const ldap = (url: string, fields = {}) =>
  connectionUnderTest('ldap', { url, username: LDAP_ADMIN_DN, password: LDAP_ADMIN_PASSWORD, ...fields });

describe('testLdapConnection against OpenLDAP slapd', () => {
  it('binds as the admin and as a person with the right passwords', async () => {
    const running = server('binds');
    if (!running) return;
    await testLdapConnection(ldap(running.url), testerContext());
    await testLdapConnection(
      ldap(running.url, { username: LDAP_USER_DN, password: LDAP_USER_PASSWORD }),
      testerContext(),
    );
  });

  it("answers a wrong password with the server's Invalid credentials (49)", async () => {
    const running = server('wrong password');
    if (!running) return;
    await expect(testLdapConnection(ldap(running.url, { password: 'wrong' }), testerContext())).rejects.toThrow(
      /^Invalid credentials \(49\)$/,
    );
    await expect(
      testLdapConnection(ldap(running.url, { username: `uid=bob,ou=people,dc=example,dc=org` }), testerContext()),
    ).rejects.toThrow(/^Invalid credentials \(49\)/);
  });

  it('binds over ldaps:// when the certificate is trusted or insecure TLS is on, and refuses it otherwise', async () => {
    const running = server('ldaps');
    if (!running?.secureUrl) return;
    await expect(testLdapConnection(ldap(running.secureUrl), testerContext())).rejects.toThrow(
      /self-signed certificate/,
    );
    await testLdapConnection(ldap(running.secureUrl, { insecureTls: true }), testerContext());
    await testLdapConnection(ldap(running.secureUrl, { certificate: certificate.cert }), testerContext());
  });

  it('refuses an empty password (an anonymous bind) and a URL that is not LDAP before connecting', async () => {
    await expect(testLdapConnection(ldap('ldap://127.0.0.1:1', { password: '' }), testerContext())).rejects.toThrow(
      'The LDAP connection has no password (an empty one would bind anonymously)',
    );
    await expect(testLdapConnection(ldap('http://127.0.0.1:1'), testerContext())).rejects.toThrow(
      "The LDAP connection's URL 'http://127.0.0.1:1' is not an ldap:// or ldaps:// URL",
    );
  });

  it('says the connection was refused on a closed port', async () => {
    const port = await findFreePort();
    await expect(testLdapConnection(ldap(`ldap://127.0.0.1:${port}`), testerContext())).rejects.toThrow(/ECONNREFUSED/);
  });

  it('stops and closes its socket when the signal fires while the server says nothing', async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testLdapConnection(ldap(`ldap://127.0.0.1:${silent.port}`), context);
      const closed = silent.allClosed();
      setTimeout(context.abort, 200);
      await expect(test).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
