import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));
let listener: net.Server;
let port = 0;

beforeAll(async () => {
  listener = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => listener.close(resolve)));

describe('tcp runner against a local TCP listener', () => {
  it('passes when the port accepts a connection', async () => {
    const result = await runCheck(
      { type: 'tcp', check: { name: 'listener', endpoint: `127.0.0.1:${port}`, thresholdMillis: 1000 } },
      { resolveSecret, timeoutMs: 2000 },
    );
    expect(result.pass).toBe(true);
    expect(result.message).toMatch(new RegExp(`^connected to 127\\.0\\.0\\.1:${port} in [\\d.]+ ms$`));
  });

  it('fails with "connection refused" when nothing listens', async () => {
    const closed = await findFreePort();
    expect(
      await runCheck(
        { type: 'tcp', check: { name: 'closed', endpoint: `127.0.0.1:${closed}` } },
        { resolveSecret, timeoutMs: 2000 },
      ),
    ).toMatchObject({ pass: false, message: `could not connect to 127.0.0.1:${closed}: connection refused` });
  });

  it('fails when the host name does not resolve', async () => {
    const result = await runCheck(
      { type: 'tcp', check: { name: 'nowhere', endpoint: 'nowhere.invalid:80' } },
      { resolveSecret, timeoutMs: 5000 },
    );
    expect(result).toMatchObject({ pass: false });
    expect(result.message).toMatch(
      /^could not connect to nowhere\.invalid:80: (host not found|host name lookup failed)/,
    );
  });
});
