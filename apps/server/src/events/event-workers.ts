import type pg from 'pg';
import type { Logger } from 'pino';
import { EVENT_QUEUE_CHANNEL } from '@lookout/contracts';
import { createNotificationListener } from '../db/notification-listener.js';
import type { EventLane } from './event-consumers.js';
import type { EventQueueSettings } from './event-fns.js';
import { createEventPasses, type EventOutcomeRecorder } from './event-passes.js';
import type { EventsRepository } from './events-repository.js';

/**
 * The claim loops of this process (ADR 0003, ADR 0016): `concurrency` loops per lane, each
 * claiming again at once while it finds events, then sleeping until the next event of its name
 * is due (a delay, a back-off), a NOTIFY on event_queue_updates names its event (one LISTEN
 * connection, routed by the payload), or the poll interval ends, whichever comes first. Stop
 * lets the passes under way finish (their handlers' signal is aborted after the grace).
 */

export type EventWorkersDeps = {
  pool: pg.Pool;
  repository: Pick<EventsRepository, 'beginClaim' | 'writeBackFailed' | 'markFailed'>;
  settings: EventQueueSettings;
  logger: Logger;
  recordOutcome?: EventOutcomeRecorder;
};

/**
 * What the loops did since they started, and how many sleep now waiting for work (tests and
 * the benchmark read it).
 */
export type EventWorkerStats = { handled: number; failed: number; deadLetters: number; claims: number; idle: number };

/** How long a loop waits before claiming again when a due event is held by another consumer. */
const HELD_RETRY_MS = 500;
/** After a database error the loop waits this long, doubled each time, up to the poll interval. */
const ERROR_RETRY_MS = 250;

type Loop = { wake: () => void; sleep: (ms: number) => Promise<void>; done: Promise<void> };

/** A sleep that a wake ends early; a wake while awake makes the next sleep return at once. */
function createSleeper() {
  let pendingWake = false;
  let resolveSleep: (() => void) | undefined;
  return {
    wake() {
      const resolve = resolveSleep;
      resolveSleep = undefined;
      if (resolve) resolve();
      else pendingWake = true;
    },
    sleep(ms: number) {
      return new Promise<void>((resolve) => {
        if (pendingWake) {
          pendingWake = false;
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          resolveSleep = undefined;
          resolve();
        }, ms);
        // stop() wakes every loop; a sleep alone never keeps the process running.
        timer.unref();
        resolveSleep = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

export function createEventWorkers(deps: EventWorkersDeps) {
  const { pool, settings } = deps;
  const logger = deps.logger.child({ module: 'events' });
  const stats: EventWorkerStats = { handled: 0, failed: 0, deadLetters: 0, claims: 0, idle: 0 };
  const abort = new AbortController();
  const passes = createEventPasses({
    pool,
    repository: deps.repository,
    settings,
    logger,
    signal: abort.signal,
    stats,
    ...(deps.recordOutcome ? { recordOutcome: deps.recordOutcome } : {}),
  });
  const loopsByLane = new Map<string, Loop[]>();
  const loopsByEvent = new Map<string, Set<Loop>>();
  let listener: ReturnType<typeof createNotificationListener> | undefined;
  let started = false;
  let stopping = false;

  async function run(lane: EventLane, loop: Loop): Promise<void> {
    let errorDelay = 0;
    while (!stopping) {
      let pass: { claimed: number; nextDueMs: number | null };
      try {
        stats.claims += 1;
        pass = await passes.pass(lane);
        errorDelay = 0;
      } catch (error) {
        errorDelay = Math.min(errorDelay === 0 ? ERROR_RETRY_MS : errorDelay * 2, settings.pollIntervalMs);
        logger.warn({ err: error, lane: lane.key, retryInMs: errorDelay }, 'Event consumer pass failed; retrying');
        await loop.sleep(errorDelay);
        continue;
      }
      if (pass.claimed > 0 || stopping) continue;
      // Until the next event is due (a delay or back-off ends), or the poll. 0: one is due but
      // another consumer holds it (or it just became due): look again shortly.
      const due = pass.nextDueMs;
      const wait = due === null ? settings.pollIntervalMs : due > 0 ? Math.ceil(due) + 2 : HELD_RETRY_MS;
      stats.idle += 1;
      try {
        await loop.sleep(Math.min(wait, settings.pollIntervalMs));
      } finally {
        stats.idle -= 1;
      }
    }
  }

  function spawn(lane: EventLane) {
    // One LISTEN connection per process, taken when the first consumer starts (none without).
    if (!listener) {
      listener = createNotificationListener(pool, logger);
      listener.subscribe(EVENT_QUEUE_CHANNEL, (eventName) => {
        for (const loop of loopsByEvent.get(eventName) ?? []) loop.wake();
      });
    }
    const loops = loopsByLane.get(lane.key) ?? [];
    loopsByLane.set(lane.key, loops);
    const routed = loopsByEvent.get(lane.eventName) ?? new Set<Loop>();
    loopsByEvent.set(lane.eventName, routed);
    while (loops.length < lane.concurrency) {
      const sleeper = createSleeper();
      const loop: Loop = { ...sleeper, done: Promise.resolve() };
      loop.done = run(lane, loop).catch((error: unknown) =>
        logger.error({ err: error, lane: lane.key }, 'Event consumer loop ended unexpectedly'),
      );
      loops.push(loop);
      routed.add(loop);
    }
  }

  return {
    stats,
    /** Starts (or widens) the loops of lanes registered after start(); start() takes the earlier ones. */
    addLanes(lanes: EventLane[]) {
      if (started && !stopping) for (const lane of lanes) spawn(lane);
    },
    /** Starts a loop group per lane, and the LISTEN connection that wakes them. */
    start(lanes: EventLane[]) {
      if (started) return;
      started = true;
      for (const lane of lanes) spawn(lane);
    },
    /**
     * Stops claiming and waits for the passes under way; after stopGraceMs their handlers'
     * signal is aborted, and after twice that it stops waiting: a pass that never ends keeps
     * its transaction open until the process exits, which rolls it back (the events stay
     * queued). Then closes the LISTEN connection.
     */
    async stop() {
      if (stopping) return;
      stopping = true;
      const loops = [...loopsByLane.values()].flat();
      for (const loop of loops) loop.wake();
      const timers: NodeJS.Timeout[] = [];
      const after = (ms: number, then: () => void) => {
        const timer = setTimeout(then, ms);
        timer.unref();
        timers.push(timer);
      };
      after(settings.stopGraceMs, () => abort.abort(new Error('The event queue is stopping')));
      const gaveUp = new Promise<'gave up'>((resolve) => after(settings.stopGraceMs * 2, () => resolve('gave up')));
      try {
        const ended = await Promise.race([Promise.all(loops.map((loop) => loop.done)), gaveUp]);
        if (ended === 'gave up') {
          logger.warn(
            { stopGraceMs: settings.stopGraceMs },
            'Event handlers still running at stop; their transactions roll back when the process exits',
          );
        }
      } finally {
        for (const timer of timers) clearTimeout(timer);
        await listener?.close();
      }
    },
  };
}
