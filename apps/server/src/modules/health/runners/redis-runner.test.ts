import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));
const addr = process.env.REDIS_URL ? new URL(process.env.REDIS_URL).host : '127.0.0.1:6379';

function reachable(hostPort: string): Promise<boolean> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('redis runner against Redis', () => {
  it('passes on PONG and fails on a missing database or a closed port', async () => {
    if (!(await reachable(addr))) {
      console.warn(`SKIPPED redis runner test: no Redis at ${addr} (set REDIS_URL)`);
      return;
    }
    const ok = await runCheck(
      { type: 'redis', check: { name: 'cache', addr, db: 1 } },
      { resolveSecret, timeoutMs: 5000 },
    );
    expect(ok.pass).toBe(true);
    expect(ok.message).toMatch(new RegExp(`^PONG from ${addr.replace(/\./g, '\\.')} \\(db 1\\) in [\\d.]+ ms$`));

    const missingDb = await runCheck(
      { type: 'redis', check: { name: 'cache', addr, db: 9999 } },
      { resolveSecret, timeoutMs: 5000 },
    );
    expect(missingDb.pass).toBe(false);
    expect(missingDb.message).toMatch(
      new RegExp(`^redis at ${addr.replace(/\./g, '\\.')}: database 9999 does not exist`),
    );

    const port = await findFreePort();
    expect(
      await runCheck(
        { type: 'redis', check: { name: 'cache', addr: `127.0.0.1:${port}` } },
        { resolveSecret, timeoutMs: 5000 },
      ),
    ).toMatchObject({ pass: false, message: `could not connect to redis at 127.0.0.1:${port}: connection refused` });
  });
});
