import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export type TestDatabase = { url: string; name: string; pool: pg.Pool; drop: () => Promise<void> };

/**
 * A fresh database for one test file, with `setupSql` (fixtures: schema, roles, rows)
 * applied. Roles are cluster-wide, so fixtures create them with IF NOT EXISTS guards.
 */
export async function createTestDatabase(setupSql?: string): Promise<TestDatabase> {
  const adminUrl = inject('pgrestAdminUrl');
  const name = `pgrest_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 8 });
  if (setupSql) await pool.query(setupSql);
  return {
    url: url.toString(),
    name,
    pool,
    drop: async () => {
      await pool.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
