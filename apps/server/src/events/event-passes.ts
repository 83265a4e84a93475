import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventLane, FailedEvent } from './event-consumers.js';
import { errorText, type EventQueueSettings } from './event-fns.js';
import type { EventsRepository, QueuedEvent } from './events-repository.js';

/**
 * One pass of a lane: a transaction that claims due events of its name, runs the handlers in
 * it and commits. What makes the queue lose nothing (docs/events.md, ADR 0016):
 *
 * - the claim deletes the events inside the handling transaction, so until COMMIT they are
 *   only locked: a crash, a lost connection or a failed COMMIT leaves them queued as before;
 * - a handler's failure rolls back to a savepoint taken after the claim (its writes go, the
 *   claim stays) and the event is written back in the same transaction with its error, one
 *   attempt more and one priority lower, so no other consumer can take it in between;
 * - when the transaction itself fails after a claim (a handler broke it, COMMIT refused a
 *   deferred constraint), the events are marked failed by a separate statement, so a poison
 *   event uses up its tries instead of being claimed again at once forever.
 */

/** How each try ended, for the metrics. */
export type EventOutcomeRecorder = (outcome: { name: string; outcome: 'handled' | 'failed' }) => void;

export type EventPassDeps = {
  pool: pg.Pool;
  repository: Pick<EventsRepository, 'beginClaim' | 'writeBackFailed' | 'markFailed'>;
  settings: EventQueueSettings;
  logger: Pick<Logger, 'warn' | 'info'>;
  signal: AbortSignal;
  recordOutcome?: EventOutcomeRecorder;
  stats: { handled: number; failed: number; deadLetters: number };
};

/** A failed try writes the event back one priority lower, behind fresh events of its name. */
const PRIORITY_DROP = 1;

export function createEventPasses(deps: EventPassDeps) {
  const { pool, repository, settings, logger, signal, stats } = deps;

  function noteFailures(lane: EventLane, failed: ReadonlyArray<{ event: QueuedEvent; error: string }>) {
    for (const { event, error } of failed) {
      const attempts = event.attempts + 1;
      const fields = { event: event.name, id: event.id, eventId: event.eventId, attempts, error, lane: lane.key };
      if (attempts > settings.maxRetries) {
        stats.deadLetters += 1;
        logger.warn(fields, 'Event failed its last try; it stays in the queue as a dead letter');
      } else {
        logger.info(fields, 'Event failed; it will be tried again after its back-off');
      }
    }
  }

  /** Runs the lane's handlers on the claimed events; returns those that failed and why. */
  async function handle(lane: EventLane, client: pg.PoolClient, events: QueuedEvent[]): Promise<FailedEvent[]> {
    const context = { tx: client, signal };
    try {
      if (lane.mode === 'sync') {
        const [event] = events as [QueuedEvent];
        for (const consumer of lane.handlers) await consumer.handle(event, context);
        return [];
      }
      const returned = (await lane.consumer.handle(events, context)) ?? [];
      // Only events of this batch, each once: a handler's mistake must not write rows back twice.
      const byId = new Map(events.map((event) => [event.id, event]));
      const failed = new Map<string, FailedEvent>();
      for (const entry of returned) {
        const event = byId.get(entry?.event?.id);
        if (event && !failed.has(event.id)) failed.set(event.id, { event, error: entry.error });
      }
      return [...failed.values()];
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT event_handler');
      return events.map((event) => ({ event, error }));
    }
  }

  /**
   * Claims up to `limit` events of the lane and handles them; resolves with how many it
   * claimed and, when none, in how many milliseconds the next is due (null: none waits).
   */
  async function pass(lane: EventLane): Promise<{ claimed: number; nextDueMs: number | null }> {
    const limit = lane.mode === 'sync' ? 1 : (lane.consumer.batchSize ?? 1);
    const client = await pool.connect();
    let claimed: QueuedEvent[] = [];
    let healthy = true;
    try {
      const claim = await repository.beginClaim(client, lane.eventName, limit, settings);
      claimed = claim.events;
      if (claimed.length === 0) {
        await client.query('COMMIT');
        return { claimed: 0, nextDueMs: claim.nextDueMs };
      }
      const failed = (await handle(lane, client, claimed)).map(({ event, error }) => ({
        event,
        error: errorText(error),
      }));
      await repository.writeBackFailed(client, failed, PRIORITY_DROP);
      await client.query('COMMIT');
      noteFailures(lane, failed);
      stats.failed += failed.length;
      stats.handled += claimed.length - failed.length;
      const failedIds = new Set(failed.map(({ event }) => event.id));
      for (const event of claimed) {
        deps.recordOutcome?.({ name: event.name, outcome: failedIds.has(event.id) ? 'failed' : 'handled' });
      }
      return { claimed: claimed.length, nextDueMs: 0 };
    } catch (error) {
      healthy = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      if (claimed.length > 0) await markFailedAfterAbort(lane, claimed, error);
      throw error;
    } finally {
      client.release(healthy ? undefined : true);
    }
  }

  /**
   * The transaction failed after claiming: the events are back as they were. Count the try
   * against them with a statement of its own; if the database is unreachable this fails too
   * and they stay as they were (to be claimed again once it is back).
   */
  async function markFailedAfterAbort(lane: EventLane, claimed: QueuedEvent[], error: unknown) {
    const message = errorText(error);
    try {
      await repository.markFailed(
        claimed.map((event) => event.id),
        message,
        PRIORITY_DROP,
      );
      noteFailures(
        lane,
        claimed.map((event) => ({ event, error: message })),
      );
      stats.failed += claimed.length;
      for (const event of claimed) deps.recordOutcome?.({ name: event.name, outcome: 'failed' });
    } catch {
      // Reported by the caller with the original error.
    }
  }

  return { pass };
}
