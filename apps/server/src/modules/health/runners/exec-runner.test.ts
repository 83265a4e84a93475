import type { ExecCheck } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { runCheck } from './runners.js';
import type { SecretResolver } from './runner-types.js';

const resolveSecret: SecretResolver = async (ref) => {
  if (ref.secretKeyRef?.name === 'deploy' && ref.secretKeyRef.key === 'token') return 't0ken';
  throw new Error('unknown secret');
};
const run = (check: ExecCheck, timeoutMs = 5000) => runCheck({ type: 'exec', check }, { resolveSecret, timeoutMs });

describe('exec runner with bash', () => {
  it('passes on exit code 0 and shows the output', async () => {
    const result = await run({ name: 'ok', script: 'echo "disk ok"; echo "42% used"' });
    expect(result).toMatchObject({ pass: true, message: 'disk ok\n42% used' });
    expect(result.detail).toMatchObject({ exitCode: 0, stdout: 'disk ok\n42% used\n', stderr: '' });
  });

  it('fails on another exit code and quotes what the script said', async () => {
    const result = await run({ name: 'fail', script: 'echo "checking"; echo "backup is missing" >&2; exit 3' });
    expect(result).toMatchObject({ pass: false, message: 'script exited with code 3: backup is missing' });
    expect(result.detail).toMatchObject({ exitCode: 3, stdout: 'checking\n', stderr: 'backup is missing\n' });
  });

  it('lets a test expression judge the results instead of the exit code', async () => {
    expect(
      await run({ name: 'grep', script: 'echo "no match"; exit 1', test: { expr: 'results.exitCode == 1' } }),
    ).toMatchObject({ pass: true });
    expect(
      await run({
        name: 'json',
        script: 'echo \'{"replicas": 2}\'',
        test: { expr: 'results.stdout.contains("\\"replicas\\": 3")' },
        display: { expr: '"replicas: " + results.stdout.trim()' },
      }),
    ).toMatchObject({
      pass: false,
      message: 'test `results.stdout.contains("\\"replicas\\": 3")` returned false; replicas: {"replicas": 2}',
    });
  });

  it('passes env values, from secrets too, but not the server environment', async () => {
    process.env.LOOKOUT_TEST_SERVER_SECRET = 'do-not-leak';
    const result = await run({
      name: 'env',
      script: 'echo "$TOKEN:${LOOKOUT_TEST_SERVER_SECRET:-unset}"',
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'deploy', key: 'token' } } }],
    });
    delete process.env.LOOKOUT_TEST_SERVER_SECRET;
    expect(result).toMatchObject({ pass: true, message: 't0ken:unset' });
  });

  it('kills a script that outlives its timeout, children included', async () => {
    const started = Date.now();
    const result = await run({ name: 'slow', script: 'sleep 20 & sleep 20; echo never' }, 400);
    expect(result).toMatchObject({ pass: false, message: 'timed out after 400 ms' });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
