import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * Files Lookout keeps in its data directory. In a folder others share (which Lookout then
 * does not list or change), only these are made private.
 */
export const DATA_DIR_FILES = [
  'postgres-credentials.json',
  'secret-key',
  'admin-credentials',
  'properties.yaml',
  'lookout.lock',
] as const;

/**
 * The most the data directory's mode may allow: everything for its owner, and for others at
 * most search (the postgres account passes through to its cluster), never listing or writing.
 */
const DATA_DIR_MAX_MODE = 0o711;
const FILE_MAX_MODE = 0o700;

/** Whether `mode` allows no more than `max`. */
const within = (mode: number, max: number) => ((mode & 0o777) | max) === max;

/**
 * Keeps what Lookout writes into its data directory (postgres-credentials.json, secret-key,
 * admin-credentials, ...) readable by Lookout's own user only, and the directory unlistable
 * by others. Under bubblewrap scripts never see the directory at all; this is what protects it
 * where scripts run as `nobody` without a sandbox, and from other local users in any case.
 * Lookout writes these files private, but an older version left the directory listable, and an
 * operator may have copied files in. A shared folder (sticky or world-writable, such as /tmp)
 * keeps its mode, since other programs depend on it; only Lookout's own files in it change.
 * Folders inside (the PostgreSQL cluster, owned by its own account) are left to their owners.
 */
export async function protectDataDir(dataDir: string, logger: Logger): Promise<void> {
  let info;
  try {
    info = await lstat(dataDir);
  } catch {
    // No data directory (DATABASE_URL and LOOKOUT_SECRET_KEY set): nothing to protect.
    return;
  }
  if (!info.isDirectory()) return;
  const tightened: string[] = [];
  const failed: string[] = [];
  const tighten = async (target: string, mode: number, max: number) => {
    if (within(mode, max)) return;
    try {
      await chmod(target, mode & max);
      tightened.push(target);
    } catch {
      failed.push(target);
    }
  };

  const shared = (info.mode & 0o1000) !== 0 || (info.mode & 0o002) !== 0;
  let names: string[];
  if (shared) {
    logger.warn(
      { dataDir },
      'The data directory is a folder others share, so they can list it; set LOOKOUT_DATA_DIR to a folder of its own',
    );
    names = [...DATA_DIR_FILES];
  } else {
    await tighten(dataDir, info.mode, DATA_DIR_MAX_MODE);
    names = await readdir(dataDir).catch(() => []);
  }
  for (const name of names) {
    const file = path.join(dataDir, name);
    const fileInfo = await lstat(file).catch(() => undefined);
    // Symlinks are left alone: chmod would follow them to whatever they point at.
    if (fileInfo?.isFile()) await tighten(file, fileInfo.mode, FILE_MAX_MODE);
  }
  if (tightened.length > 0) {
    logger.info({ paths: tightened }, 'Made the data directory and its files private to the server user');
  }
  if (failed.length > 0) {
    logger.warn(
      { paths: failed },
      "Could not make these data directory paths private to the server user; check their owner: others may read Lookout's credentials",
    );
  }
}
