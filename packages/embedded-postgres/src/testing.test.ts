import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase, makeTempDataDir, startTestPostgres } from './testing.js';

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

  it('runs PostgreSQL with durability off, gives test files databases of their own, and removes everything on stop', async () => {
    const postgres = await startTestPostgres({ prefix: 'lookout-testing-pg-' });
    const client = new pg.Client({ connectionString: postgres.url });
    try {
      await client.connect();
      const { rows } = await client.query<{ fsync: string; superuser: string }>(
        "SELECT current_setting('fsync') AS fsync, current_setting('is_superuser') AS superuser",
      );
      expect(rows).toEqual([{ fsync: 'off', superuser: 'on' }]);
      expect(existsSync(path.join(postgres.clusterDir, 'postmaster.pid'))).toBe(true);

      // A database per test file: empty, or a copy of a template; dropped with its connections.
      await client.query('CREATE DATABASE scratch_template');
      const template = new pg.Client({ connectionString: postgres.url.replace(/\/lookout$/, '/scratch_template') });
      await template.connect();
      await template.query('CREATE TABLE kept (note text)');
      await template.end();
      const copy = await createScratchDatabase(postgres.url, { prefix: 'scratch_', template: 'scratch_template' });
      expect(copy.name).toMatch(/^scratch_[0-9a-f]{12}$/);
      const user = new pg.Client({ connectionString: copy.url });
      await user.connect();
      expect((await user.query("SELECT to_regclass('kept') IS NOT NULL AS kept")).rows).toEqual([{ kept: true }]);
      // The drop ends this connection: PostgreSQL terminates it, which the client reports.
      const ended = new Promise((resolve) => user.on('error', resolve));
      await copy.drop();
      await ended;
      const left = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [copy.name]);
      expect(left.rowCount).toBe(0);
    } finally {
      await client.end();
      await postgres.stop();
      await postgres.stop();
    }
    expect(existsSync(postgres.clusterDir)).toBe(false);
  }, 120_000);
});
