import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { startEmbeddedPostgres } from './embedded-postgres.js';

/**
 * A throwaway PostgreSQL for tests and benchmarks: the same process manager `lookout serve`
 * uses (its programs, its account and cluster place as root, its lock), in a temporary folder
 * removed again on stop. The server's, pgrest's and e2e tests and every benchmark start theirs
 * here.
 */

/** `postgres` flags that trade durability for speed: the data is thrown away. */
export const THROWAWAY_FLAGS: readonly string[] = [
  '-c',
  'fsync=off',
  '-c',
  'synchronous_commit=off',
  '-c',
  'full_page_writes=off',
];

export type TempDataDir = { dir: string; remove: () => Promise<void> };

/**
 * A new temporary folder (`<tmp>/<prefix>XXXXXX`) a data directory can live in. mkdtemp makes
 * it 0700; it becomes 0711 so that, as root, the postgres account may pass through it and the
 * cluster stays inside (else it would be kept in /var/lib/lookout-postgres and outlive it).
 */
export async function makeTempDataDir(prefix: string): Promise<TempDataDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o711);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export type TestPostgres = {
  /** Superuser URL of its `lookout` database (the role may create databases and roles). */
  url: string;
  /** Its temporary data directory (removed on stop). */
  dataDir: string;
  /** The cluster's folder (its `postmaster.pid` is there). */
  clusterDir: string;
  /** Stops PostgreSQL and removes its folders. Safe to call twice. */
  stop: () => Promise<void>;
};

/** Starts a throwaway PostgreSQL 17 on a free port of 127.0.0.1. */
export async function startTestPostgres(
  options: {
    /** Prefix of its temporary folder's name. */
    prefix?: string;
    /** Keep durability on, as an installation runs (a benchmark of commits); off by default. */
    durable?: boolean;
    /** More `postgres` flags (`-c name=value` pairs). */
    extraFlags?: readonly string[];
    /** Default: silent. */
    logger?: Logger;
  } = {},
): Promise<TestPostgres> {
  const data = await makeTempDataDir(options.prefix ?? 'lookout-test-pg-');
  let started;
  try {
    started = await startEmbeddedPostgres({
      dataDir: data.dir,
      logger: options.logger ?? pino({ level: 'silent' }),
      extraFlags: [...(options.durable ? [] : THROWAWAY_FLAGS), ...(options.extraFlags ?? [])],
    });
  } catch (error) {
    await data.remove();
    throw error;
  }
  const embedded = started;
  let stopped: Promise<void> | undefined;
  return {
    url: embedded.url,
    dataDir: data.dir,
    clusterDir: embedded.dataDir,
    stop: () =>
      (stopped ??= (async () => {
        await embedded.stop();
        await data.remove();
        // The cluster's own folder, in case it was kept outside the data directory after all.
        await rm(embedded.dataDir, { recursive: true, force: true });
      })()),
  };
}

export type ScratchDatabase = {
  name: string;
  /** The same server's URL with this database in its path. */
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop: () => Promise<void>;
};

/**
 * A database of its own for one test file on the server of `adminUrl` (a superuser URL):
 * empty, or a copy of `template` (`CREATE DATABASE ... TEMPLATE`), named `<prefix><random hex>`.
 */
export async function createScratchDatabase(
  adminUrl: string,
  options: { prefix: string; template?: string },
): Promise<ScratchDatabase> {
  const name = `${options.prefix}${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (admin) =>
    admin.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

async function withClient(url: string, use: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}
