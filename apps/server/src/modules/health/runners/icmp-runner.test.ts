import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));
const pingInstalled = ['/usr/bin/ping', '/bin/ping', '/usr/sbin/ping'].some((file) => existsSync(file));

describe('icmp runner with the system ping', () => {
  it('passes for 127.0.0.1 and fails on packet loss to an unroutable address', async () => {
    if (!pingInstalled) {
      console.warn('SKIPPED icmp runner test: ping is not installed (run scripts/ensure-test-tools.mjs)');
      return;
    }
    const ok = await runCheck(
      { type: 'icmp', check: { name: 'loopback', endpoint: '127.0.0.1', packetCount: 3, thresholdMillis: 500 } },
      { resolveSecret, timeoutMs: 10_000 },
    );
    if (!ok.pass && /not permitted/.test(ok.message)) {
      console.warn(`SKIPPED icmp runner test: ${ok.message}`);
      return;
    }
    expect(ok).toMatchObject({ pass: true });
    expect(ok.message).toMatch(/^3\/3 replies from 127\.0\.0\.1, average [\d.]+ ms$/);
    expect(ok.detail).toMatchObject({ transmitted: 3, received: 3, lossPercent: 0 });

    // 240.0.0.0/4 is reserved and never routed, so every probe is lost.
    const lost = await runCheck(
      { type: 'icmp', check: { name: 'reserved', endpoint: '240.0.0.1', packetCount: 2 } },
      { resolveSecret, timeoutMs: 10_000 },
    );
    expect(lost.pass).toBe(false);
    expect(lost.message).toMatch(/^240\.0\.0\.1: packet loss 100%, threshold 0% \(0\/\d replies\)$/);
  });

  it('fails with a clear reason for a host that does not resolve', async () => {
    if (!pingInstalled) {
      console.warn('SKIPPED icmp runner test: ping is not installed (run scripts/ensure-test-tools.mjs)');
      return;
    }
    expect(
      await runCheck(
        { type: 'icmp', check: { name: 'nowhere', endpoint: 'nowhere.invalid' } },
        { resolveSecret, timeoutMs: 10_000 },
      ),
    ).toMatchObject({ pass: false, message: 'could not resolve host nowhere.invalid' });
  });
});
