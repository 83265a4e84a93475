import type { ExecCheck } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeDataDir,
  isolatingSandboxCases,
  reportSkippedCases,
  survivorsOf,
  type FakeDataDir,
  type SandboxCase,
} from '../../../../test/sandbox-helpers.js';
import { protectDataDir } from '../../../sandbox/protect-data-dir.js';
import type { Sandbox } from '../../../sandbox/sandbox.js';
import { runCheck } from './runners.js';
import type { SecretResolver } from './runner-types.js';

const resolveSecret: SecretResolver = async (ref) => {
  if (ref.secretKeyRef?.name === 'deploy' && ref.secretKeyRef.key === 'token') return 't0ken';
  throw new Error('unknown secret');
};

let data: FakeDataDir;
let sandboxes: (SandboxCase & { sandbox: Sandbox })[] = [];

beforeAll(async () => {
  data = await createFakeDataDir();
  await protectDataDir(data.dir, pino({ level: 'silent' }));
  const cases = await isolatingSandboxCases([data.dir]);
  reportSkippedCases(cases, 'exec runner test');
  sandboxes = cases.filter((item): item is SandboxCase & { sandbox: Sandbox } => item.sandbox !== undefined);
  if (sandboxes.length === 0) console.warn('SKIPPED exec runner tests: no isolation for scripts on this machine');
});
afterAll(() => data?.remove());

/** Runs `body` with each isolation this machine has: exec checks behave alike in all. */
const inEachSandbox = async (
  body: (run: (check: ExecCheck, timeoutMs?: number) => ReturnType<typeof runCheck>, name: string) => Promise<void>,
) => {
  for (const { sandbox, name } of sandboxes) {
    await body(
      (check, timeoutMs = 10_000) => runCheck({ type: 'exec', check }, { resolveSecret, timeoutMs, sandbox }),
      name,
    );
  }
};

describe('exec runner with bash, in the sandbox', () => {
  it('passes on exit code 0 and shows the output', async () => {
    await inEachSandbox(async (run, name) => {
      const result = await run({ name: 'ok', script: 'echo "disk ok"; echo "42% used"' });
      expect(result, name).toMatchObject({ pass: true, message: 'disk ok\n42% used' });
      expect(result.detail, name).toMatchObject({ exitCode: 0, stdout: 'disk ok\n42% used\n', stderr: '' });
    });
  });

  it('fails on another exit code and quotes what the script said', async () => {
    await inEachSandbox(async (run, name) => {
      const result = await run({ name: 'fail', script: 'echo "checking"; echo "backup is missing" >&2; exit 3' });
      expect(result, name).toMatchObject({ pass: false, message: 'script exited with code 3: backup is missing' });
      expect(result.detail, name).toMatchObject({ exitCode: 3, stdout: 'checking\n', stderr: 'backup is missing\n' });
    });
  });

  it('lets a test expression judge the results instead of the exit code', async () => {
    await inEachSandbox(async (run, name) => {
      expect(
        await run({ name: 'grep', script: 'echo "no match"; exit 1', test: { expr: 'results.exitCode == 1' } }),
        name,
      ).toMatchObject({ pass: true });
      expect(
        await run({
          name: 'json',
          script: 'echo \'{"replicas": 2}\'',
          test: { expr: 'results.stdout.contains("\\"replicas\\": 3")' },
          display: { expr: '"replicas: " + results.stdout.trim()' },
        }),
        name,
      ).toMatchObject({
        pass: false,
        message: 'test `results.stdout.contains("\\"replicas\\": 3")` returned false; replicas: {"replicas": 2}',
      });
    });
  });

  it('passes env values, from secrets too, but not the server environment', async () => {
    process.env.LOOKOUT_TEST_SERVER_SECRET = 'do-not-leak';
    try {
      await inEachSandbox(async (run, name) => {
        const result = await run({
          name: 'env',
          script: 'echo "$TOKEN:$REGION:${LOOKOUT_TEST_SERVER_SECRET:-unset}"',
          env: [
            { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'deploy', key: 'token' } } },
            { name: 'REGION', value: 'eu-1' },
          ],
        });
        expect(result, name).toMatchObject({ pass: true, message: 't0ken:eu-1:unset' });
      });
    } finally {
      delete process.env.LOOKOUT_TEST_SERVER_SECRET;
    }
  });

  it('kills a script that outlives its timeout, children included', async () => {
    await inEachSandbox(async (run, name) => {
      const marker = `${800 + Math.floor(Math.random() * 99)}.${Date.now()}`;
      const result = await run({ name: 'slow', script: `sleep ${marker} & sleep ${marker}; echo never` }, 600);
      expect(result, name).toMatchObject({ pass: false, message: 'timed out after 600 ms' });
      expect(await survivorsOf(marker), name).toEqual([]);
    });
  });

  it("cannot read Lookout's credentials, and says nothing of them in its result", async () => {
    const script =
      `cat ${data.dir}/postgres-credentials.json; cat ${data.dir}/secret-key; ` +
      `PASSWORD=$(sed -e 's/.*"password":"\\([^"]*\\)".*/\\1/' ${data.dir}/postgres-credentials.json); echo "got:$PASSWORD"`;
    await inEachSandbox(async (run, name) => {
      const result = await run({ name: 'steal', script, test: { expr: 'results.stdout.contains("pg-password")' } });
      expect(result.pass, name).toBe(false);
      const everything = JSON.stringify(result);
      expect(everything, name).not.toContain(data.password);
      expect(everything, name).not.toContain(data.secretKey);
    });
  });
});

describe('exec runner without a sandbox', () => {
  it('refuses the script, saying why and how to allow it', async () => {
    const result = await runCheck(
      { type: 'exec', check: { name: 'ok', script: 'echo hi' } },
      { resolveSecret, timeoutMs: 5000 },
    );
    expect(result).toMatchObject({ pass: false });
    expect(result.message).toBe(
      'exec checks are off on this server: no sandbox was set up for this run. Install bubblewrap (bwrap) on the server, ' +
        "or set LOOKOUT_EXEC_UNSANDBOXED=true (--exec-unsandboxed true) to run scripts as the server's own user",
    );
  });
});
