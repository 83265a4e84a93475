import { Client, ResultCodeError } from 'ldapts';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { untilAborted } from './abortable.js';

/**
 * LDAP result codes (RFC 4511 section 4.1.9) a bind can answer, in the words OpenLDAP's tools
 * print them ("Invalid credentials (49)"), so the test says what the server said.
 */
const RESULT_NAMES: Readonly<Record<number, string>> = {
  1: 'Operations error',
  2: 'Protocol error',
  3: 'Time limit exceeded',
  7: 'Auth method not supported',
  8: 'Strong(er) authentication required',
  13: 'Confidentiality required',
  32: 'No such object',
  34: 'Invalid DN syntax',
  48: 'Inappropriate authentication',
  49: 'Invalid credentials',
  50: 'Insufficient access',
  51: 'Server is busy',
  52: 'Server is unavailable',
  53: 'Server is unwilling to perform',
  80: 'Internal (implementation specific) error',
};

/**
 * The server's answer to a refused bind: the result code's name and number, then the server's
 * diagnostic message when it sent one (Active Directory puts the reason there, e.g. `data 52e`).
 */
export function ldapErrorMessage(error: ResultCodeError): string {
  const name = RESULT_NAMES[error.code] ?? 'LDAP error';
  const text = error.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '');
  // ldapts puts a generic sentence of its own there when the server sent no message.
  const generic = genericMessage(error);
  return text && text !== generic ? `${name} (${error.code}): ${text}` : `${name} (${error.code})`;
}

function genericMessage(error: ResultCodeError): string | undefined {
  try {
    const Generic = error.constructor as new () => Error;
    return new Generic().message.replace(/\s*Code: 0x[0-9a-f]+$/i, '');
  } catch {
    return undefined;
  }
}

function ldapUrl(connection: ConnectionUnderTest): string {
  const raw = connection.url?.trim();
  if (!raw) throw new Error('The LDAP connection has no URL (ldap://host:389 or ldaps://host:636)');
  const url = new URL(raw.includes('://') ? raw : `ldap://${raw}`);
  if (url.protocol !== 'ldap:' && url.protocol !== 'ldaps:') {
    throw new Error(`The LDAP connection's URL '${raw}' is not an ldap:// or ldaps:// URL`);
  }
  return `${url.protocol}//${url.host}`;
}

/**
 * LDAP: a simple bind with the connection's DN and password (ldaps:// over TLS), then an
 * unbind. An empty password would be an anonymous bind that most servers accept for any DN,
 * so it is refused before connecting.
 */
export const testLdapConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const url = ldapUrl(connection);
  const dn = connection.username?.trim();
  if (!dn) throw new Error('The LDAP connection has no bind DN');
  if (!connection.password)
    throw new Error('The LDAP connection has no password (an empty one would bind anonymously)');
  const certificate = connection.certificate?.includes('-----BEGIN CERTIFICATE-----')
    ? connection.certificate
    : undefined;
  const client = new Client({
    url,
    timeout: timeoutMs,
    connectTimeout: timeoutMs,
    // ldapts speaks TLS whenever it is given TLS options, so only ldaps:// gets them.
    ...(url.startsWith('ldaps:')
      ? { tlsOptions: { rejectUnauthorized: !connection.insecureTls, ...(certificate ? { ca: certificate } : {}) } }
      : {}),
  });
  const bind = client.bind(dn, connection.password).catch((error: unknown) => {
    throw error instanceof ResultCodeError ? new Error(ldapErrorMessage(error)) : error;
  });
  await untilAborted(signal, bind, () => {
    // Unbind says goodbye when bound and destroys the socket in every state.
    client.unbind().catch(() => undefined);
  });
};
