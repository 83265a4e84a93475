import { startTestPostgres, type TestPostgres } from '@lookout/embedded-postgres/testing';
import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/database.js';
import { runMigrations } from '../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL to the test server's `postgres`-like admin database. */
    testAdminDatabaseUrl: string;
    /** A migrated database each test file clones with CREATE DATABASE ... TEMPLATE. */
    testTemplateDatabase: string;
  }
}

/**
 * Starts one real PostgreSQL for the whole run (embedded, unless LOOKOUT_TEST_DATABASE_URL
 * names a server to use) and migrates a template database once. Each test file then gets
 * its own fresh copy of the template, so files never see each other's rows.
 */
export default async function setup(project: TestProject) {
  const logger = pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });
  let embedded: TestPostgres | undefined;
  let adminUrl = process.env.LOOKOUT_TEST_DATABASE_URL;
  if (!adminUrl) {
    embedded = await startTestPostgres({ prefix: 'lookout-test-pg-', logger });
    adminUrl = embedded.url;
  }

  const template = `lookout_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  const database = createDatabase({ url: templateUrl.toString(), logger, max: 1 });
  await runMigrations(database.pool, logger);
  await database.close();

  project.provide('testAdminDatabaseUrl', adminUrl);
  project.provide('testTemplateDatabase', template);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await embedded?.stop();
  };
}
