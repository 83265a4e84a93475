import pg from 'pg';
import type { Queryable } from '../db/transaction.js';

/**
 * SQL of the event queue (migration 13_event_queue.sql, docs/events.md): the upsert every
 * producer uses, the claim, writing a failed try back, the next due time and the cleanup.
 */

/** One event as a consumer receives it (a row of `event_queue`). */
export type QueuedEvent = {
  id: string;
  name: string;
  /** The row the event is about; null when it was queued without one. */
  eventId: string | null;
  properties: Record<string, string>;
  /** The error of the last failed try; null when it never failed. */
  error: string | null;
  /** Not claimed before `createdAt` + this many milliseconds. */
  delayMs: number | null;
  createdAt: Date;
  lastAttempt: Date | null;
  /** Tries that failed so far. */
  attempts: number;
  priority: number;
};

/** How claims space out retries and when they give up (EVENT_QUEUE_DEFAULTS). */
export type RetryPolicy = { backoffBaseMs: number; backoffExponent: number; maxRetries: number };

type EventRow = {
  id: string;
  name: string;
  event_id: string | null;
  properties: Record<string, string> | null;
  error: string | null;
  delay: string | null;
  created_at: Date;
  last_attempt: Date | null;
  attempts: number;
  priority: number;
};

const NANOSECONDS_PER_MS = 1_000_000;

const toEvent = (row: EventRow): QueuedEvent => ({
  id: row.id,
  name: row.name,
  eventId: row.event_id,
  properties: row.properties ?? {},
  error: row.error,
  delayMs: row.delay === null ? null : Number(row.delay) / NANOSECONDS_PER_MS,
  createdAt: row.created_at,
  lastAttempt: row.last_attempt,
  attempts: row.attempts,
  priority: row.priority,
});

/** SQL text (literals, see beginClaim) of each retry setting. */
type RetrySql = { maxRetries: string; baseSeconds: string; exponent: string };

// An event is due once its delay has passed and, after a failed try, its back-off
// (base × attempts^exponent); it is claimable while it has retries left.
const due = (retry: RetrySql) => `(delay IS NULL OR created_at + make_interval(secs => delay / 1e9) <= now())
      AND attempts <= ${retry.maxRetries}
      AND (last_attempt IS NULL OR last_attempt + make_interval(secs => ${retry.baseSeconds} * power(attempts, ${retry.exponent})) <= now())`;

const COLUMNS = 'id, event_id, name, properties, error, delay, created_at, last_attempt, attempts, priority';

/**
 * The claim, in one statement: the next due events of one name, highest priority first, then
 * oldest, skipping those another consumer holds, deleted and returned (in that order). Run
 * inside the transaction that handles them: its commit removes them for good, a rollback (or
 * the process dying) puts them back. One name per claim lets event_queue_pop hand the rows
 * out in order (a list of names would sort every candidate on each claim).
 *
 * When it claims nothing, its one row instead says in how many milliseconds the next event of
 * the name is due (0: one is due but held by another consumer; NULL: none waits, only dead
 * letters or nothing), so an idle consumer sleeps until a delay or back-off ends without
 * asking in a statement of its own.
 */
const claimStatement = (name: string, limit: string, retry: RetrySql) => `
  WITH claimed AS (
    DELETE FROM event_queue WHERE id = ANY (ARRAY(
      SELECT id FROM event_queue
      WHERE name = ${name} AND ${due(retry)}
      ORDER BY priority DESC, created_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ))
    RETURNING ${COLUMNS}
  )
  SELECT ${COLUMNS}, NULL::float8 AS next_due_ms FROM claimed
  UNION ALL
  SELECT NULL::uuid, NULL::uuid, NULL::text, NULL::jsonb, NULL::text, NULL::bigint, NULL::timestamptz,
         NULL::timestamptz, NULL::integer, NULL::integer,
         (SELECT greatest(0, extract(epoch FROM min(greatest(
                   created_at + make_interval(secs => coalesce(delay, 0) / 1e9),
                   coalesce(last_attempt + make_interval(secs => ${retry.baseSeconds} * power(attempts, ${retry.exponent})), created_at)
                 )) - clock_timestamp()) * 1000)::float8
          FROM event_queue WHERE name = ${name} AND attempts <= ${retry.maxRetries})
  WHERE NOT EXISTS (SELECT 1 FROM claimed)
  ORDER BY priority DESC NULLS LAST, created_at`;

/** A number as an SQL literal; refuses anything that is not a finite number. */
function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
  return String(value);
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;

export function createEventsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /**
     * Queues an event, or starts the queued one with the same (name, event id) afresh
     * (lookout_enqueue_event); returns its row id. With `tx`, it is queued when that commits.
     */
    async enqueue(
      event: {
        name: string;
        eventId: string | null;
        properties: Record<string, string>;
        priority: number;
        delayMs: number | null;
      },
      tx?: Queryable,
    ): Promise<string> {
      const { rows } = await db(tx).query<{ id: string }>({
        name: 'event_queue_enqueue',
        text: 'SELECT lookout_enqueue_event($1, $2, $3, $4, $5) AS id',
        values: [
          event.name,
          event.eventId,
          JSON.stringify(event.properties),
          event.priority,
          event.delayMs === null ? null : Math.round(event.delayMs * NANOSECONDS_PER_MS),
        ],
      });
      return (rows[0] as { id: string }).id;
    },

    /**
     * Opens a transaction on `client` and claims up to `limit` due events named `name` in it
     * (see claimStatement), then sets the savepoint `event_handler` a failed handler rolls
     * back to. BEGIN, the claim and SAVEPOINT go in one message: one round trip per pass
     * instead of three, which is most of a small event's cost. The name is one of EVENT_NAMES
     * and the numbers are the queue's settings; both are still quoted as literals. With no
     * event claimed, `nextDueMs` says when the next one is due (null: none waits).
     */
    async beginClaim(
      client: Queryable,
      name: string,
      limit: number,
      policy: RetryPolicy,
    ): Promise<{ events: QueuedEvent[]; nextDueMs: number | null }> {
      const statement = claimStatement(pg.escapeLiteral(name), numberLiteral(limit), {
        maxRetries: numberLiteral(policy.maxRetries),
        baseSeconds: numberLiteral(policy.backoffBaseMs / 1000),
        exponent: numberLiteral(policy.backoffExponent),
      });
      // A simple-protocol query of several statements answers one result per statement.
      const results = (await client.query(`BEGIN; ${statement}; SAVEPOINT event_handler`)) as unknown as [
        pg.QueryResult,
        pg.QueryResult<EventRow & { next_due_ms: number | null }>,
        pg.QueryResult,
      ];
      const rows = results[1].rows;
      const idle = rows.length === 1 && rows[0]!.id === null;
      return idle ? { events: [], nextDueMs: rows[0]!.next_due_ms } : { events: rows.map(toEvent), nextDueMs: 0 };
    },

    /**
     * Puts claimed events back as failed tries, in the claiming transaction: one attempt more,
     * the error, the time, and `priorityDrop` lower (an async consumer's failures make way for
     * fresh events). The same row id, created_at and properties.
     */
    async writeBackFailed(
      tx: Queryable,
      failed: ReadonlyArray<{ event: QueuedEvent; error: string }>,
      priorityDrop: number,
    ): Promise<void> {
      if (failed.length === 0) return;
      await tx.query(
        `INSERT INTO event_queue (id, event_id, name, properties, error, delay, created_at, last_attempt, attempts, priority)
         SELECT f.id, f.event_id, f.name, f.properties, f.error, f.delay, f.created_at, now(), f.attempts + 1, f.priority - $2
         FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, event_id uuid, name text, properties jsonb, error text,
                                                 delay bigint, created_at timestamptz, attempts integer, priority integer)`,
        [
          JSON.stringify(
            failed.map(({ event, error }) => ({
              id: event.id,
              event_id: event.eventId,
              name: event.name,
              properties: event.properties,
              error,
              delay: event.delayMs === null ? null : Math.round(event.delayMs * NANOSECONDS_PER_MS),
              created_at: event.createdAt.toISOString(),
              attempts: event.attempts,
              priority: event.priority,
            })),
          ),
          priorityDrop,
        ],
      );
    },

    /**
     * Counts a failed try against queued events by id, outside the claiming transaction (which
     * failed as a whole): one attempt more, the error, the time, `priorityDrop` lower.
     */
    async markFailed(ids: readonly string[], error: string, priorityDrop: number): Promise<void> {
      await pool.query(
        `UPDATE event_queue SET attempts = attempts + 1, error = $2, last_attempt = now(), priority = priority - $3
         WHERE id = ANY ($1::uuid[])`,
        [ids, error, priorityDrop],
      );
    },

    /** Deletes events queued before `cutoff` (dead letters included); returns how many. */
    async deleteOlderThan(cutoff: Date, tx?: Queryable): Promise<number> {
      const result = await db(tx).query('DELETE FROM event_queue WHERE created_at < $1', [cutoff]);
      return result.rowCount ?? 0;
    },
  };
}
