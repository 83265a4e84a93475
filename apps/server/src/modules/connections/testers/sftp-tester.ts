import { CONNECTION_DEFAULTS } from '@lookout/contracts';
import { Client, type AnyAuthMethod, type AuthenticationType, type NextAuthHandler } from 'ssh2';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { untilAborted } from './abortable.js';

export type SftpSettings = { host: string; port: number; path: string };

/**
 * Host, port and the folder to list of an SFTP connection. The form stores the host in `url`
 * and the port in `properties.port`; an `sftp://user@host:port/path` URL (the original's shape)
 * is read too. The folder is `properties.path`, the URL's path, or the user's home.
 */
export function readSftpSettings(connection: ConnectionUnderTest): SftpSettings {
  const raw = connection.url?.trim();
  if (!raw) throw new Error('The SFTP connection has no host');
  const url = new URL(raw.includes('://') ? raw : `sftp://${raw}`);
  if (url.protocol !== 'sftp:' && url.protocol !== 'ssh:') {
    throw new Error(`The SFTP connection's host '${raw}' is neither a host name nor an sftp:// URL`);
  }
  const rawPort = connection.properties.port?.trim() || url.port || CONNECTION_DEFAULTS.sftpPort;
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`The SFTP connection's port '${rawPort}' is not a port number`);
  }
  const urlPath = decodeURIComponent(url.pathname);
  const path = connection.properties.path?.trim() || (urlPath && urlPath !== '/' ? urlPath : '.');
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, path };
}

/**
 * The logins to try, in order: the private key (the certificate field) when there is one, then
 * the password. Each is offered only while the server still lists its method.
 */
function authHandler(connection: ConnectionUnderTest, username: string, refused: (methods: string[]) => void) {
  const attempts: AnyAuthMethod[] = [];
  if (connection.certificate?.includes('PRIVATE KEY')) {
    attempts.push({ type: 'publickey', username, key: connection.certificate });
  }
  if (connection.password) attempts.push({ type: 'password', username, password: connection.password });
  return (methodsLeft: AuthenticationType[] | null, _partial: boolean | null, next: NextAuthHandler) => {
    // The first call comes before the server has named any method.
    const allowed = methodsLeft ?? attempts.map((attempt) => attempt.type);
    const index = attempts.findIndex((attempt) => allowed.includes(attempt.type));
    if (index === -1) {
      refused(methodsLeft ?? []);
      // false ends the authentication; ssh2 then fails the connection.
      return (next as (auth: AnyAuthMethod | false) => void)(false);
    }
    next(attempts.splice(0, index + 1).at(-1)!);
  };
}

/**
 * SFTP: an SSH login (key from the certificate field, then password), the sftp subsystem, and
 * a listing of the configured folder or the home folder. The server's host key is not pinned:
 * the connection has no field for it, as in the original.
 */
export const testSftpConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const settings = readSftpSettings(connection);
  const username = connection.username?.trim();
  if (!username) throw new Error('The SFTP connection has no username');
  if (!connection.password && !connection.certificate) {
    throw new Error('The SFTP connection has neither a password nor a private key');
  }
  const client = new Client();
  let refusedMethods: string[] | undefined;
  const session = new Promise<void>((resolve, reject) => {
    client.once('error', (error) => {
      if (refusedMethods === undefined) return reject(error);
      const offered = refusedMethods.length > 0 ? ` (the server accepts: ${refusedMethods.join(', ')})` : '';
      reject(new Error(`SSH authentication failed for '${username}'${offered}`));
    });
    client.once('close', () => reject(new Error('The SSH server closed the connection')));
    client.once('ready', () => {
      client.sftp((sftpError, sftp) => {
        if (sftpError) return reject(new Error(`The SSH server refused the sftp subsystem: ${sftpError.message}`));
        sftp.readdir(settings.path, (listError) => {
          if (listError) return reject(new Error(`SFTP could not list '${settings.path}': ${listError.message}`));
          resolve();
        });
      });
    });
    client.connect({
      host: settings.host,
      port: settings.port,
      username,
      readyTimeout: timeoutMs,
      authHandler: authHandler(connection, username, (methods) => (refusedMethods = methods)),
    });
  });
  await untilAborted(signal, session, () => {
    client.removeAllListeners('error');
    client.on('error', () => undefined);
    client.destroy();
  });
};
