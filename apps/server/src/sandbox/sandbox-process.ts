import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { parseProcStat, processTree, type Ids, type ProcessInfo } from './sandbox-fns.js';

/** What a finished (or killed) command left behind. */
export type CommandOutput = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** More output than `maxOutputBytes` on a stream; the rest was dropped. */
  truncated: boolean;
};

export type ProcessOptions = {
  file: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** Switch to this user before exec (needs a root server); supplementary groups are dropped. */
  spawnAs?: Ids | undefined;
  signal: AbortSignal;
  maxOutputBytes: number;
};

async function processTable(): Promise<ProcessInfo[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const table: ProcessInfo[] = [];
  await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        try {
          const info = parseProcStat(await readFile(`/proc/${name}/stat`, 'utf8'));
          if (info) table.push(info);
        } catch {
          // Gone between the listing and the read.
        }
      }),
  );
  return table;
}

const killQuietly = (pid: number) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone, or never ours.
  }
};

/**
 * Kills everything `leader` started. The leader runs in its own session and process group, so
 * killing the group takes the ordinary case; the /proc walk (twice, for children forked in
 * between) takes descendants that moved to a group of their own and orphans left in the
 * session. Under bubblewrap the pid namespace dies with its first process anyway.
 */
export async function killProcessTree(leader: number): Promise<void> {
  const before = processTree(await processTable(), leader);
  try {
    process.kill(-leader, 'SIGKILL');
  } catch {
    // The group is empty already.
  }
  for (const pid of before) killQuietly(pid);
  for (const pid of processTree(await processTable(), leader)) killQuietly(pid);
}

/**
 * Runs one command with a clean environment, its own session, bounded output, and its whole
 * process tree killed when `signal` aborts. Rejects only when the command cannot start
 * (ENOENT: not installed).
 */
export function runProcess(options: ProcessOptions): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      return;
    }
    const child = spawn(options.file, [...options.args], {
      env: { ...options.env },
      cwd: options.cwd,
      // Its own session and process group, so a timeout can find and kill all it started.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.spawnAs ? { uid: options.spawnAs.uid, gid: options.spawnAs.gid } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    const keep = (chunks: Buffer[], seen: number, chunk: Buffer): number => {
      const room = options.maxOutputBytes - seen;
      if (room > 0) chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      if (chunk.length > room) truncated = true;
      return seen + chunk.length;
    };
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes = keep(out, outBytes, chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errBytes = keep(err, errBytes, chunk);
    });
    // A killed command's stray writer (one that escaped the tree) must not keep the pipes,
    // and with them this run, open: once the command exited and the kill is done, let go.
    let exited = false;
    let killing: Promise<void> | undefined;
    const release = () => {
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const kill = () => {
      if (child.pid === undefined) return;
      killing ??= killProcessTree(child.pid).finally(() => {
        if (exited) release();
      });
    };
    options.signal.addEventListener('abort', kill, { once: true });
    child.once('exit', () => {
      exited = true;
      if (killing) void killing.finally(release);
    });
    child.once('error', (error) => {
      options.signal.removeEventListener('abort', kill);
      reject(error);
    });
    child.once('close', (exitCode, signal) => {
      options.signal.removeEventListener('abort', kill);
      const finish = () =>
        resolve({
          exitCode,
          signal,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          truncated,
        });
      // Wait for a kill under way, so nothing of the command outlives the run.
      if (killing) void killing.finally(finish);
      else finish();
    });
  });
}
