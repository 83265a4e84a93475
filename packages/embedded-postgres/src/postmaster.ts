import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, realpath, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { RunAs } from './postgres-user.js';
import type { PostgresRuntime } from './postgres-runtime.js';
import { commandLineOf, isAlive, parentOf } from './process-info.js';

/** How long a fast shutdown may take before PostgreSQL is told to stop at once. */
const FAST_SHUTDOWN_MS = 60_000;
/** How long start-up (crash recovery included) may take. */
const START_TIMEOUT_MS = 5 * 60_000;
const POLL_MS = 100;

/**
 * The environment PostgreSQL's programs get: what locates programs and sets locale and time
 * zone, never Lookout's own settings (passwords, keys, DATABASE_URL), which the postgres
 * account could otherwise read from /proc. Messages stay in English so the log reads the same
 * everywhere.
 */
function postgresEnvironment(): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'TZ', 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) kept[name] = value;
  }
  return { ...kept, LC_MESSAGES: 'C' };
}

function spawnOptions(runAs: RunAs) {
  return { cwd: '/', env: postgresEnvironment(), ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) };
}

/** Keeps the last lines a program printed, for the message when it fails. */
function tail(child: ChildProcess, onLine: (line: string) => void): () => string {
  const lines: string[] = [];
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) {
      if (!line.trim()) continue;
      onLine(line.trim());
      lines.push(line.trim());
      if (lines.length > 20) lines.shift();
    }
  });
  return () => lines.join('\n');
}

/**
 * `initdb` for a new cluster: UTF-8, password authentication, `user` as the superuser. The
 * password reaches initdb in a file only the account running it can read, removed right after.
 */
export async function initCluster(options: {
  runtime: PostgresRuntime;
  clusterDir: string;
  runAs: RunAs;
  user: string;
  password: string;
  logger: Logger;
}): Promise<void> {
  const { runtime, clusterDir, runAs, logger } = options;
  // Beside the cluster: the account running initdb can enter that folder (the system's
  // temporary folder may be private, e.g. TMPDIR under root's home).
  const secretDir = await mkdtemp(path.join(path.dirname(clusterDir), '.lookout-initdb-'));
  const passwordFile = path.join(secretDir, 'password');
  try {
    await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 });
    if (runAs) {
      await chown(secretDir, runAs.uid, runAs.gid);
      await chown(passwordFile, runAs.uid, runAs.gid);
    }
    const child = spawn(
      runtime.initdb,
      [
        `--pgdata=${clusterDir}`,
        '--auth=scram-sha-256',
        `--username=${options.user}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--lc-messages=C',
      ],
      { ...spawnOptions(runAs), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const output = tail(child, (line) => logger.debug({ source: 'initdb' }, line));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb failed (exit code ${code}): ${output()}`);
  } finally {
    await rm(secretDir, { recursive: true, force: true });
  }
}

/** What PostgreSQL's lock file says: the postmaster's pid, its port, and whether it is ready. */
export type PostmasterPid = { pid: number; port?: number; status?: string };

export async function readPostmasterPid(clusterDir: string): Promise<PostmasterPid | undefined> {
  const file = path.join(clusterDir, 'postmaster.pid');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  // Lines: pid, data directory, start time, port, socket directory, listen address, shared memory key, status.
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const port = Number(lines[3]);
  return {
    pid,
    ...(Number.isInteger(port) && port > 0 ? { port } : {}),
    ...(lines[7] ? { status: lines[7].trim() } : {}),
  };
}

export type Postmaster = {
  pid: number;
  /** Fast shutdown (sessions end, a checkpoint is written), then waits for the process to end. */
  stop: () => Promise<void>;
};

/**
 * Starts the PostgreSQL server as a session of its own (`detached`): Ctrl-C in a terminal
 * signals the whole foreground process group, and PostgreSQL must not stop before Lookout has
 * closed its connections; Lookout stops it last. If Lookout ends without stopping it
 * (an uncaught error), the exit hook asks it to stop; only SIGKILL leaves it running, and
 * the next start stops that orphan (stopOrphanedPostmaster).
 */
export async function startPostmaster(options: {
  runtime: PostgresRuntime;
  clusterDir: string;
  runAs: RunAs;
  port: number;
  flags: string[];
  logger: Logger;
}): Promise<Postmaster> {
  const { clusterDir, logger } = options;
  const child = spawn(options.runtime.postgres, ['-D', clusterDir, '-p', String(options.port), ...options.flags], {
    ...spawnOptions(options.runAs),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output = tail(child, (line) => logger.debug({ source: 'postgres' }, line));
  let ready = false;
  let stopping = false;
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      process.removeListener('exit', stopOnExit);
      if (!stopping && ready) logger.error({ code, signal }, 'The embedded PostgreSQL ended unexpectedly');
      resolve();
    });
  });
  const stopOnExit = () => {
    if (!exited) child.kill('SIGINT');
  };
  process.on('exit', stopOnExit);
  // The server runs on after a `lookout migrate` that forgot to stop it only until that exits.
  child.unref();
  (child.stderr as { unref?: () => void } | null)?.unref?.();

  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  await spawned;
  const pid = child.pid as number;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!ready) {
    if (exited) throw new Error(`PostgreSQL exited while starting: ${output() || 'it printed nothing'}`);
    const lock = await readPostmasterPid(clusterDir);
    ready = lock?.pid === pid && lock.status === 'ready';
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGQUIT');
      throw new Error(`PostgreSQL did not become ready within ${START_TIMEOUT_MS / 1000} s: ${output()}`);
    }
    await delay(POLL_MS);
  }

  let stopped: Promise<void> | undefined;
  return {
    pid,
    stop: () => {
      stopped ??= (async () => {
        stopping = true;
        if (exited) return;
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGQUIT'), FAST_SHUTDOWN_MS);
        await exit;
        clearTimeout(timer);
      })();
      return stopped;
    },
  };
}

/**
 * A previous Lookout that was killed (SIGKILL, the OOM killer) leaves its PostgreSQL running
 * without a parent; it holds postmaster.pid, so a new server could not start. When the
 * lock's recorded owner is dead (or, with no lock, the server was handed to init), that
 * orphan is stopped with a fast shutdown, which loses nothing committed. A server some live
 * process still owns is left alone and reported.
 */
export async function stopOrphanedPostmaster(options: {
  clusterDir: string;
  ownerEnded: boolean;
  logger: Logger;
}): Promise<void> {
  const { clusterDir, logger } = options;
  const lock = await readPostmasterPid(clusterDir);
  if (!lock || !isAlive(lock.pid)) return; // nothing running; PostgreSQL clears a stale file itself
  const holder = await classifyHolder(lock.pid, clusterDir);
  if (holder === 'unrelated') {
    // The pid went to a program that is no PostgreSQL at all (after a reboot, in a new
    // container): the file is stale, but PostgreSQL would take that process for a server.
    await unlink(path.join(clusterDir, 'postmaster.pid'));
    logger.info({ pid: lock.pid }, 'Removed a stale postmaster.pid naming a process that is not PostgreSQL');
    return;
  }
  if (holder === 'other-postgres') {
    throw new Error(
      `postmaster.pid in ${clusterDir} names PostgreSQL process ${lock.pid}, which does not run this cluster; ` +
        `if no server uses ${clusterDir}, remove ${path.join(clusterDir, 'postmaster.pid')} and start again.`,
    );
  }
  const orphan = options.ownerEnded || parentOf(lock.pid) === 1;
  if (!orphan) {
    throw new Error(
      `PostgreSQL (pid ${lock.pid}) already runs the cluster in ${clusterDir}, started by process ${parentOf(lock.pid) ?? 'unknown'}; ` +
        `stop it, or choose another LOOKOUT_DATA_DIR.`,
    );
  }
  logger.info({ pid: lock.pid, clusterDir }, 'Stopping the embedded PostgreSQL a Lookout that ended left running');
  process.kill(lock.pid, 'SIGINT');
  if (!(await waitUntilGone(lock.pid, FAST_SHUTDOWN_MS))) {
    process.kill(lock.pid, 'SIGQUIT');
    if (!(await waitUntilGone(lock.pid, FAST_SHUTDOWN_MS))) {
      throw new Error(
        `PostgreSQL (pid ${lock.pid}) left running by an earlier Lookout does not stop; stop it by hand.`,
      );
    }
  }
  logger.info({ pid: lock.pid }, 'The orphaned PostgreSQL stopped');
}

/**
 * Whose is the live process a postmaster.pid names: this cluster's server (its `-D` is this
 * folder, or /proc cannot tell), another PostgreSQL (left alone), or no PostgreSQL at all.
 */
async function classifyHolder(
  pid: number,
  clusterDir: string,
): Promise<'this-cluster' | 'other-postgres' | 'unrelated'> {
  const commandLine = commandLineOf(pid);
  if (!commandLine) return 'this-cluster';
  const isPostgres = commandLine.some(
    (argument) => ['postgres', 'postmaster'].includes(path.basename(argument)) || argument.startsWith('postgres:'),
  );
  if (!isPostgres) return 'unrelated';
  const dataArgument = commandLine[commandLine.indexOf('-D') + 1];
  if (commandLine.includes('-D') && dataArgument) {
    const [theirs, ours] = await Promise.all([realpath(dataArgument).catch(() => dataArgument), realpath(clusterDir)]);
    if (theirs === ours) return 'this-cluster';
  }
  return 'other-postgres';
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await delay(POLL_MS);
  }
  return true;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function hasCluster(clusterDir: string): boolean {
  return existsSync(path.join(clusterDir, 'PG_VERSION'));
}
