import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, lstat, mkdir, readdir, readlink, realpath, rename, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { canReach, type RunAs } from './postgres-user.js';
import { ensureSharedRoot, SHARED_POSTGRES_ROOT } from './postgres-runtime.js';

/** `<data dir>/postgres`: the cluster itself, or a link to where it is kept instead. */
export const CLUSTER_ENTRY = 'postgres';

/**
 * Creates the data directory when it is missing, with the mode Lookout needs: private to this
 * account, plus search (not listing) for the postgres account when that one must pass through
 * to the cluster. A directory Lookout did not create keeps its mode: it may be a shared one
 * (the system temporary folder, with its sticky bit) that other programs depend on.
 */
export async function ensureDataDir(dataDir: string, runAs: RunAs): Promise<void> {
  if (existsSync(dataDir)) return;
  await mkdir(dataDir, { recursive: true, mode: runAs ? 0o711 : 0o700 });
}

/**
 * Where the cluster of `dataDir` lives, creating its (empty) folder on a first start.
 *
 * Normally `<data dir>/postgres`. When Lookout runs as root and the postgres account cannot
 * enter the data directory (a folder under root's mode-700 home, or a private temporary
 * folder), a new cluster is kept in `/var/lib/lookout-postgres/<hash of the data directory>`
 * instead, and `<data dir>/postgres` becomes a link to it, so the next start (and anyone
 * looking) finds it there. Nothing outside Lookout's own folders changes mode.
 */
export async function locateCluster(options: {
  dataDir: string;
  runAs: RunAs;
  logger: Logger;
  sharedRoot?: string;
}): Promise<string> {
  const { dataDir, runAs, logger } = options;
  const entry = path.join(dataDir, CLUSTER_ENTRY);
  const found = await lstat(entry).catch(() => undefined);

  if (found?.isSymbolicLink()) {
    const target = path.resolve(dataDir, await readlink(entry));
    if (!existsSync(target)) {
      throw new Error(
        `${entry} links to ${target}, which holds the PostgreSQL data of LOOKOUT_DATA_DIR ${dataDir} and is missing; ` +
          `restore it, or remove the link to start with an empty database.`,
      );
    }
    return realpath(target);
  }
  if (found) {
    if (!canReach(runAs, entry)) {
      throw new Error(
        `The ${runAs?.name} OS account that runs PostgreSQL cannot enter ${entry}, the cluster of LOOKOUT_DATA_DIR ${dataDir} ` +
          `(a parent folder is private); move the data directory where it can, or run Lookout as another user.`,
      );
    }
    return entry;
  }

  if (canReach(runAs, dataDir)) {
    await createClusterFolder(entry, runAs);
    return entry;
  }
  const sharedRoot = options.sharedRoot ?? SHARED_POSTGRES_ROOT;
  try {
    await ensureSharedRoot(sharedRoot, runAs);
  } catch (error) {
    throw new Error(
      `The ${runAs?.name} OS account that runs PostgreSQL cannot enter LOOKOUT_DATA_DIR ${dataDir} (a parent folder is private), ` +
        `and Lookout cannot keep the cluster in ${sharedRoot} either (${error instanceof Error ? error.message : String(error)}). ` +
        `Set LOOKOUT_DATA_DIR to a folder that account can enter, such as /var/lib/lookout.`,
    );
  }
  const target = path.join(sharedRoot, clusterNameFor(await realpath(dataDir)));
  await setAsideLeftover(target, logger);
  await createClusterFolder(target, runAs);
  await symlink(target, entry);
  logger.info(
    { dataDir, clusterDir: target, user: runAs?.name },
    `The ${runAs?.name} account that runs PostgreSQL cannot enter the data directory; its cluster is kept in ${target}, linked from ${entry}`,
  );
  return target;
}

/** A stable name per data directory, so its cluster is easy to tell apart in the shared root. */
export function clusterNameFor(realDataDir: string): string {
  return `cluster-${createHash('sha256').update(realDataDir).digest('hex').slice(0, 16)}`;
}

/**
 * A non-empty folder with the name a new cluster needs belonged to a data directory of the
 * same path that has since been removed (someone deleted it to start over). It no longer has
 * its credentials, so it is moved aside, not reused, and the log says where it went.
 */
async function setAsideLeftover(target: string, logger: Logger): Promise<void> {
  const entries = await readdir(target).catch(() => undefined);
  if (!entries || entries.length === 0) return;
  const aside = `${target}-removed-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(target, aside);
  logger.warn(
    { clusterDir: aside },
    `Moved aside the PostgreSQL data of a removed data directory at this path; delete ${aside} if it is not needed`,
  );
}

/** PostgreSQL wants its data folder owned by the account it runs as, and private (0700). */
async function createClusterFolder(folder: string, runAs: RunAs): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  if (runAs) await chown(folder, runAs.uid, runAs.gid);
}
