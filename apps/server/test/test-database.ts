import { createScratchDatabase } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { inject } from 'vitest';
import { createDatabase, type Database } from '../src/db/database.js';

export type TestDatabase = Database & { url: string; name: string; drop: () => Promise<void> };

/** A fresh, migrated database of its own for one test file (cloned from the template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(inject('testAdminDatabaseUrl'), {
    prefix: 'lookout_test_',
    template: inject('testTemplateDatabase'),
  });
  const database = createDatabase({ url: scratch.url, logger: pino({ level: 'silent' }), max: 5 });
  return {
    ...database,
    url: scratch.url,
    name: scratch.name,
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}
