import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir } from './data-dir-lock.js';
import { isAlive, startTimeOf } from './process-info.js';

const logger = pino({ level: 'silent' });

/** A process that stays alive until killed, to play another Lookout. */
function liveProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child));
    child.once('error', reject);
  });
}

async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

describe('the data directory lock', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-lock-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('names this process by pid and start time, private to it, and goes on release', async () => {
    const lock = await lockDataDir(dataDir, logger);
    const recorded = JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), 'utf8')) as object;
    expect(recorded).toEqual({ pid: process.pid, startTime: startTimeOf(process.pid) });
    expect(lock.previousOwner).toBeUndefined();
    await lock.release();
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('stops a second Lookout while the first one lives, naming it', async () => {
    const other = await liveProcess();
    children.push(other);
    const owner = { pid: other.pid!, startTime: startTimeOf(other.pid!) };
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify(owner));

    await expect(lockDataDir(dataDir, logger)).rejects.toThrow(
      `Another Lookout (pid ${other.pid}) is running on the data directory ${dataDir}; stop it, or choose another LOOKOUT_DATA_DIR for this one.`,
    );
    expect(JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), 'utf8'))).toEqual(owner);

    // Once that one is dead (SIGKILL: it could not let go), the directory is taken over.
    other.kill('SIGKILL');
    await ended(other);
    expect(isAlive(other.pid!)).toBe(false);
    const lock = await lockDataDir(dataDir, logger);
    expect(lock.previousOwner).toEqual(owner);
    await lock.release();
  });

  it('takes over from a holder whose pid now belongs to another process (a pid reused since)', async () => {
    const other = await liveProcess();
    children.push(other);
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: other.pid, startTime: '1' }));
    const lock = await lockDataDir(dataDir, logger);
    expect(lock.previousOwner).toEqual({ pid: other.pid, startTime: '1' });
    await lock.release();
  });

  it('takes over from a holder with its own pid (a container restarted hands out the same pids)', async () => {
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.pid, startTime: '1' }));
    const lock = await lockDataDir(dataDir, logger);
    expect(lock.previousOwner).toEqual({ pid: process.pid, startTime: '1' });
    await lock.release();
  });

  it('ignores a lock file it cannot read', async () => {
    await writeFile(path.join(dataDir, LOCK_FILE), '{"pid": "twelve"');
    const lock = await lockDataDir(dataDir, logger);
    expect(lock.previousOwner).toBeUndefined();
    await lock.release();
  });
});
