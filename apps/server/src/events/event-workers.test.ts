import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueRows, testEvents, until, uuid } from '../../test/event-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import type { EventHandlerContext, Events, QueuedEvent } from './events.js';

/*
 * Consumers against real PostgreSQL (docs/events.md, ADR 0016): claim order, SKIP LOCKED across
 * two queues (two processes), the sync rollback and back-off, the async write-back, dead
 * letters, LISTEN wake-up and the polling fallback, and a graceful stop.
 */

let database: TestDatabase;
const running: Events[] = [];
const extraPools: pg.Pool[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    'CREATE TABLE handled (event_id uuid, handled_at timestamptz DEFAULT clock_timestamp(), by text)',
  );
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.pool.query('TRUNCATE event_queue, handled');
});
afterEach(async () => {
  for (const events of running.splice(0)) await events.stop();
  for (const pool of extraPools.splice(0)) await pool.end();
});

/** A queue for this test, stopped after it. */
function queue(settings: Parameters<typeof testEvents>[1] = {}): Events {
  const { events } = testEvents(database.pool, settings);
  running.push(events);
  return events;
}

const handledIds = async () =>
  (await database.pool.query<{ event_id: string }>('SELECT event_id FROM handled ORDER BY handled_at')).rows.map(
    (row) => row.event_id,
  );

describe('claiming', () => {
  it('hands events out by priority, highest first, then oldest first', async () => {
    const events = queue();
    const ids = { low: uuid(), old: uuid(), young: uuid(), urgent: uuid() };
    await events.enqueue('check.failed', ids.old);
    await events.enqueue('check.failed', ids.low, {}, { priority: 10 });
    await events.enqueue('check.failed', ids.young);
    await events.enqueue('check.failed', ids.urgent, {}, { priority: 500 });
    const order: string[] = [];
    events.consume({
      mode: 'sync',
      name: 'Order',
      events: ['check.failed'],
      handle: async (event) => {
        order.push(event.eventId!);
      },
    });
    events.start();
    await until(() => order.length === 4);
    expect(order).toEqual([ids.urgent, ids.old, ids.young, ids.low]);
  });

  it('holds a delayed event back until its delay has passed', async () => {
    const events = queue();
    const eventId = uuid();
    await events.enqueue('check.failed', eventId, {}, { delayMs: 400 });
    const [queued] = await queueRows(database.pool);
    events.consume({
      mode: 'sync',
      name: 'Delayed',
      events: ['check.failed'],
      handle: async (event, { tx }) => {
        await tx.query('INSERT INTO handled (event_id) VALUES ($1)', [event.eventId]);
      },
    });
    events.start();
    await until(async () => (await handledIds()).length === 1);
    const [row] = (
      await database.pool.query<{ late: boolean }>(
        `SELECT handled_at >= $1::timestamptz + interval '400 milliseconds' AS late FROM handled`,
        [queued!.created_at],
      )
    ).rows;
    expect(row!.late).toBe(true);
  });

  it('never gives one event to two consumers: two queues in parallel each take their own (SKIP LOCKED)', async () => {
    // Two processes: a pool of their own each (the test database's pool is small).
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: database.url, max: 6 }));
    extraPools.push(...pools);
    const first = testEvents(pools[0]!).events;
    const second = testEvents(pools[1]!).events;
    running.push(first, second);
    const total = 400;
    await database.pool.query(
      `INSERT INTO event_queue (name, event_id) SELECT 'check.failed', gen_random_uuid() FROM generate_series(1, $1::int)`,
      [total],
    );
    // Both queues' first events are held at once before either commits: each claim skipped
    // the other's locked row, so they hold different events.
    const firstEvents = new Map<string, string>();
    let release: () => void = () => undefined;
    const bothHolding = new Promise<void>((resolve) => (release = resolve));
    const consumer =
      (label: string) =>
      async (event: QueuedEvent, { tx }: EventHandlerContext) => {
        if (!firstEvents.has(label)) {
          firstEvents.set(label, event.id);
          if (firstEvents.size === 2) release();
          await bothHolding;
        }
        await tx.query('INSERT INTO handled (event_id, by) VALUES ($1, $2)', [event.eventId, label]);
      };
    first.consume({ mode: 'sync', name: 'First', events: ['check.failed'], concurrency: 4, handle: consumer('first') });
    second.consume({
      mode: 'sync',
      name: 'Second',
      events: ['check.failed'],
      concurrency: 4,
      handle: consumer('second'),
    });
    first.start();
    second.start();
    await until(async () => (await queueRows(database.pool)).length === 0 && (await handledIds()).length >= total);
    const { rows } = await database.pool.query<{ n: number; distinct: number; by: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct, count(DISTINCT by)::int AS by FROM handled',
    );
    expect(rows[0]).toEqual({ n: total, distinct: total, by: 2 });
    expect(firstEvents.get('first')).not.toBe(firstEvents.get('second'));
    expect(first.stats.handled + second.stats.handled).toBe(total);
  });
});

describe('sync consumers', () => {
  it('roll a failed handler back, write the event back with its error, and retry it after its back-off', async () => {
    const events = queue({ backoffBaseMs: 300, backoffExponent: 1 });
    const eventId = uuid();
    let tries = 0;
    let release: () => void = () => undefined;
    const retryAllowed = new Promise<void>((resolve) => (release = resolve));
    events.consume({
      mode: 'sync',
      name: 'Flaky',
      events: ['check.failed'],
      handle: async (event, { tx }) => {
        tries += 1;
        await tx.query('INSERT INTO handled (event_id, by) VALUES ($1, $2)', [event.eventId, `try ${tries}`]);
        if (tries === 1) throw new Error('the notification rule table is locked');
        await retryAllowed;
      },
    });
    await events.enqueue('check.failed', eventId, { last_runtime: 'then' });
    events.start();
    await until(async () => (await queueRows(database.pool, 'attempts = 1')).length === 1);
    const [failed] = await queueRows(database.pool);
    expect(failed).toMatchObject({
      event_id: eventId,
      error: 'the notification rule table is locked',
      attempts: 1,
      priority: 99,
      properties: { last_runtime: 'then' },
    });
    expect(failed!.last_attempt).not.toBeNull();
    // The first try's write went with the rollback.
    expect(await handledIds()).toEqual([]);
    release();
    await until(async () => (await queueRows(database.pool)).length === 0);
    const { rows } = await database.pool.query<{ by: string; waited: boolean }>(
      `SELECT by, handled_at >= $1::timestamptz + interval '300 milliseconds' AS waited FROM handled`,
      [failed!.last_attempt],
    );
    expect(rows).toEqual([{ by: 'try 2', waited: true }]);
    expect(events.stats).toMatchObject({ handled: 1, failed: 1, deadLetters: 0 });
  });

  it('run every sync handler of an event name in the one transaction: one failing rolls back both', async () => {
    const events = queue({ backoffBaseMs: 20 });
    let failures = 1;
    events.consume({
      mode: 'sync',
      name: 'Notifications',
      events: ['check.failed'],
      handle: async (event, { tx }) => {
        await tx.query('INSERT INTO handled (event_id, by) VALUES ($1, $2)', [event.eventId, 'notifications']);
      },
    });
    events.consume({
      mode: 'sync',
      name: 'Playbooks',
      events: ['check.failed', 'check.passed'],
      handle: async (event, { tx }) => {
        if (event.name === 'check.failed' && failures-- > 0) throw new Error('no playbook runner');
        await tx.query('INSERT INTO handled (event_id, by) VALUES ($1, $2)', [event.eventId, 'playbooks']);
      },
    });
    const failedId = uuid();
    const passedId = uuid();
    await events.enqueue('check.failed', failedId);
    await events.enqueue('check.passed', passedId);
    events.start();
    await until(async () => (await handledIds()).length === 3);
    const { rows } = await database.pool.query<{ event_id: string; by: string }>(
      'SELECT event_id, by FROM handled ORDER BY by, event_id',
    );
    expect(rows).toEqual(
      [
        { event_id: failedId, by: 'notifications' },
        { event_id: failedId, by: 'playbooks' },
        { event_id: passedId, by: 'playbooks' },
      ].sort((a, b) => a.by.localeCompare(b.by) || a.event_id.localeCompare(b.event_id)),
    );
    expect(events.stats).toMatchObject({ handled: 2, failed: 1 });
  });

  it('leave an event that fails every try as a dead letter with its error after 1 + maxRetries tries', async () => {
    const events = queue({ backoffBaseMs: 10, backoffExponent: 1, maxRetries: 2 });
    const tries = new Map<string, number>();
    events.consume({
      mode: 'sync',
      name: 'Broken',
      events: ['check.failed'],
      handle: async (event) => {
        const n = (tries.get(event.id) ?? 0) + 1;
        tries.set(event.id, n);
        if (event.properties.poison === 'yes') throw new Error(`webhook answered 500 (try ${n})`);
      },
    });
    const poison = await events.enqueue('check.failed', uuid(), { poison: 'yes' });
    events.start();
    await until(() => events.stats.deadLetters === 1);
    // A later event is handled; the dead letter is not tried again.
    const later = await events.enqueue('check.failed', uuid());
    await until(async () => tries.get(later) === 1 && (await queueRows(database.pool)).length === 1);
    expect(tries.get(poison)).toBe(3);
    expect(await queueRows(database.pool)).toMatchObject([
      { id: poison, attempts: 3, error: 'webhook answered 500 (try 3)', priority: 97 },
    ]);
    const { rows } = await database.pool.query('SELECT name, failed, most_common_error FROM event_queue_summary');
    expect(rows).toEqual([{ name: 'check.failed', failed: 1, most_common_error: 'webhook answered 500 (try 3)' }]);
  });
});

describe('async consumers', () => {
  it('take batches and write the events the handler returns back with attempts + 1 and priority - 1', async () => {
    const events = queue({ backoffBaseMs: 3_600_000 });
    const batches: number[] = [];
    events.consume({
      mode: 'async',
      name: 'Sender',
      events: ['check.failed'],
      batchSize: 10,
      handle: async (batch) => {
        batches.push(batch.length);
        return batch
          .filter((event) => event.properties.fail === 'yes')
          .map((event) => ({ event, error: new Error(`Slack answered 429 for ${event.properties.n}`) }));
      },
    });
    const failing: string[] = [];
    for (let n = 0; n < 25; n += 1) {
      const id = await events.enqueue('check.failed', uuid(), { n: String(n), fail: n % 5 === 0 ? 'yes' : 'no' });
      if (n % 5 === 0) failing.push(id);
    }
    events.start();
    await until(() => events.stats.handled + events.stats.failed === 25);
    expect(batches.every((size) => size <= 10)).toBe(true);
    const rows = await queueRows(database.pool);
    expect(rows.map((row) => row.id).sort()).toEqual([...failing].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: 1, priority: 99, error: `Slack answered 429 for ${row.properties!.n}` });
    }
    expect(events.stats).toMatchObject({ handled: 20, failed: 5 });
  });

  it('fail the whole batch when the handler throws', async () => {
    const events = queue({ backoffBaseMs: 3_600_000 });
    events.consume({
      mode: 'async',
      name: 'Down',
      events: ['config.created'],
      batchSize: 50,
      handle: () => Promise.reject(new Error('connection refused')),
    });
    for (let n = 0; n < 3; n += 1) await events.enqueue('config.created', uuid());
    events.start();
    await until(() => events.stats.failed === 3);
    expect(await queueRows(database.pool)).toMatchObject([
      { attempts: 1, error: 'connection refused' },
      { attempts: 1, error: 'connection refused' },
      { attempts: 1, error: 'connection refused' },
    ]);
  });
});

describe('waking up', () => {
  it('is woken by the NOTIFY of a new event, with no poll for ten minutes', async () => {
    const events = queue({ pollIntervalMs: 600_000 });
    const seen: string[] = [];
    events.consume({
      mode: 'sync',
      name: 'Listener',
      events: ['component.unhealthy'],
      handle: async (event) => {
        seen.push(event.eventId!);
      },
    });
    events.start();
    // The loop found the queue empty and sleeps for the poll interval.
    await until(() => events.stats.idle === 1);
    const eventId = uuid();
    await events.enqueue('component.unhealthy', eventId);
    await until(() => seen.length === 1);
    expect(seen).toEqual([eventId]);
  });

  it('runs a consumer registered after the queue started, listening only from then on', async () => {
    const events = queue();
    events.start();
    expect(events.stats.claims).toBe(0);
    const seen: string[] = [];
    const eventId = uuid();
    await events.enqueue('config.unknown', eventId);
    events.consume({
      mode: 'sync',
      name: 'Late',
      events: ['config.unknown'],
      handle: async (event) => {
        seen.push(event.eventId!);
      },
    });
    await until(() => seen.length === 1);
    await until(() => events.stats.idle === 1);
    const later = uuid();
    await events.enqueue('config.unknown', later);
    await until(() => seen.length === 2);
    expect(seen).toEqual([eventId, later]);
  });

  it('polls for events whose notification never came', async () => {
    const events = queue({ pollIntervalMs: 100 });
    const seen: string[] = [];
    events.consume({
      mode: 'sync',
      name: 'Poller',
      events: ['component.warning'],
      handle: async (event) => {
        seen.push(event.eventId!);
      },
    });
    events.start();
    await until(() => events.stats.idle === 1);
    // Triggers off for this session: the row arrives without NOTIFY.
    const client = await database.pool.connect();
    const eventId = uuid();
    try {
      await client.query("SET session_replication_role = 'replica'");
      await client.query(`INSERT INTO event_queue (name, event_id) VALUES ('component.warning', $1)`, [eventId]);
      await client.query("SET session_replication_role = 'origin'");
    } finally {
      client.release();
    }
    await until(() => seen.length === 1);
    expect(seen).toEqual([eventId]);
  });
});

describe('stopping', () => {
  it("aborts a handler's signal after the grace and stops waiting for it after twice that", async () => {
    const events = queue({ stopGraceMs: 100 });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let aborted = false;
    let started = false;
    events.consume({
      mode: 'async',
      name: 'Stuck',
      events: ['config.deleted'],
      handle: async (_batch, { signal }) => {
        started = true;
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        aborted = true;
        await gate;
      },
    });
    await events.enqueue('config.deleted', uuid());
    events.start();
    await until(() => started);
    await events.stop();
    expect(aborted).toBe(true);
    // Its transaction is still open: the event is neither handled nor failed yet.
    expect(events.stats).toMatchObject({ handled: 0, failed: 0 });
    release();
    await until(() => events.stats.handled === 1);
  });

  it('lets the event under way finish and commit, then claims nothing more', async () => {
    const events = queue();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    events.consume({
      mode: 'sync',
      name: 'Slow',
      events: ['check.passed'],
      handle: async (event, { tx }) => {
        started += 1;
        await gate;
        await tx.query('INSERT INTO handled (event_id) VALUES ($1)', [event.eventId]);
      },
    });
    const first = uuid();
    await events.enqueue('check.passed', first);
    events.start();
    await until(() => started === 1);
    let stopped = false;
    const stopping = events.stop().then(() => (stopped = true));
    await events.enqueue('check.passed', uuid());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await handledIds()).toEqual([first]);
    expect(started).toBe(1);
    expect(await queueRows(database.pool)).toHaveLength(1);
  });
});
