import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive } from './process-info.js';
import { readPostmasterPid, stopOrphanedPostmaster } from './postmaster.js';

const logger = pino({ level: 'silent' });

/**
 * A stand-in for a server: a process whose arguments read like `postgres -D <dir>` (or like
 * anything else), and which ends on SIGINT as PostgreSQL's fast shutdown does.
 */
function standIn(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ...args], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child));
    child.once('error', reject);
  });
}

async function writePostmasterPid(clusterDir: string, pid: number): Promise<void> {
  // The layout PostgreSQL writes: pid, data directory, start time, port, socket dir, address, shmem key, status.
  await writeFile(
    path.join(clusterDir, 'postmaster.pid'),
    [pid, clusterDir, '1795600000', '45123', '', '127.0.0.1', '    0     0', 'ready   ', ''].join('\n'),
  );
}

describe('a server left running by a Lookout that ended', () => {
  let clusterDir: string;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    clusterDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-postmaster-'));
  });
  afterEach(async () => {
    await rm(clusterDir, { recursive: true, force: true });
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('reads the pid, port and status from postmaster.pid', async () => {
    await writePostmasterPid(clusterDir, 4242);
    expect(await readPostmasterPid(clusterDir)).toEqual({ pid: 4242, port: 45123, status: 'ready' });
  });

  it('is stopped when the Lookout that owned it has ended', async () => {
    const orphan = await standIn(['/opt/pg/bin/postgres', '-D', clusterDir, '-p', '45123']);
    children.push(orphan);
    await writePostmasterPid(clusterDir, orphan.pid!);
    await stopOrphanedPostmaster({ clusterDir, ownerEnded: true, logger });
    expect(isAlive(orphan.pid!)).toBe(false);
    expect(orphan.signalCode).toBe('SIGINT');
  });

  it('is left alone, and reported, while a live process that is no ended Lookout runs it', async () => {
    const running = await standIn(['/opt/pg/bin/postgres', '-D', clusterDir]);
    children.push(running);
    await writePostmasterPid(clusterDir, running.pid!);
    await expect(stopOrphanedPostmaster({ clusterDir, ownerEnded: false, logger })).rejects.toThrow(
      `PostgreSQL (pid ${running.pid}) already runs the cluster in ${clusterDir}, started by process ${process.pid}`,
    );
    expect(isAlive(running.pid!)).toBe(true);
  });

  it('never touches a PostgreSQL of another cluster that got the recorded pid', async () => {
    const elsewhere = await standIn(['/usr/lib/postgresql/15/bin/postgres', '-D', '/var/lib/postgresql/15/main']);
    children.push(elsewhere);
    await writePostmasterPid(clusterDir, elsewhere.pid!);
    await expect(stopOrphanedPostmaster({ clusterDir, ownerEnded: true, logger })).rejects.toThrow(
      /names PostgreSQL process \d+, which does not run this cluster/,
    );
    expect(isAlive(elsewhere.pid!)).toBe(true);
    expect(existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(true);
  });

  it('removes a stale postmaster.pid whose pid went to a program that is no PostgreSQL', async () => {
    const unrelated = await standIn(['some-daemon', '--foreground']);
    children.push(unrelated);
    await writePostmasterPid(clusterDir, unrelated.pid!);
    expect(isAlive(unrelated.pid!)).toBe(true);
    await stopOrphanedPostmaster({ clusterDir, ownerEnded: true, logger });
    expect(existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
    expect(isAlive(unrelated.pid!)).toBe(true);
  });
});
