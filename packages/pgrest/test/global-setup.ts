import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the PostgreSQL the pgrest tests run against (a database to create others from). */
    pgrestAdminUrl: string;
  }
}

/**
 * One real PostgreSQL for the pgrest test run: PGREST_TEST_DATABASE_URL when given, else a
 * throwaway embedded PostgreSQL 17 (durability off). The engine does not depend on the Lookout
 * server; its tests borrow only the embedded PostgreSQL package, which also runs as root under
 * a private (mode 700) parent folder.
 */
export default async function setup(project: TestProject) {
  const given = process.env.PGREST_TEST_DATABASE_URL;
  if (given) {
    project.provide('pgrestAdminUrl', given);
    return;
  }
  const postgres = await startTestPostgres({ prefix: 'pgrest-test-' });
  project.provide('pgrestAdminUrl', postgres.url);
  return () => postgres.stop();
}
