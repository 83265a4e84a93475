import { pino } from 'pino';
import type pg from 'pg';
import type { Queryable } from '../src/db/transaction.js';
import { createEvents, type EventQueueSettings } from '../src/events/events.js';
import { createJobs } from '../src/jobs/jobs.js';

/** Helpers of the event queue tests (src/events/*.test.ts, test/event-queue-crash.test.ts). */

const silent = pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });

/** Resolves once `condition` holds (polled), so no test depends on how fast the machine is. */
export async function until(condition: () => boolean | Promise<boolean>, intervalMs = 10): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, intervalMs));
}

/** An event queue of its own on `pool` (one per simulated process), with short back-offs unless told. */
export function testEvents(pool: pg.Pool, settings: Partial<EventQueueSettings> = {}) {
  const jobs = createJobs({ pool, logger: silent });
  const events = createEvents({
    pool,
    logger: silent,
    jobs,
    settings: { backoffBaseMs: 50, backoffExponent: 1, pollIntervalMs: 60_000, stopGraceMs: 5_000, ...settings },
  });
  return { events, jobs };
}

/** A row of event_queue as the tests read it. */
export type QueueRow = {
  id: string;
  event_id: string | null;
  name: string;
  properties: Record<string, string> | null;
  error: string | null;
  delay: string | null;
  created_at: Date;
  last_attempt: Date | null;
  attempts: number;
  priority: number;
};

/** The queue's rows (oldest first) as `db` (a pool, or a client inside a transaction) sees them. */
export async function queueRows(db: Queryable, where = 'true', values: unknown[] = []): Promise<QueueRow[]> {
  return (await db.query<QueueRow>(`SELECT * FROM event_queue WHERE ${where} ORDER BY created_at, id`, values)).rows;
}

/** A fresh random UUID (the row an event is about). */
export const uuid = () => crypto.randomUUID();
