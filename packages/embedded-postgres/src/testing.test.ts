import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { makeTempDataDir, startTestPostgres } from './testing.js';

describe('a throwaway PostgreSQL for tests', () => {
  it('makes a temporary folder the postgres account may pass through, but not list', async () => {
    const data = await makeTempDataDir('lookout-testing-');
    try {
      expect((await stat(data.dir)).mode & 0o777).toBe(0o711);
      expect(path.basename(data.dir)).toMatch(/^lookout-testing-/);
    } finally {
      await data.remove();
    }
    expect(existsSync(data.dir)).toBe(false);
  });

  it('runs PostgreSQL with durability off, and removes everything on stop', async () => {
    const postgres = await startTestPostgres({ prefix: 'lookout-testing-pg-' });
    const client = new pg.Client({ connectionString: postgres.url });
    try {
      await client.connect();
      const { rows } = await client.query<{ fsync: string; superuser: string }>(
        "SELECT current_setting('fsync') AS fsync, current_setting('is_superuser') AS superuser",
      );
      expect(rows).toEqual([{ fsync: 'off', superuser: 'on' }]);
      expect(existsSync(path.join(postgres.clusterDir, 'postmaster.pid'))).toBe(true);
    } finally {
      await client.end();
      await postgres.stop();
      await postgres.stop();
    }
    expect(existsSync(postgres.clusterDir)).toBe(false);
  }, 120_000);
});
