import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createDatabase } from './database.js';
import { runMigrations } from './migrate.js';

const logger = pino({ level: 'silent' });

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('leaves nothing to apply on a migrated database', async () => {
    expect(await runMigrations(db.pool, logger)).toEqual([]);
  });

  it('generates version 7 UUIDs in time order', async () => {
    const result = await db.pool.query<{ id: string }>(
      'SELECT lookout_uuid_v7()::text AS id FROM generate_series(1, 50) ORDER BY 1',
    );
    const ids = result.rows.map((row) => row.id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const first = await db.pool.query<{ id: string }>('SELECT lookout_uuid_v7()::text AS id');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await db.pool.query<{ id: string }>('SELECT lookout_uuid_v7()::text AS id');
    expect(first.rows[0]!.id < second.rows[0]!.id).toBe(true);
  });
});

describe('migrations on an empty database', () => {
  let directory: string;
  let db: TestDatabase;
  let emptyUrl: string;
  const emptyName = `lookout_empty_${process.pid}_${Date.now()}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(`CREATE DATABASE ${emptyName}`);
    const url = new URL(db.url);
    url.pathname = `/${emptyName}`;
    emptyUrl = url.toString();
    directory = await mkdtemp(path.join(os.tmpdir(), 'lookout-migrations-'));
    await writeFile(path.join(directory, '1_first.sql'), 'CREATE TABLE counter (n int);');
    await writeFile(path.join(directory, '2_second.sql'), 'INSERT INTO counter VALUES (1);');
  });
  afterAll(async () => {
    await db.pool.query(`DROP DATABASE IF EXISTS ${emptyName} WITH (FORCE)`);
    await db.drop();
    await rm(directory, { recursive: true, force: true });
  });

  it('applies each migration once when several replicas start together', async () => {
    const replicas = [1, 2, 3].map(() => createDatabase({ url: emptyUrl, logger, max: 2 }));
    try {
      const results = await Promise.all(replicas.map((replica) => runMigrations(replica.pool, logger, directory)));
      expect(results.flat().sort()).toEqual(['1_first', '2_second']);
      const rows = await replicas[0]!.pool.query('SELECT count(*)::int AS n FROM counter');
      expect(rows.rows[0].n).toBe(1);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  it('refuses to run when an applied migration was edited', async () => {
    await writeFile(path.join(directory, '1_first.sql'), 'CREATE TABLE counter (n bigint);');
    const replica = createDatabase({ url: emptyUrl, logger, max: 1 });
    try {
      await expect(runMigrations(replica.pool, logger, directory)).rejects.toThrow(/hash/i);
    } finally {
      await replica.close();
    }
  });
});
