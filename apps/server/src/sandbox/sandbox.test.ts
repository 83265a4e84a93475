import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeDataDir,
  isolatingSandboxCases,
  reportSkippedCases,
  survivorsOf,
  type FakeDataDir,
  type SandboxCase,
} from '../../test/sandbox-helpers.js';
import { protectDataDir } from './protect-data-dir.js';
import { createSandbox, refusingSandbox, SandboxRefusedError, sandboxWithPlan, type Sandbox } from './sandbox.js';

const silent = pino({ level: 'silent' });
let data: FakeDataDir;
let cases: SandboxCase[];
let unsandboxed: Sandbox;

beforeAll(async () => {
  data = await createFakeDataDir();
  await protectDataDir(data.dir, silent);
  cases = await isolatingSandboxCases([data.dir]);
  reportSkippedCases(cases, 'sandbox test');
  unsandboxed = await sandboxWithPlan({ mode: 'unsandboxed' }, { privatePaths: [data.dir] });
});
afterAll(() => data?.remove());

const run = (sandbox: Sandbox, script: string, env: Record<string, string> = {}, timeoutMs = 20_000) =>
  sandbox.run({ argv: ['bash', '-c', script], env, signal: AbortSignal.timeout(timeoutMs) });

/** Runs `body` for every isolation this machine has (the others were reported SKIPPED). */
const eachIsolation = async (body: (item: SandboxCase & { sandbox: Sandbox }) => Promise<void>) => {
  const usable = cases.filter((item): item is SandboxCase & { sandbox: Sandbox } => item.sandbox !== undefined);
  for (const item of usable) await body(item);
};

describe('running as nobody without a sandbox', () => {
  it('is refused while others can list the data directory, which Lookout does not chmod', async () => {
    const listable = await createFakeDataDir();
    try {
      await chmod(listable.dir, 0o755);
      const sandbox = await sandboxWithPlan(
        { mode: 'unprivileged-user', spawnAs: { uid: 65534, gid: 65534 } },
        { privatePaths: [listable.dir] },
      );
      expect(sandbox.mode).toBe('refused');
      await expect(run(sandbox, 'ls')).rejects.toThrow(/other users can list .* make it unlistable/);
    } finally {
      await listable.remove();
    }
  });
});

describe('scripts in the sandbox', () => {
  it("run as before: output, exit code, the check's env, a scratch home they may write", async () => {
    await eachIsolation(async ({ name, sandbox }) => {
      const output = await run(
        sandbox,
        'echo "hello $GREETING"; touch "$HOME/written" && echo "home ok"; [ "$PWD" = "$HOME" ] && echo "in home"; ' +
          'echo oops >&2; exit 3',
        { GREETING: 'world' },
      );
      expect(output, name).toMatchObject({ exitCode: 3, stdout: 'hello world\nhome ok\nin home\n', stderr: 'oops\n' });
    });
  });

  it('see nothing of the server environment and do not run as root', async () => {
    process.env.LOOKOUT_TEST_SERVER_SECRET = 'server-env-not-to-leak';
    try {
      await eachIsolation(async ({ name, sandbox }) => {
        const output = await run(sandbox, 'env; id -u');
        expect(output.stdout, name).not.toContain('server-env-not-to-leak');
        expect(output.stdout, name).not.toContain('DATABASE_URL');
        // A root server runs scripts as nobody; any other server as itself, never as root.
        const expected = process.getuid?.() === 0 ? '65534' : String(process.getuid?.());
        expect(output.stdout.trim().split('\n').at(-1), name).toBe(expected);
      });
    } finally {
      delete process.env.LOOKOUT_TEST_SERVER_SECRET;
    }
  });

  it("cannot list or read Lookout's data directory", async () => {
    const attack =
      `ls -la ${data.dir}; cat ${data.dir}/postgres-credentials.json ${data.dir}/secret-key ${data.dir}/admin-credentials; ` +
      `grep -r password ${data.dir}`;
    await eachIsolation(async ({ name, sandbox }) => {
      const output = await run(sandbox, attack);
      expect(output.exitCode, name).not.toBe(0);
      const seen = output.stdout + output.stderr;
      expect(seen, name).not.toContain(data.secretKey);
      expect(seen, name).not.toContain(data.password);
      expect(seen, name).not.toContain('admin-pass');
      expect(output.stdout, name).not.toContain('secret-key');
    });
    // The same attack without isolation reads them: the test above would notice a regression.
    const control = await run(unsandboxed, attack);
    expect(control.stdout).toContain(data.secretKey);
  });

  it('cannot see a data directory that lies inside a folder the sandbox shows (covered by an empty one)', async () => {
    let underUsr: string;
    try {
      underUsr = await mkdtemp('/usr/local/share/lookout-data-');
    } catch (error) {
      console.warn(`SKIPPED data directory under /usr: cannot create one here (${(error as Error).message})`);
      return;
    }
    try {
      await writeFile(path.join(underUsr, 'secret-key'), 'usr-secret-not-to-leak\n', { mode: 0o644 });
      const bubblewraps = cases.filter((item) => item.plan.mode === 'bubblewrap' && item.sandbox);
      if (bubblewraps.length === 0) console.warn('SKIPPED data directory under /usr: no bubblewrap here');
      for (const item of bubblewraps) {
        const sandbox = await sandboxWithPlan(item.plan, { privatePaths: [underUsr] });
        const output = await run(
          sandbox,
          `ls ${underUsr}; cat ${underUsr}/secret-key; ls /usr/local/share >/dev/null && echo usr-visible`,
        );
        expect(output.stdout, item.name).toBe('usr-visible\n');
        expect(output.stderr, item.name).not.toContain('usr-secret-not-to-leak');
      }
    } finally {
      await rm(underUsr, { recursive: true, force: true });
    }
  });

  it('leave no scratch folder behind', async () => {
    await eachIsolation(async ({ name, sandbox }) => {
      const marker = `marker-${randomUUID()}`;
      const output = await run(sandbox, `echo kept > ${marker} && ls`);
      expect(output.stdout, name).toBe(`${marker}\n`);
      const runs = (await readdir(os.tmpdir())).filter((entry) => entry.startsWith('lookout-sandbox-'));
      for (const dir of runs) expect(existsSync(path.join(os.tmpdir(), dir, 'home', marker)), name).toBe(false);
    });
  });

  it('are killed with every process they started when their time is up', async () => {
    await eachIsolation(async ({ name, plan, sandbox }) => {
      const marker = `${900 + Math.floor(Math.random() * 99)}.${Date.now()}`;
      // A background child, an orphan left in the session, and (in bubblewrap) one that left
      // the session altogether: bubblewrap's pid namespace takes all of them. Without a
      // sandbox, a process that both leaves the session and is re-parented escapes (ADR 0010).
      const escapee = plan.mode === 'bubblewrap' ? `(setsid sleep ${marker} &);` : '';
      const script = `sleep ${marker} & (sleep ${marker} &); ${escapee} sleep ${marker}; echo never`;
      const output = await run(sandbox, script, {}, 1500);
      expect(output.stdout, name).not.toContain('never');
      expect(await survivorsOf(marker), name).toEqual([]);
    });
  });

  it('keep at most the output they were allowed', async () => {
    await eachIsolation(async ({ name, sandbox }) => {
      const output = await sandbox.run({
        argv: ['bash', '-c', 'head -c 100000 /dev/zero | tr "\\0" x'],
        env: {},
        signal: AbortSignal.timeout(20_000),
        maxOutputBytes: 1000,
      });
      expect(output.stdout.length, name).toBe(1000);
      expect(output.truncated, name).toBe(true);
    });
  });
});

describe('choosing the isolation at start-up', () => {
  it('logs once which isolation scripts get, and uses the best this machine has', async () => {
    const lines: { level: number; msg: string; execIsolation?: string }[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const sandbox = await createSandbox({ privatePaths: [data.dir], allowUnsandboxed: false, logger });
    expect(lines).toHaveLength(1);
    const best = cases.find((item) => item.sandbox);
    expect(sandbox.mode).toBe(best?.plan.mode ?? 'refused');
    expect(lines[0]?.execIsolation).toBe(sandbox.mode);
    if (sandbox.mode === 'bubblewrap') expect(lines[0]?.level).toBe(30);
    else expect(lines[0]?.level).toBe(40);
  });

  it('refuses scripts with a message that says why and names the setting', async () => {
    const refusing = refusingSandbox('bubblewrap (bwrap) is not installed, and the server does not run as root');
    const attempt = run(refusing, 'echo hi');
    await expect(attempt).rejects.toBeInstanceOf(SandboxRefusedError);
    await expect(attempt).rejects.toThrow(/bubblewrap \(bwrap\) is not installed.*LOOKOUT_EXEC_UNSANDBOXED=true/);
  });
});
