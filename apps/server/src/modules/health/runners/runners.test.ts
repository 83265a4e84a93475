import { CANARY_CHECK_TYPES } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { CHECK_RUNNERS, runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));

describe('runner registry', () => {
  it('has a runner for every check type a canary can hold', () => {
    for (const type of CANARY_CHECK_TYPES) expect(CHECK_RUNNERS[type].type).toBe(type);
  });

  it('returns a failed result instead of throwing when a check cannot run', async () => {
    expect(
      await runCheck(
        { type: 'http', check: { name: 'ntlm', url: 'http://127.0.0.1:1/', ntlm: true } },
        { resolveSecret },
      ),
    ).toMatchObject({ pass: false, message: 'NTLM authentication is not supported; use basic authentication' });
    expect(
      await runCheck(
        {
          type: 'redis',
          check: {
            name: 'secret',
            addr: '127.0.0.1:1',
            password: { valueFrom: { secretKeyRef: { name: 'r', key: 'p' } } },
          },
        },
        { resolveSecret },
      ),
    ).toMatchObject({
      pass: false,
      message: "could not read the password from secret 'r' key 'p' (no secrets in this test)",
    });
  });

  it('applies the timeout and the caller signal to every runner', async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    expect(
      await runCheck(
        { type: 'exec', check: { name: 'sleep', script: 'sleep 5' } },
        { resolveSecret, signal: controller.signal },
      ),
    ).toMatchObject({ pass: false, message: 'cancelled before it finished: shutting down' });
  });
});
