import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/notification-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createNotificationListener } from './notification-listener.js';

let database: TestDatabase;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(() => database?.drop());

const notify = (channel: string, payload: string) =>
  database.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);

describe('notification listeners', () => {
  it('share one connection of the pool, each getting its own channels, until the last closes', async () => {
    const { pool } = database;
    const queue = createNotificationListener(pool, logger);
    const outbox = createNotificationListener(pool, logger);
    try {
      const queued: string[] = [];
      const mailed: string[] = [];
      queue.subscribe('h7_queue', (payload) => queued.push(payload));
      outbox.subscribe('h7_outbox', (payload) => mailed.push(payload));

      await eventually(async () => {
        await notify('h7_queue', 'q1');
        await notify('h7_outbox', 'm1');
        return queued.length > 0 && mailed.length > 0;
      }, 10_000);
      expect(queued.every((payload) => payload === 'q1')).toBe(true);
      expect(mailed.every((payload) => payload === 'm1')).toBe(true);
      // One LISTEN connection held for both (the pool may keep an idle one from the notify).
      expect(pool.totalCount - pool.idleCount).toBe(1);

      await queue.close();
      const heard = mailed.length;
      await eventually(async () => {
        await notify('h7_outbox', 'm2');
        return mailed.length > heard;
      }, 10_000);
      expect(pool.totalCount - pool.idleCount).toBe(1);

      await outbox.close();
      expect(pool.totalCount - pool.idleCount).toBe(0);
    } finally {
      // Closing twice is harmless; a failed expectation must not keep the connection.
      await queue.close();
      await outbox.close();
    }
  });

  it('stop only the subscription closed, when two listeners subscribe the same handler', async () => {
    const { pool } = database;
    const heard: string[] = [];
    const onNotify = (payload: string) => heard.push(payload);
    const first = createNotificationListener(pool, logger);
    const second = createNotificationListener(pool, logger);
    try {
      first.subscribe('h7_same', onNotify);
      const stopSecond = second.subscribe('h7_same', onNotify);
      await eventually(async () => {
        await notify('h7_same', 'warm-up');
        return heard.includes('warm-up');
      }, 10_000);
      // Notifications of one connection arrive in order: what comes before a marker is all there is.
      const until = async (marker: string, copies: number) => {
        await notify('h7_same', marker);
        await eventually(async () => heard.filter((payload) => payload === marker).length >= copies, 10_000);
      };
      await until('settled', 2);
      heard.length = 0;
      await notify('h7_same', 'both');
      await until('end', 2);
      expect(heard).toEqual(['both', 'both', 'end', 'end']);
      stopSecond();
      heard.length = 0;
      await notify('h7_same', 'one');
      await until('end', 1);
      expect(heard).toEqual(['one', 'end']);
    } finally {
      await first.close();
      await second.close();
    }
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});
