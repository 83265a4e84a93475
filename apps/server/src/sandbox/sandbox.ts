import { constants } from 'node:fs';
import { access, chmod, chown, lstat, mkdir, mkdtemp, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import {
  bubblewrapArgs,
  describeIsolation,
  isolationCandidates,
  refusedMessage,
  SANDBOX_HOME,
  SANDBOX_TOP_LEVEL,
  sandboxAccounts,
  sandboxEnvironment,
  settleIsolation,
  type Ids,
  type IsolationMode,
  type IsolationPlan,
  type ProbeAttempt,
  type TopLevelEntry,
  unprivilegedUserProblem,
} from './sandbox-fns.js';
import { runProcess, type CommandOutput } from './sandbox-process.js';

/**
 * Runs commands that people wrote (exec check scripts; playbook actions later) isolated from
 * Lookout: in bubblewrap, or as `nobody`, in a scratch folder removed afterwards, with a clean
 * environment, killed with everything they started when their time is up. `createSandbox`
 * probes once at start-up which isolation the host allows (ADR 0010).
 */

/** One command to run. */
export type SandboxCommand = {
  /** Program and arguments, e.g. `['bash', '-c', script]`; found on the sandbox's PATH. */
  argv: readonly [string, ...string[]];
  /** Values the command declares (a check's `env`); the server's own environment never goes in. */
  env: Readonly<Record<string, string>>;
  /** Aborting kills the command's whole process tree. */
  signal: AbortSignal;
  /** Output kept per stream; the rest is dropped and `truncated` set. Default 1 MiB. */
  maxOutputBytes?: number;
};

export type Sandbox = {
  readonly mode: IsolationMode;
  /** Words for the isolation, e.g. `a bubblewrap sandbox as uid 65534`. */
  readonly description: string;
  /**
   * Real paths of Lookout's own (its data directory) that nothing run for a user may read or
   * list; folder checks refuse them too.
   */
  readonly privatePaths: readonly string[];
  /** Runs the command isolated; throws {@link SandboxRefusedError} when scripts are refused here. */
  run(command: SandboxCommand): Promise<CommandOutput>;
};

/** Scripts cannot run on this server; the message says why and what would allow them. */
export class SandboxRefusedError extends Error {
  constructor(reason: string) {
    super(refusedMessage(reason));
    this.name = 'SandboxRefusedError';
  }
}

const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
const PROBE_TIMEOUT_MS = 10_000;

const ownIds = (): Ids => ({ uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 });

/** Where bwrap is, looking along the server's PATH, then in /usr/bin. */
export async function findBubblewrap(envPath = process.env.PATH ?? ''): Promise<string | undefined> {
  const dirs = [...envPath.split(path.delimiter).filter((dir) => path.isAbsolute(dir)), '/usr/bin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'bwrap');
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** /bin, /lib, ... as this host has them: symlinks into /usr, or folders. */
async function readTopLevel(): Promise<TopLevelEntry[]> {
  const entries: TopLevelEntry[] = [];
  for (const entry of SANDBOX_TOP_LEVEL) {
    try {
      const info = await lstat(entry);
      if (info.isSymbolicLink()) entries.push({ path: entry, symlinkTarget: await readlink(entry) });
      else if (info.isDirectory()) entries.push({ path: entry });
    } catch {
      // Not on this host.
    }
  }
  return entries;
}

/** The real path of each private path (a data directory not created yet counts as itself). */
async function resolvePrivatePaths(paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map((item) => realpath(path.resolve(item)).catch(() => path.resolve(item))));
}

/** A sandbox that refuses every command with `reason`; the default where none was set up. */
export function refusingSandbox(reason: string, privatePaths: readonly string[] = []): Sandbox {
  return {
    mode: 'refused',
    description: describeIsolation({ mode: 'refused', reason }),
    privatePaths,
    run: () => Promise.reject(new SandboxRefusedError(reason)),
  };
}

/**
 * A sandbox that runs commands with `plan`, without probing it first. `createSandbox` is what
 * a server uses; tests use this to exercise each plan the host allows.
 */
export async function sandboxWithPlan(
  plan: IsolationPlan,
  options: { privatePaths: readonly string[] },
): Promise<Sandbox> {
  const privatePaths = await resolvePrivatePaths(options.privatePaths);
  if (plan.mode === 'refused') return refusingSandbox(plan.reason, privatePaths);
  if (plan.mode === 'unprivileged-user') {
    for (const privatePath of privatePaths) {
      const info = await lstat(privatePath).catch(() => undefined);
      const problem = info && unprivilegedUserProblem(privatePath, info.mode);
      if (problem) return refusingSandbox(problem, privatePaths);
    }
  }
  const topLevel = plan.mode === 'bubblewrap' ? await readTopLevel() : [];
  const lang = process.env.LANG;
  // Who the command runs as outside any namespace, when not the server's user: it owns the
  // scratch folder. Who it is inside bubblewrap: the accounts file names it.
  const spawnAs = plan.mode === 'bubblewrap' || plan.mode === 'unprivileged-user' ? plan.spawnAs : undefined;
  const inside = plan.mode === 'bubblewrap' ? (plan.mapTo ?? spawnAs ?? ownIds()) : undefined;

  async function run(command: SandboxCommand): Promise<CommandOutput> {
    // Owned by the server's user and readable, so the sandbox user can bind the account files
    // but not change them.
    const runDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-sandbox-'));
    try {
      await chmod(runDir, 0o755);
      const scratch = path.join(runDir, 'home');
      await mkdir(scratch, { mode: 0o700 });
      if (spawnAs) await chown(scratch, spawnAs.uid, spawnAs.gid);
      const common = {
        env: {},
        cwd: scratch,
        signal: command.signal,
        maxOutputBytes: command.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      };
      if (plan.mode === 'bubblewrap') {
        const accounts = sandboxAccounts(inside ?? ownIds(), SANDBOX_HOME);
        const passwdFile = path.join(runDir, 'passwd');
        const groupFile = path.join(runDir, 'group');
        await writeFile(passwdFile, accounts.passwd, { mode: 0o644 });
        await writeFile(groupFile, accounts.group, { mode: 0o644 });
        const args = bubblewrapArgs({
          plan,
          topLevel,
          passwdFile,
          groupFile,
          scratchDir: scratch,
          privatePaths,
          env: sandboxEnvironment({ home: SANDBOX_HOME, lang, own: command.env }),
          command: command.argv,
        });
        return await runProcess({ ...common, file: plan.bwrapPath, args, spawnAs });
      }
      const [file, ...args] = command.argv;
      return await runProcess({
        ...common,
        file,
        args,
        env: sandboxEnvironment({ home: scratch, tmpDir: scratch, lang, own: command.env }),
        spawnAs,
      });
    } finally {
      await rm(runDir, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
    }
  }

  return { mode: plan.mode, description: describeIsolation(plan), privatePaths, run };
}

/** Runs `true` in the sandbox: undefined when it worked, else what went wrong. */
export async function probeSandbox(sandbox: Sandbox): Promise<string | undefined> {
  try {
    const output = await sandbox.run({ argv: ['true'], env: {}, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (output.exitCode === 0) return undefined;
    const said = output.stderr.trim().split('\n').slice(-1)[0];
    return said || `exit code ${output.exitCode ?? output.signal}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Finds the best isolation this host allows (bubblewrap as nobody, bubblewrap, nobody without
 * a sandbox; unisolated only with `allowUnsandboxed`), says which once in the log, and returns
 * the sandbox. `privatePaths` (the data directory) are never visible to what it runs.
 */
export async function createSandbox(options: {
  privatePaths: readonly string[];
  allowUnsandboxed: boolean;
  logger: Logger;
}): Promise<Sandbox> {
  const isRoot = process.getuid?.() === 0;
  const bwrapPath = await findBubblewrap();
  const attempts: ProbeAttempt[] = [];
  for (const plan of isolationCandidates({ isRoot, bwrapPath })) {
    const problem = await probeSandbox(await sandboxWithPlan(plan, options));
    attempts.push({ plan, problem });
    if (problem === undefined) break;
    options.logger.debug({ plan, problem }, 'This isolation for exec check scripts does not work here');
  }
  const settled = settleIsolation({ isRoot, bwrapPath, attempts, allowUnsandboxed: options.allowUnsandboxed });
  options.logger[settled.level]({ execIsolation: settled.plan.mode }, settled.message);
  return sandboxWithPlan(settled.plan, options);
}
