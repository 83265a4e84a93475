import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventName } from '@lookout/contracts';
import type { Queryable } from '../db/transaction.js';
import type { Jobs } from '../jobs/jobs.js';
import { createConsumerRegistry, type EventConsumer } from './event-consumers.js';
import { checkEventInput, resolveEventQueueSettings, type EventQueueSettings } from './event-fns.js';
import { createEventWorkers } from './event-workers.js';
import { createEventsRepository } from './events-repository.js';

/**
 * The event queue (docs/events.md, ADR 0016), shared machinery like the jobs module: modules
 * receive it in their deps (`events`, narrowed with Pick<>), queue events with `enqueue` (also
 * inside their own transaction) and register consumers with `consume` when they are built.
 * `lookout serve` starts the consumers only where background workers run (`--role worker` or
 * `all`) and stops them, letting the work under way finish, before the database closes. The
 * daily cleanup of old events is a job of the jobs module (a job_history row per run).
 */

export type { EventConsumer, SyncEventConsumer, AsyncEventConsumer, FailedEvent } from './event-consumers.js';
export type { EventHandlerContext } from './event-consumers.js';
export type { EventQueueSettings } from './event-fns.js';
export type { QueuedEvent } from './events-repository.js';

/** Where each try's outcome goes (the metrics module's recordEvent). */
export type EventMetrics = {
  recordEvent: (outcome: { name: string; outcome: 'handled' | 'failed' }) => void;
};

export type EventsDeps = {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'run' | 'schedule'>;
  metrics?: EventMetrics;
  /** Overrides of EVENT_QUEUE_DEFAULTS (tests shorten the back-off and the poll). */
  settings?: Partial<EventQueueSettings>;
};

export type EnqueueOptions = {
  /** Higher is claimed first (default 100). */
  priority?: number;
  /** Not handed to a consumer before this many milliseconds have passed. */
  delayMs?: number;
  /** The caller's transaction: the event is queued (and consumers woken) when it commits. */
  tx?: Queryable;
};

/** The job_history name of the daily cleanup. */
export const EVENT_QUEUE_CLEANUP_JOB = 'CleanupEventQueue';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type Events = ReturnType<typeof createEvents>;

export function createEvents(deps: EventsDeps) {
  const settings = resolveEventQueueSettings(deps.settings);
  const repository = createEventsRepository(deps.pool);
  const registry = createConsumerRegistry();
  const workers = createEventWorkers({
    pool: deps.pool,
    repository,
    settings,
    logger: deps.logger,
    ...(deps.metrics ? { recordOutcome: deps.metrics.recordEvent } : {}),
  });

  /** Deletes events queued more than retentionDays ago, dead letters included. */
  const cleanup = async () => {
    const cutoff = new Date(Date.now() - settings.retentionDays * DAY_MS);
    const deleted = await repository.deleteOlderThan(cutoff);
    return { successCount: deleted, details: { deleted, queuedBefore: cutoff.toISOString() } };
  };
  // Looked at hourly and run when no replica ran it in the last day, so a restart neither
  // skips nor repeats it.
  deps.jobs.schedule(EVENT_QUEUE_CLEANUP_JOB, { everyMs: HOUR_MS, firstAfterMs: 5 * 60_000 }, () =>
    deps.jobs.run(EVENT_QUEUE_CLEANUP_JOB, cleanup, { minGapMs: DAY_MS }),
  );

  return {
    /**
     * Queues event `name` about row `eventId` (null: no de-duplication) with string
     * `properties`; returns the queue row's id. The same (name, eventId) already queued is
     * started afresh rather than added twice. Bad input throws a 400 AppError saying what to fix.
     */
    async enqueue(
      name: EventName,
      eventId: string | null,
      properties: Record<string, string> = {},
      options: EnqueueOptions = {},
    ): Promise<string> {
      const event = checkEventInput(name, eventId, properties, options);
      return repository.enqueue(event, options.tx);
    },

    /**
     * Registers a consumer (sync or async, see EventConsumer); it runs once the queue is
     * started. A mistake in the registration throws at once.
     */
    consume(consumer: EventConsumer): void {
      workers.addLanes(registry.add(consumer));
    },

    /** Runs the cleanup job now (a job_history row, as the daily run writes). */
    cleanup: () => deps.jobs.run(EVENT_QUEUE_CLEANUP_JOB, cleanup),

    /** Starts the consumers (worker replicas only). */
    start: () => workers.start(registry.lanes()),
    /** Stops claiming and waits for the events under way. */
    stop: () => workers.stop(),

    /** What this process's consumers did (tests, the benchmark). */
    stats: workers.stats,
    settings,
  };
}
