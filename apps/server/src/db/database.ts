import pg from 'pg';
import type { Logger } from 'pino';

export type Database = {
  pool: pg.Pool;
  /** Round trip to the database; resolves with the latency in milliseconds. */
  ping: (timeoutMs?: number) => Promise<number>;
  close: () => Promise<void>;
};

/** The oldest PostgreSQL major version Lookout runs on (ARCHITECTURE section 1). */
export const MIN_POSTGRES_VERSION_NUM = 150000;

export function createDatabase(options: { url: string; logger: Logger; max?: number }): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 20,
    application_name: 'lookout',
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client can lose its connection (database restart); pg reports that here and the
  // pool replaces the client. Without a listener the process would crash.
  pool.on('error', (error) => options.logger.warn({ err: error }, 'Idle database connection failed'));

  // The pool's own end() resolves once it has *asked* its connections to close. Stopping the
  // server before they have would make PostgreSQL end them first, and each would report an
  // error; the pool says 'remove' when one has closed.
  let open = 0;
  pool.on('connect', () => (open += 1));
  pool.on('remove', () => (open -= 1));
  const allClosed = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (open > 0) return;
        pool.removeListener('remove', check);
        resolve();
      };
      pool.on('remove', check);
      check();
    });
  const end = async () => {
    const closedAll = allClosed();
    await pool.end();
    await withTimeout(closedAll, 5_000, 'closing the database connections').catch(() => undefined);
  };

  let closed: Promise<void> | undefined;
  return {
    pool,
    ping: async (timeoutMs = 2_000) => {
      const started = performance.now();
      const client = await withTimeout(pool.connect(), timeoutMs, 'connecting to the database');
      try {
        await withTimeout(client.query('SELECT 1'), timeoutMs, 'querying the database');
      } finally {
        client.release();
      }
      return Math.round((performance.now() - started) * 100) / 100;
    },
    close: () => (closed ??= end()),
  };
}

/** Refuses to run against a PostgreSQL older than 15, with a message saying so. */
export async function assertSupportedVersion(database: Database): Promise<string> {
  const result = await database.pool.query<{ num: string; version: string }>(
    "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS version",
  );
  const row = result.rows[0];
  if (!row || Number(row.num) < MIN_POSTGRES_VERSION_NUM) {
    throw new Error(
      `Lookout needs PostgreSQL 15 or newer; the server at DATABASE_URL runs ${row?.version ?? 'an unknown version'}.`,
    );
  }
  return row.version;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
