import { Redis } from 'ioredis';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { messageOf, requireUrl, whenAborted } from './tester-fns.js';

export type RedisTarget = {
  host: string;
  port: number;
  tls: boolean;
  db: number;
  username?: string;
  password?: string;
};

/**
 * Where a redis connection points: `redis://[user:password@]host[:port][/db]`, `rediss://…`
 * (TLS) or `host:port`; the database from the form's `db` property, else the url's path; the
 * user and password from the url, else the connection's.
 */
export function redisTarget(connection: ConnectionUnderTest): RedisTarget {
  const text = requireUrl(connection);
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `redis://${text}`);
  } catch {
    throw new Error(`'${text.replace(/:[^:@/]*@/, ':***@')}' is not a redis URL; write redis://host:6379`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`A redis connection's URL starts with redis:// or rediss://, not ${url.protocol}//`);
  }
  const dbText = connection.properties.db?.trim() || url.pathname.replace(/^\//, '') || '0';
  const db = Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new Error(`The redis database '${dbText}' is not a number`);
  const username = url.username ? decodeURIComponent(url.username) : connection.username;
  const password = url.password ? decodeURIComponent(url.password) : connection.password;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : 6379,
    tls: url.protocol === 'rediss:',
    db,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
  };
}

/**
 * Redis: connects (AUTH with the user and password when set), SELECTs the database and sends
 * PING. Rejects with the server's answer (`WRONGPASS invalid username-password pair…`,
 * `ERR DB index is out of range`) or the network error.
 */
export const testRedisConnection: ConnectionTester = async (connection, { signal, timeoutMs }) => {
  const target = redisTarget(connection);
  const client = new Redis({
    host: target.host,
    port: target.port,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: { rejectUnauthorized: !connection.insecureTls, servername: target.host } } : {}),
    connectTimeout: timeoutMs,
    // One attempt: a test answers what happened now, not after reconnecting.
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableReadyCheck: false,
  });
  // The socket's own error (ECONNREFUSED, …) arrives as an event; connect() then only says
  // "Connection is closed", so the event's error is the one to report.
  let socketError: unknown;
  client.on('error', (error) => (socketError = error));
  try {
    await Promise.race([
      (async () => {
        try {
          await client.connect();
        } catch (error) {
          throw socketError ?? error;
        }
        if (target.db !== 0) await client.select(target.db);
        const answer = await client.ping();
        if (answer !== 'PONG') throw new Error(`redis answered ${answer} to PING`);
      })(),
      whenAborted(signal),
    ]);
  } catch (error) {
    throw new Error(messageOf(error));
  } finally {
    client.disconnect();
  }
};
