import { Redis } from 'ioredis';
import { splitHostPort, type RedisCheck } from '@lookout/contracts';
import { CheckFailure, resolveOptionalValue, runProbe } from './runner-harness.js';
import { describeNetworkError, errorCode, errorText, formatMillis } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

/** Redis' own errors (`WRONGPASS ...`, `ERR DB index is out of range`) in words. */
function redisReason(error: unknown, db: number): string {
  const code = errorCode(error);
  if (code && /^E[A-Z]+$/.test(code) && code !== 'ERR') return describeNetworkError(error);
  const text = errorText(error);
  if (/WRONGPASS|NOAUTH|invalid password|invalid username/i.test(text)) return `authentication failed: ${text}`;
  if (/DB index is out of range/i.test(text)) return `database ${db} does not exist: ${text}`;
  return text;
}

async function probe(check: RedisCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  // A check that names a connection has its addr filled from it before it runs (runners.ts).
  const addr = check.addr ?? '';
  const target = splitHostPort(addr);
  if (!target) throw new CheckFailure(`addr '${addr}' is not host:port`);
  const username = await resolveOptionalValue(check.username, context, 'the username');
  const password = await resolveOptionalValue(check.password, context, 'the password');
  const db = check.db ?? 0;
  const client = new Redis({
    host: target.host,
    port: target.port,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    connectTimeout: context.timeoutMs,
    // One attempt per run: the scheduler retries on the next run, and a reconnect loop here
    // would hide an outage behind the timeout.
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableReadyCheck: false,
  });
  // The socket's own error (ECONNREFUSED, ...) arrives as an event, while connect() only
  // rejects with "Connection is closed", so keep the event's error to say what happened.
  let socketError: unknown;
  client.on('error', (error) => (socketError = error));
  const onAbort = () => client.disconnect();
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const started = performance.now();
    try {
      await client.connect();
    } catch (error) {
      const cause = socketError ?? error;
      throw new CheckFailure(`could not connect to redis at ${addr}: ${redisReason(cause, db)}`, {
        error: errorText(cause),
      });
    }
    // SELECT is sent here rather than through ioredis' `db` option, which drops a failed SELECT
    // silently and would report a missing database as healthy.
    if (db !== 0) {
      try {
        await client.select(db);
      } catch (error) {
        throw new CheckFailure(`redis at ${addr}: ${redisReason(error, db)}`, { error: errorText(error) });
      }
    }
    let reply: string;
    try {
      reply = await client.ping();
    } catch (error) {
      throw new CheckFailure(`redis at ${addr} did not answer PING: ${redisReason(error, db)}`, {
        error: errorText(error),
      });
    }
    const elapsedMs = performance.now() - started;
    const detail = { addr, db, reply };
    if (reply !== 'PONG') {
      return { pass: false, message: `redis at ${addr} answered PING with '${reply}'`, detail };
    }
    return {
      pass: true,
      message: `PONG from ${addr} (db ${db}) in ${formatMillis(elapsedMs)}`,
      detail,
      durationMs: Math.round(elapsedMs),
    };
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    client.disconnect();
  }
}

/** redis checks: connect to `addr`, select `db`, authenticate when asked, and PING. */
export const redisRunner: CheckRunner<'redis'> = {
  type: 'redis',
  run: (check, context) => runProbe({}, context, () => probe(check, context)),
};
