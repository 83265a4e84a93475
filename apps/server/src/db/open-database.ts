import { redactUrl } from '@lookout/contracts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@lookout/embedded-postgres';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { assertSupportedVersion, createDatabase, type Database } from './database.js';

/** The database a command uses, and the embedded PostgreSQL it started for it, if any. */
export type RunningDatabase = { database: Database; embedded?: EmbeddedDatabase };

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL when it is not set. */
export async function openDatabase(config: Config, logger: Logger): Promise<RunningDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, logger });
    url = embedded.url;
  } else {
    logger.info({ database: redactUrl(url) }, 'Using the PostgreSQL at DATABASE_URL');
  }
  const database = createDatabase({ url, logger });
  try {
    const version = await assertSupportedVersion(database);
    logger.info({ postgres: version }, 'Connected to PostgreSQL');
  } catch (error) {
    await database.close();
    await embedded?.stop();
    throw error;
  }
  return { database, ...(embedded ? { embedded } : {}) };
}

export async function closeDatabase({ database, embedded }: RunningDatabase): Promise<void> {
  await database.close();
  await embedded?.stop();
}
