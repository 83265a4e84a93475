import { existsSync } from 'node:fs';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { isSameProcess, startTimeOf } from './process-info.js';

/** `<data dir>/lookout.lock`: which Lookout process runs the embedded PostgreSQL of this data directory. */
export const LOCK_FILE = 'lookout.lock';

export type LockOwner = { pid: number; startTime?: string };

export type DataDirLock = {
  /**
   * The Lookout that held the directory before this one and ended without letting go
   * (killed with SIGKILL, say): anything it left running is an orphan.
   */
  previousOwner?: LockOwner;
  release: () => Promise<void>;
};

/**
 * Takes the data directory for this process. One Lookout process at a time runs a data
 * directory's PostgreSQL; a second one stops here with a message naming the first. The lock
 * names the holder by pid and start time, so a dead holder (or a pid reused since) is told
 * apart from a live one without anyone removing the file by hand.
 */
export async function lockDataDir(dataDir: string, logger: Logger): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK_FILE);
  const own: LockOwner = { pid: process.pid, ...optionalStartTime(process.pid) };
  const previous = await readOwner(file);
  // A recorded pid equal to ours is a run before a restart (containers hand out the same
  // pids again), never a second live Lookout.
  if (previous && previous.pid !== own.pid && isSameProcess(previous.pid, previous.startTime)) {
    throw new Error(
      `Another Lookout (pid ${previous.pid}) is running on the data directory ${dataDir}; stop it, ` +
        `or choose another LOOKOUT_DATA_DIR for this one.`,
    );
  }
  const itIsUs = previous?.pid === own.pid && previous.startTime === own.startTime;
  const previousOwner = previous && !itIsUs ? previous : undefined;
  if (previousOwner) {
    logger.info({ pid: previousOwner.pid }, 'The Lookout that last used this data directory ended without stopping');
  }
  await writeFile(file, `${JSON.stringify(own)}\n`, { mode: 0o600 });
  return {
    ...(previousOwner ? { previousOwner } : {}),
    release: async () => {
      const holder = await readOwner(file);
      if (holder?.pid === own.pid) await unlink(file).catch(() => undefined);
    },
  };
}

function optionalStartTime(pid: number): { startTime?: string } {
  const startTime = startTimeOf(pid);
  return startTime === undefined ? {} : { startTime };
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return { pid: parsed.pid, ...(typeof parsed.startTime === 'string' ? { startTime: parsed.startTime } : {}) };
  } catch {
    // A torn or foreign file names no live owner.
    return undefined;
  }
}
