import pg from 'pg';
import type { ConnectionTester } from './tester.js';
import { messageOf, requireUrl, urlWithCredentials, whenAborted } from './tester-fns.js';

/**
 * PostgreSQL: connects with the url (its user and password, or the connection's) and runs
 * `SELECT 1`. Rejects with the server's message (`password authentication failed for user …`,
 * `database "x" does not exist`) or the network error. TLS follows the url's `sslmode`.
 */
export const testPostgresConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const url = urlWithCredentials(requireUrl(connection), connection);
  if (!/^postgres(ql)?:$/.test(url.protocol)) {
    throw new Error(`A postgres connection's URL starts with postgres://, not ${url.protocol}//`);
  }
  const client = new pg.Client({
    connectionString: url.toString(),
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    application_name: 'lookout-connection-test',
  });
  // A socket error after the answer must not crash the process.
  client.on('error', () => undefined);
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.query('SELECT 1');
      })(),
      whenAborted(signal),
    ]);
  } catch (error) {
    throw new Error(messageOf(error));
  } finally {
    await client.end().catch(() => undefined);
  }
};
