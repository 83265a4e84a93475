import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { inject } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';

export type TestDatabase = Database & { url: string; name: string; drop: () => Promise<void> };

/** A fresh, migrated database of its own for one test file (cloned from the template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('testAdminDatabaseUrl');
  const template = inject('testTemplateDatabase');
  const name = `lookout_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = createDatabase({ url: url.toString(), logger: pino({ level: 'silent' }), max: 5 });
  return {
    ...database,
    url: url.toString(),
    name,
    drop: async () => {
      await database.close();
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
