import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.js';

describe('embedded PostgreSQL', () => {
  const logger = pino({ level: 'silent' });
  let dataDir: string | undefined;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs PostgreSQL 17 and keeps data across a restart', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-embedded-'));
    // As root, the postgres account must enter it (else the cluster is kept elsewhere, as tested below).
    await chmod(dataDir, 0o711);
    const first = await startEmbeddedPostgres({ dataDir, logger });
    expect(first.port).not.toBe(5432);
    const db1 = new pg.Client({ connectionString: first.url });
    await db1.connect();
    const version = await db1.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    expect(Number(version.rows[0]!.v)).toBeGreaterThanOrEqual(170000);
    await db1.query('CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$still here$$)');
    await db1.end();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, logger });
    const db2 = new pg.Client({ connectionString: second.url });
    try {
      await db2.connect();
      const rows = await db2.query<{ note: string }>('SELECT note FROM kept');
      expect(rows.rows).toEqual([{ note: 'still here' }]);
    } finally {
      await db2.end();
      await second.stop();
    }

    const credentials = await stat(path.join(dataDir, 'postgres-credentials.json'));
    expect(credentials.mode & 0o777).toBe(0o600);
  }, 120_000);
});
