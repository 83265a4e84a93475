import { createScratchDatabase } from '@lookout/embedded-postgres/testing';
import pg from 'pg';
import { inject } from 'vitest';

export type TestDatabase = { url: string; name: string; pool: pg.Pool; drop: () => Promise<void> };

/**
 * A fresh database for one test file, with `setupSql` (fixtures: schema, roles, rows)
 * applied. Roles are cluster-wide, so fixtures create them with IF NOT EXISTS guards.
 */
export async function createTestDatabase(setupSql?: string): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(inject('pgrestAdminUrl'), { prefix: 'pgrest_' });
  const pool = new pg.Pool({ connectionString: scratch.url, max: 8 });
  if (setupSql) await pool.query(setupSql);
  return {
    url: scratch.url,
    name: scratch.name,
    pool,
    drop: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
}
