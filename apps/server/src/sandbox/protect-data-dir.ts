import { chmod, lstat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/** Files Lookout keeps in its data directory that hold or reveal credentials. */
export const DATA_DIR_FILES = [
  'postgres-credentials.json',
  'secret-key',
  'admin-credentials',
  'properties.yaml',
  'lookout.lock',
] as const;

const FILE_MAX_MODE = 0o700;

/** Whether `mode` allows no more than `max`. */
const within = (mode: number, max: number) => ((mode & 0o777) | max) === max;

/**
 * Keeps the credentials Lookout writes into its data directory (postgres-credentials.json,
 * secret-key, admin-credentials, ...) readable by Lookout's own user only. Under bubblewrap
 * scripts never see the directory at all; this is what protects the files where scripts run as
 * `nobody` without a sandbox, and from other local users in any case. Lookout writes these
 * files private, but an older version did not, and an operator may have copied them in.
 * The directory itself keeps its mode: it may be a folder Lookout did not create (even a
 * shared one such as /tmp), and other programs depend on its mode. When others can list it,
 * the log says so and how to fix it; the names are all they could learn.
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

  if ((info.mode & 0o006) !== 0) {
    logger.warn(
      { dataDir },
      'Other users can list the data directory; give LOOKOUT_DATA_DIR a folder of its own (for example with mode 0711)',
    );
  }
  for (const name of DATA_DIR_FILES) {
    const file = path.join(dataDir, name);
    const fileInfo = await lstat(file).catch(() => undefined);
    // Symlinks are left alone: chmod would follow them to whatever they point at.
    if (!fileInfo?.isFile() || within(fileInfo.mode, FILE_MAX_MODE)) continue;
    try {
      await chmod(file, fileInfo.mode & FILE_MAX_MODE);
      tightened.push(file);
    } catch {
      failed.push(file);
    }
  }
  if (tightened.length > 0) {
    logger.info({ paths: tightened }, "Made Lookout's credential files private to the server user");
  }
  if (failed.length > 0) {
    logger.warn(
      { paths: failed },
      "Could not make these data directory files private to the server user; check their owner: others may read Lookout's credentials",
    );
  }
}
