import type { Socket } from 'node:net';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createDatabase } from './database.js';

describe('database close', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('resolves only once every connection is closed, so PostgreSQL can be stopped right after without errors', async () => {
    const warnings: unknown[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const db = createDatabase({ url: database.url, logger, max: 4 });
    const sockets: Socket[] = [];
    db.pool.on('connect', (client: pg.PoolClient) => {
      sockets.push((client as unknown as { connection: { stream: Socket } }).connection.stream);
    });
    const clients = await Promise.all([db.pool.connect(), db.pool.connect(), db.pool.connect()]);
    for (const client of clients) client.release();
    expect(sockets).toHaveLength(3);

    await db.close();
    // pg's own end() resolves after sending Terminate, with the sockets still open.
    expect(sockets.map((socket) => socket.destroyed)).toEqual([true, true, true]);
    expect(warnings).toEqual([]);
  });
});
