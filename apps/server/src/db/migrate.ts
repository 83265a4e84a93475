import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Logger } from 'pino';
import { migrate } from 'postgres-migrations';

/** Forward-only SQL migrations, numbered `N_name.sql`; shipped beside `src/` and `dist/`. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/**
 * Applies pending migrations. postgres-migrations checks each applied file's hash (an edited
 * migration stops start-up) and holds an advisory lock, so replicas starting together apply
 * each migration once while the others wait.
 */
export async function runMigrations(
  pool: pg.Pool,
  logger: Logger,
  directory: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const client = await pool.connect();
  try {
    const applied = await migrate({ client }, directory, {
      logger: (message: string) => logger.debug({ source: 'migrations' }, message),
    });
    // Migration 0 is the migrator's own bookkeeping table, not one of ours.
    const names = applied
      .filter((migration) => migration.id !== 0)
      .map((migration) => `${migration.id}_${migration.name}`);
    if (names.length > 0) logger.info({ migrations: names }, 'Applied database migrations');
    return names;
  } finally {
    client.release();
  }
}
