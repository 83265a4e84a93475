import { rm } from 'node:fs/promises';
import { pino } from 'pino';
// The built server's own embedded PostgreSQL (e2e tests run against the build anyway): the
// same binaries, and the same handling of root (the cluster runs as the postgres account).
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../apps/server/dist/db/embedded-postgres.js';
import { makeDataDir } from './lookout-server.js';

export type TestPostgres = {
  /** Superuser URL of the `lookout` database, for DATABASE_URL and the test's own queries. */
  url: string;
  /** Stops PostgreSQL and removes its data directory. */
  stop: () => Promise<void>;
};

/**
 * A PostgreSQL of the test's own, apart from any Lookout: servers given its URL as
 * DATABASE_URL share it, and it outlives any one of them (a replica killed with SIGKILL takes
 * nothing of the database with it). The machine's own PostgreSQL, if it has one, is not used.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const data = await makeDataDir();
  let embedded: EmbeddedDatabase;
  try {
    embedded = await startEmbeddedPostgres({
      dataDir: data.dir,
      logger: pino({ level: 'silent' }),
      // Test data is thrown away, so trade durability for speed.
      extraFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    });
  } catch (error) {
    await data.remove();
    throw error;
  }
  return {
    url: embedded.url,
    stop: async () => {
      await embedded.stop();
      await data.remove();
      // The cluster's own folder, in case it was kept outside the data directory after all.
      await rm(embedded.dataDir, { recursive: true, force: true });
    },
  };
}
