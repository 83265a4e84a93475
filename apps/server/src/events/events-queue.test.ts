import type { EventName } from '@lookout/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueRows, testEvents, uuid } from '../../test/event-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { withTransaction } from '../db/transaction.js';
import { AppError } from '../http/app-error.js';
import { EVENT_QUEUE_CLEANUP_JOB } from './events.js';

/*
 * The event queue's table, producers and views against real PostgreSQL (migration 13,
 * docs/events.md): enqueue and its de-duplication, the caller's transaction, the check status
 * trigger, event_queue_summary and failed_events exactly as the web reads them, the cleanup job.
 */

let database: TestDatabase;
let events: ReturnType<typeof testEvents>['events'];

beforeAll(async () => {
  database = await createTestDatabase();
  events = testEvents(database.pool).events;
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.pool.query('DELETE FROM event_queue');
});

const query = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
  (await database.pool.query<T>(sql, values)).rows;

describe('enqueue', () => {
  it('queues an event with its id, string properties, priority and delay in nanoseconds', async () => {
    const eventId = uuid();
    const id = await events.enqueue(
      'check.failed',
      eventId,
      { last_runtime: '2026-01-01T00:00:00Z' },
      { delayMs: 1500 },
    );
    const [row] = await queueRows(database.pool);
    expect(row).toMatchObject({
      id,
      event_id: eventId,
      name: 'check.failed',
      properties: { last_runtime: '2026-01-01T00:00:00Z' },
      error: null,
      delay: '1500000000',
      last_attempt: null,
      attempts: 0,
      priority: 100,
    });
  });

  it('starts an event queued again afresh instead of adding it twice, and wakes the consumers again', async () => {
    const eventId = uuid();
    const first = await events.enqueue('check.failed', eventId, { status: 'one' });
    await database.pool.query(
      `UPDATE event_queue SET attempts = 4, error = 'SMTP said no', last_attempt = now(), created_at = now() - interval '1 day'
       WHERE id = $1`,
      [first],
    );
    const listener = await database.pool.connect();
    const notified: string[] = [];
    listener.on('notification', (message) => notified.push(message.payload ?? ''));
    await listener.query('LISTEN event_queue_updates');
    try {
      const again = await events.enqueue('check.failed', eventId, { status: 'two' }, { priority: 7 });
      expect(again).toBe(first);
      const rows = await queueRows(database.pool);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        attempts: 0,
        error: null,
        last_attempt: null,
        properties: { status: 'two' },
        priority: 7,
      });
      expect(Date.now() - rows[0]!.created_at.getTime()).toBeLessThan(3_600_000);
      // The same name about another row, or without a row, is another event.
      await events.enqueue('check.failed', uuid());
      await events.enqueue('check.passed', eventId);
      await events.enqueue('check.passed', null);
      await events.enqueue('check.passed', null);
      expect(await queueRows(database.pool)).toHaveLength(5);
      await listener.query('SELECT 1'); // notifications arrive before the answer to a later query
      expect(notified.filter((name) => name === 'check.failed')).toHaveLength(2);
      expect(notified.filter((name) => name === 'check.passed')).toHaveLength(3);
    } finally {
      await listener.query('UNLISTEN *');
      listener.release();
    }
  });

  it("queues inside the caller's transaction: gone with a rollback, there after a commit", async () => {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await events.enqueue('config.created', uuid(), {}, { tx: client });
      expect(await queueRows(client)).toHaveLength(1);
      expect(await queueRows(database.pool)).toHaveLength(0); // not before the commit
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await queueRows(database.pool)).toHaveLength(0);
    const committed = await withTransaction(database.pool, (tx) =>
      events.enqueue('config.created', uuid(), {}, { tx }),
    );
    expect((await queueRows(database.pool)).map((row) => row.id)).toEqual([committed]);
  });

  it('refuses bad input with a 400 saying what to fix, and queues nothing', async () => {
    const refused = async (work: () => Promise<unknown>) => {
      const error = await work().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    };
    const unknown = await refused(() => events.enqueue('check.exploded' as EventName, uuid()));
    expect(unknown).toMatchObject({ statusCode: 400, code: 'invalid_event' });
    expect(unknown.message).toContain("Unknown event name 'check.exploded'. Use one of: check.failed, check.passed");
    const nonString = await refused(() =>
      events.enqueue('check.failed', uuid(), { attempts: 3 } as unknown as Record<string, string>),
    );
    expect(nonString.message).toBe(
      "Event property 'attempts' is a number; every property value must be a string (convert it with String(...) or JSON.stringify(...)).",
    );
    expect((await refused(() => events.enqueue('check.failed', 'not-a-uuid'))).message).toContain('is not a UUID');
    expect((await refused(() => events.enqueue('check.failed', uuid(), {}, { priority: 0.5 }))).statusCode).toBe(400);
    expect(await queueRows(database.pool)).toHaveLength(0);
  });

  it('keeps the string map in the database too: a hand-written INSERT with a number is refused', async () => {
    await expect(
      database.pool.query(
        `INSERT INTO event_queue (name, event_id, properties) VALUES ('check.failed', $1, '{"n": 1}')`,
        [uuid()],
      ),
    ).rejects.toThrow('event_queue_properties_check');
  });
});

describe('the check status trigger', () => {
  it('queues check.passed and check.failed when a check becomes healthy or unhealthy, about the check', async () => {
    const [canary] = await query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('events-probe', '{"http": [{"name": "home", "url": "http://127.0.0.1:1/"}]}') RETURNING id`,
    );
    const [check] = await query<{ id: string }>('SELECT id FROM checks WHERE canary_id = $1', [canary!.id]);
    const checkId = check!.id;
    const setStatus = (status: string | null) =>
      database.pool.query(`UPDATE checks SET status = $2, last_runtime = '2026-03-04T05:06:07.123456Z' WHERE id = $1`, [
        checkId,
        status,
      ]);
    // Created checks have no status yet: nothing queued.
    expect(await queueRows(database.pool)).toHaveLength(0);

    await setStatus('healthy');
    expect(await queueRows(database.pool)).toMatchObject([
      {
        name: 'check.passed',
        event_id: checkId,
        properties: { last_runtime: '2026-03-04T05:06:07.123456Z' },
        attempts: 0,
        priority: 100,
      },
    ]);
    // The same status again is no change: nothing new, nothing reset.
    await database.pool.query(`UPDATE event_queue SET attempts = 2, error = 'x'`);
    await setStatus('healthy');
    expect(await queueRows(database.pool)).toMatchObject([{ name: 'check.passed', attempts: 2 }]);

    await setStatus('unhealthy');
    expect((await queueRows(database.pool)).map((row) => [row.name, row.event_id])).toEqual([
      ['check.passed', checkId],
      ['check.failed', checkId],
    ]);
    // Back to healthy: the queued check.passed starts afresh.
    await setStatus('healthy');
    expect(await queueRows(database.pool, "name = 'check.passed'")).toMatchObject([{ attempts: 0, error: null }]);

    // No status, or a soft-deleted check: no event.
    await database.pool.query('DELETE FROM event_queue');
    await setStatus(null);
    await database.pool.query('UPDATE checks SET deleted_at = now() WHERE id = $1', [checkId]);
    await setStatus('unhealthy');
    expect(await queueRows(database.pool)).toHaveLength(0);
  });
});

describe('event_queue_summary and failed_events', () => {
  it('gives per event name the pending and failed counts, average attempts, failure times and most common error', async () => {
    const insert = (name: string, attempts: number, error: string | null, minutesAgo: number) =>
      database.pool.query(
        `INSERT INTO event_queue (name, event_id, attempts, error, created_at, last_attempt)
         VALUES ($1, $2, $3, $4, now() - make_interval(mins => $5 + 1), CASE WHEN $3 > 0 THEN now() - make_interval(mins => $5) END)`,
        [name, uuid(), attempts, error, minutesAgo],
      );
    await insert('check.failed', 0, null, 0);
    await insert('check.failed', 0, null, 0);
    await insert('check.failed', 1, 'SMTP said no', 30);
    await insert('check.failed', 4, 'SMTP said no', 10);
    await insert('check.failed', 2, 'timeout', 20);
    await insert('config.created', 0, null, 0);

    const rows = await query('SELECT * FROM event_queue_summary ORDER BY last_failure DESC NULLS LAST');
    const [failedTimes] = await query<{ first: Date; last: Date }>(
      `SELECT min(created_at) AS first, max(last_attempt) AS last FROM event_queue WHERE name = 'check.failed' AND attempts > 0`,
    );
    // Exactly the columns the Event Queue page reads (ui-calls 3.11), in this order.
    expect(rows.map((row) => Object.keys(row))[0]).toEqual([
      'name',
      'pending',
      'failed',
      'average_attempts',
      'first_failure',
      'last_failure',
      'most_common_error',
    ]);
    expect(rows).toEqual([
      {
        name: 'check.failed',
        pending: 2,
        failed: 3,
        average_attempts: 2.33,
        first_failure: failedTimes!.first,
        last_failure: failedTimes!.last,
        most_common_error: 'SMTP said no',
      },
      {
        name: 'config.created',
        pending: 1,
        failed: 0,
        average_attempts: null,
        first_failure: null,
        last_failure: null,
        most_common_error: null,
      },
    ]);

    // failed_events: the failures of the last 7 days, with their columns.
    await database.pool.query(
      `INSERT INTO event_queue (name, event_id, attempts, error, created_at, last_attempt)
       VALUES ('check.failed', $1, 4, 'old', now() - interval '9 days', now() - interval '8 days')`,
      [uuid()],
    );
    const failed = await query<{ error: string }>('SELECT * FROM failed_events ORDER BY last_attempt');
    expect(failed.map((row) => row.error)).toEqual(['SMTP said no', 'timeout', 'SMTP said no']);
    expect(Object.keys(failed[0]!)).toEqual([
      'id',
      'event_id',
      'name',
      'properties',
      'error',
      'delay',
      'created_at',
      'last_attempt',
      'attempts',
      'priority',
    ]);
  });
});

describe('the cleanup job', () => {
  it('deletes events queued more than 30 days ago, dead letters included, and writes a job_history row', async () => {
    const keep = await events.enqueue('check.failed', uuid());
    await database.pool.query(
      `INSERT INTO event_queue (name, event_id, attempts, error, created_at, last_attempt)
       VALUES ('check.failed', $1, 4, 'dead letter', now() - interval '31 days', now() - interval '30 days'),
              ('check.passed', $2, 0, NULL, now() - interval '40 days', NULL)`,
      [uuid(), uuid()],
    );
    expect(await events.cleanup()).toMatchObject({ ran: true, status: 'SUCCESS', outcome: { successCount: 2 } });
    expect((await queueRows(database.pool)).map((row) => row.id)).toEqual([keep]);
    const [history] = await query<{ status: string; success_count: number; details: { deleted: number } }>(
      'SELECT status, success_count, details FROM job_history WHERE name = $1',
      [EVENT_QUEUE_CLEANUP_JOB],
    );
    expect(history).toMatchObject({ status: 'SUCCESS', success_count: 2, details: { deleted: 2 } });
  });
});
