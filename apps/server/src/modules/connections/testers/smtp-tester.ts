import SMTPConnection, { type SMTPConnectionAuth } from 'nodemailer/lib/smtp-connection';
import XOAuth2 from 'nodemailer/lib/xoauth2';
import { CONNECTION_DEFAULTS, EMAIL_AUTH_METHODS, EMAIL_ENCRYPTION_METHODS } from '@lookout/contracts';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { untilAborted } from './abortable.js';

type SmtpEncryption = (typeof EMAIL_ENCRYPTION_METHODS)[number];
type SmtpAuth = (typeof EMAIL_AUTH_METHODS)[number];

export type SmtpSettings = {
  host: string;
  port: number;
  encryption: SmtpEncryption;
  auth: SmtpAuth;
};

const IMPLICIT_TLS_PORT = 465;

function oneOf<T extends string>(value: string | null | undefined, choices: readonly T[], fallback: T): T {
  const match = choices.find((choice) => choice.toLowerCase() === value?.trim().toLowerCase());
  return match ?? fallback;
}

/** A query parameter whatever its case (`encryption`, or the original's `Encryption`). */
function queryValue(url: URL | undefined, name: string): string | undefined {
  if (!url) return undefined;
  for (const [key, value] of url.searchParams) if (key.toLowerCase() === name) return value;
  return undefined;
}

/**
 * Host, port and the encryption and auth choices of an email connection: the properties the
 * form writes (docs/connections.md), else the `smtp://host:port/?encryption=…&auth=…` service url.
 */
export function readSmtpSettings(connection: ConnectionUnderTest): SmtpSettings {
  const url = connection.url ? new URL(connection.url) : undefined;
  const host = connection.properties.host?.trim() || url?.hostname;
  if (!host) throw new Error('The email connection has no SMTP host');
  const rawPort = connection.properties.port?.trim() || url?.port || CONNECTION_DEFAULTS.emailPort;
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`The email connection's port '${rawPort}' is not a port number`);
  }
  const encryption = oneOf(
    connection.properties.encryptionMethod ?? queryValue(url, 'encryption'),
    EMAIL_ENCRYPTION_METHODS,
    CONNECTION_DEFAULTS.emailEncryption,
  );
  const auth = oneOf(
    connection.properties.authMethod ?? queryValue(url, 'auth'),
    EMAIL_AUTH_METHODS,
    CONNECTION_DEFAULTS.emailAuth,
  );
  return { host: host.replace(/^\[|\]$/g, ''), port, encryption, auth };
}

function loginData(connection: ConnectionUnderTest, auth: SmtpAuth): SMTPConnectionAuth {
  const user = connection.username ?? '';
  const pass = connection.password ?? '';
  switch (auth) {
    case 'Plain':
      return { user, pass, method: 'PLAIN' };
    case 'CRAMMD5':
      return { user, pass, method: 'CRAM-MD5' };
    case 'OAuth2':
      // The password field holds the access token (the form's hint: "password or hash (for OAuth2)").
      return { user, method: 'XOAUTH2', oauth2: new XOAuth2({ user, accessToken: pass }) };
    default:
      // Unknown: the first method the server offers (nodemailer prefers PLAIN, then LOGIN).
      return { user, pass };
  }
}

/**
 * Email (SMTP): connects, says EHLO, upgrades with STARTTLS when the server offers it (or
 * requires it for ExplicitTLS, or speaks TLS from the start for ImplicitTLS), and logs in
 * unless auth is None. Sends no mail: QUIT follows the login.
 */
export const testSmtpConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const settings = readSmtpSettings(connection);
  const implicit =
    settings.encryption === 'ImplicitTLS' || (settings.encryption === 'Auto' && settings.port === IMPLICIT_TLS_PORT);
  const client = new SMTPConnection({
    host: settings.host,
    port: settings.port,
    secure: implicit,
    ignoreTLS: settings.encryption === 'None',
    requireTLS: settings.encryption === 'ExplicitTLS',
    name: 'lookout',
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    socketCloseTimeout: 0,
    // A test of 127.0.0.1 or ::1 is a test like any other.
    allowInternalNetworkInterfaces: true,
    tls: {
      rejectUnauthorized: !connection.insecureTls,
      ...(connection.certificate?.includes('-----BEGIN CERTIFICATE-----') ? { ca: connection.certificate } : {}),
    },
  });
  const session = new Promise<void>((resolve, reject) => {
    client.once('error', reject);
    client.connect((connectError) => {
      if (connectError) return reject(connectError);
      if (settings.auth === 'None') return resolve();
      client.login(loginData(connection, settings.auth), (loginError) => (loginError ? reject(loginError) : resolve()));
    });
  });
  await untilAborted(signal, session, () => {
    client.removeAllListeners('error');
    // A late socket error after close has no one to tell.
    client.on('error', () => undefined);
    client.quit();
    client.close();
  });
};
