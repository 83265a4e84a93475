import mysql, { type Connection } from 'mysql2/promise';
import type { ConnectionTester } from './tester.js';
import { messageOf, requireUrl, urlWithCredentials, whenAborted } from './tester-fns.js';

/**
 * MySQL and MariaDB: connects with the url (mysql:// or mariadb://, its user and password or
 * the connection's) and runs `SELECT 1`. Rejects with the server's message (`Access denied for
 * user 'root'@'localhost' (using password: YES)`, `Unknown database 'x'`) or the network error.
 */
export const testMysqlConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const url = urlWithCredentials(requireUrl(connection), connection);
  if (!/^(mysql|mariadb):$/.test(url.protocol)) {
    throw new Error(`A mysql connection's URL starts with mysql:// or mariadb://, not ${url.protocol}//`);
  }
  // mysql2 reads mysql:// URLs; MariaDB speaks the same protocol.
  const uri = url.toString().replace(/^mariadb:/, 'mysql:');
  let client: Connection | undefined;
  const onAbort = () => client?.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([
      (async () => {
        client = await mysql.createConnection({ uri, connectTimeout: timeoutMs });
        client.on('error', () => undefined);
        // Given up on while it connected: close it now rather than leave it open.
        if (signal.aborted) client.destroy();
        await client.query({ sql: 'SELECT 1', timeout: timeoutMs });
      })(),
      whenAborted(signal),
    ]);
  } catch (error) {
    throw new Error(messageOf(error));
  } finally {
    signal.removeEventListener('abort', onAbort);
    const opened = client as Connection | undefined;
    await opened?.end().catch(() => opened.destroy());
  }
};
