import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isolationCandidates, describeIsolation, type IsolationPlan } from '../src/sandbox/sandbox-fns.js';
import { findBubblewrap, probeSandbox, sandboxWithPlan, type Sandbox } from '../src/sandbox/sandbox.js';

/** One way of isolating scripts, and whether this machine can use it. */
export type SandboxCase = {
  name: string;
  plan: IsolationPlan;
  /** Present when the plan works here. */
  sandbox?: Sandbox;
  /** Why it does not work here, for the SKIPPED line. */
  unavailable?: string;
};

/** Names a plan for test titles: `bubblewrap as uid 65534`, `uid 65534 without a sandbox`, ... */
function caseName(plan: IsolationPlan): string {
  if (plan.mode === 'unsandboxed') return 'no isolation (opted in)';
  return describeIsolation(plan).replace(/^a /, '');
}

/**
 * Every isolation this kind of host may use, each with a sandbox when it works here: the
 * candidates start-up would probe (bubblewrap variants, nobody), whichever this machine has.
 * Tests run their cases over those that work and print SKIPPED for the others.
 */
export async function isolatingSandboxCases(privatePaths: readonly string[]): Promise<SandboxCase[]> {
  const isRoot = process.getuid?.() === 0;
  const bwrapPath = await findBubblewrap();
  const candidates = isolationCandidates({ isRoot, bwrapPath });
  const cases: SandboxCase[] = [];
  for (const plan of candidates) {
    const sandbox = await sandboxWithPlan(plan, { privatePaths });
    const problem = await probeSandbox(sandbox);
    cases.push(
      problem === undefined
        ? { name: caseName(plan), plan, sandbox }
        : { name: caseName(plan), plan, unavailable: problem },
    );
  }
  if (!bwrapPath) {
    cases.push({
      name: 'bubblewrap',
      plan: { mode: 'bubblewrap', bwrapPath: 'bwrap' },
      unavailable: 'bwrap is not installed (run scripts/ensure-test-tools.mjs)',
    });
  }
  if (!isRoot) {
    cases.push({
      name: 'uid 65534 without a sandbox',
      plan: { mode: 'unprivileged-user', spawnAs: { uid: 65534, gid: 65534 } },
      unavailable: 'the tests do not run as root, so scripts cannot run as another user',
    });
  }
  return cases;
}

/** Prints SKIPPED for each case this machine cannot run, with the reason. */
export function reportSkippedCases(cases: readonly SandboxCase[], what: string): void {
  for (const item of cases) {
    if (item.unavailable) console.warn(`SKIPPED ${what} in ${item.name}: ${item.unavailable}`);
  }
}

/** Secrets as Lookout keeps them in its data directory. */
export type FakeDataDir = {
  dir: string;
  secretKey: string;
  password: string;
  remove: () => Promise<void>;
};

/**
 * A data directory holding what Lookout writes there (postgres-credentials.json, secret-key,
 * admin-credentials), created with the loose modes an older install left (0755 and 0644) so
 * tests show what protectDataDir changes. `credentials` puts real database credentials in.
 */
export async function createFakeDataDir(
  credentials: { user: string; password: string } = { user: 'lookout', password: 'pg-password-not-to-leak' },
): Promise<FakeDataDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-data-'));
  const secretKey = 'secret-key-not-to-leak-0123456789abcdef';
  // As Lookout creates its data directory as root: the postgres account may pass, nobody may list.
  await chmod(dir, 0o711);
  await writeFile(path.join(dir, 'postgres-credentials.json'), JSON.stringify(credentials), { mode: 0o644 });
  await writeFile(path.join(dir, 'secret-key'), `${secretKey}\n`, { mode: 0o644 });
  await writeFile(path.join(dir, 'admin-credentials'), 'email: admin@lookout.local\npassword: admin-pass\n', {
    mode: 0o644,
  });
  return { dir, secretKey, password: credentials.password, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Pids whose command line contains `marker` (a unique `sleep` argument), to show none survived. */
export async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').join(' ');
      if (cmdline.includes(marker)) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Waits (briefly) until no process carries `marker`; returns the pids still there. */
export async function survivorsOf(marker: string, waitMs = 3000): Promise<number[]> {
  const until = Date.now() + waitMs;
  let left = await processesWith(marker);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = await processesWith(marker);
  }
  return left;
}
