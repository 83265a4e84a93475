import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { forThisReplica, type SelfCanaryTargets } from './health-canary-fns.js';
import type { CheckResultRow, ClaimedCheck, HealthRepository } from './health-repository.js';
import { checkEntryOf, invalidResult, resultRow, type CanarySecretResolver } from './health-run-fns.js';
import { createScheduleCache, nextRuntime, parseSchedule } from './health-schedule-fns.js';
import type { RunCheckOptions } from './runners/runners.js';
import { connectionsFor, type CanaryConnectionResolver } from './runners/check-connections.js';
import type { CheckResult } from './runners/runner-types.js';
import type { CanaryCheckEntry } from '@lookout/contracts';
import type { Metrics } from '../metrics/metrics-service.js';

/**
 * The check scheduler (ARCHITECTURE section 6, ADR 0003). Due checks are rows: each worker
 * claims a small batch with FOR UPDATE SKIP LOCKED, runs them with bounded concurrency, and
 * writes the results in batches. A claim is a lease (next_runtime moves to its end), so the
 * checks of a crashed worker run again once it expires, and no two workers run one check at
 * once. The worker sleeps until the next due time, and wakes early on NOTIFY
 * lookout_checks_due (a canary was applied) or when a slot frees up; polling covers lost
 * notifications.
 */

/** The channel the canary derivation trigger notifies when checks become due. */
export const CHECKS_DUE_CHANNEL = 'lookout_checks_due';

export type CheckSchedulerSettings = {
  /** Checks running at once in this process. */
  concurrency: number;
  /** A check running longer fails with `timed out after N ms`. */
  checkTimeoutMs: number;
  /** Longest sleep without a notification. */
  pollIntervalMs: number;
  /** Shortest sleep between claims when nothing is due, so a busy schedule is claimed in batches. */
  minTickMs?: number;
  /** Most checks claimed per statement. */
  batchSize?: number;
  /** Results are written at most this long after they arrive (or when 200 are waiting). */
  flushIntervalMs?: number;
  /** On stop, how long runs under way may finish before they are cancelled and given back. */
  stopGraceMs?: number;
};

export type CheckSchedulerDeps = {
  repository: Pick<HealthRepository, 'claimDueChecks' | 'nextDueTime' | 'recordResults' | 'releaseClaims'>;
  runCheck: (entry: CanaryCheckEntry, options: RunCheckOptions) => Promise<CheckResult>;
  /** Reads a check's `valueFrom` in its canary's namespace (the secret store). */
  resolveSecret: CanarySecretResolver;
  /** Reads the connection a check names (the connections module); without it such checks fail. */
  resolveConnection?: CanaryConnectionResolver;
  /** Subscribes to a notification channel; returns the unsubscribe function. */
  subscribe?: (channel: string, onNotify: () => void) => () => void;
  logger: Logger;
  settings: CheckSchedulerSettings;
  /** Identifies this worker's claims; defaults to host, pid and a random suffix. */
  workerId?: string;
  /** Prometheus metrics: each run's result (canary_check_*) and how late it started. */
  metrics?: Pick<Metrics, 'recordCheckResult' | 'observeCheckStartDelay'>;
  /**
   * This replica's own /api/health and database endpoint: the `lookout-self` canary's checks
   * are run against them, whichever replica wrote the canary (health-canary-fns.ts).
   */
  self?: SelfCanaryTargets;
};

/** What the scheduler did since it started (benchmarks and logs read it). */
export type CheckSchedulerStats = {
  runs: number;
  passed: number;
  failed: number;
  claims: number;
  inFlight: number;
  writeErrors: number;
  /** Delay between a check's due time and its start, over the last 20,000 runs. */
  lagMs: { p50: number; p95: number; p99: number; max: number; samples: number };
};

export type CheckScheduler = ReturnType<typeof createCheckScheduler>;

const LAG_SAMPLES = 20_000;
const FLUSH_BATCH = 200;
const MAX_PENDING = 50_000;

export function createCheckScheduler(deps: CheckSchedulerDeps) {
  const { repository, logger } = deps;
  const settings = {
    minTickMs: 50,
    batchSize: 50,
    flushIntervalMs: 100,
    stopGraceMs: 5_000,
    ...deps.settings,
  };
  const workerId = deps.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // The lease covers the run and the write of its result.
  const leaseMs = settings.checkTimeoutMs + 30_000;
  const scheduleOf = createScheduleCache();

  let running = false;
  let loop: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  let wakeUp: (() => void) | undefined;
  let waitingForSlot = false;
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const cancelled = new Set<string>();
  let pending: CheckResultRow[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const lags = new Float64Array(LAG_SAMPLES);
  let lagCount = 0;
  const stats = { runs: 0, passed: 0, failed: 0, claims: 0, writeErrors: 0 };

  // A wake that arrives while the loop is busy (claiming, asking for the next due time) is
  // remembered, so the next sleep returns at once instead of missing it.
  let wakeRequested = false;
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = undefined;
    if (resolve) resolve();
    else wakeRequested = true;
  };
  let sleepingUntil = Number.POSITIVE_INFINITY;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeRequested) {
        wakeRequested = false;
        resolve();
        return;
      }
      sleepingUntil = Date.now() + ms;
      const done = () => {
        sleepingUntil = Number.POSITIVE_INFINITY;
        resolve();
      };
      const timer = setTimeout(() => {
        wakeUp = undefined;
        done();
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        done();
      };
    });

  function nextRunOf(check: ClaimedCheck, now: Date): Date {
    const parsed = scheduleOf(check.schedule);
    if (parsed.ok) return nextRuntime(parsed.schedule, check.id, now);
    // Canary validation refuses bad schedules; one written straight to the database falls
    // back to the default rather than never running again.
    logger.warn({ checkId: check.id, schedule: check.schedule, reason: parsed.error }, 'Invalid check schedule');
    const fallback = parseSchedule(undefined);
    return fallback.ok ? nextRuntime(fallback.schedule, check.id, now) : new Date(now.getTime() + 300_000);
  }

  async function execute(check: ClaimedCheck, signal: AbortSignal): Promise<CheckResultRow> {
    const startedAt = new Date();
    const entry = checkEntryOf(check.type, check.spec);
    let result: CheckResult;
    if (entry.ok) {
      result = await deps.runCheck(forThisReplica(entry.entry, check.canary, deps.self), {
        resolveSecret: (ref) => deps.resolveSecret(ref, check.canary.namespace),
        ...connectionsFor(deps.resolveConnection, check.canary.namespace),
        timeoutMs: settings.checkTimeoutMs,
        signal,
      });
    } else {
      result = invalidResult(entry.message);
    }
    return resultRow({
      checkId: check.id,
      startedAt,
      result,
      invalid: !entry.ok,
      nextRuntime: nextRunOf(check, new Date()),
    });
  }

  function start(check: ClaimedCheck) {
    const controller = new AbortController();
    const lag = Date.now() - check.dueAt.getTime();
    lags[lagCount % LAG_SAMPLES] = Math.max(0, lag);
    lagCount += 1;
    deps.metrics?.observeCheckStartDelay(Math.max(0, lag));
    const done = execute(check, controller.signal)
      .then((row) => {
        if (cancelled.has(check.id)) return;
        stats.runs += 1;
        if (row.status) stats.passed += 1;
        else stats.failed += 1;
        deps.metrics?.recordCheckResult(check, row);
        enqueue(row);
      })
      .catch((error: unknown) => logger.error({ err: error, checkId: check.id }, 'Check run failed unexpectedly'))
      .finally(() => {
        inFlight.delete(check.id);
        if (waitingForSlot) wake();
      });
    inFlight.set(check.id, { controller, done });
  }

  function enqueue(row: CheckResultRow) {
    if (pending.length >= MAX_PENDING) {
      // The database has been unreachable for a long time; the oldest results go first.
      pending.shift();
    }
    pending.push(row);
    if (pending.length >= FLUSH_BATCH) void flush();
    else flushTimer ??= setTimeout(() => void flush(), settings.flushIntervalMs);
  }

  function flush(): Promise<void> {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    flushing = flushing.then(async () => {
      while (pending.length > 0) {
        const batch = pending.slice(0, FLUSH_BATCH);
        pending = pending.slice(batch.length);
        try {
          await repository.recordResults(batch, workerId);
          // A run just written may be due before the loop means to wake (it slept while the
          // check's lease was its next due time).
          const soonest = Math.min(...batch.map((row) => row.nextRuntime?.getTime() ?? Number.POSITIVE_INFINITY));
          if (soonest < sleepingUntil) wake();
        } catch (error) {
          stats.writeErrors += 1;
          logger.warn({ err: error, results: batch.length }, 'Could not store check results; retrying');
          if (!running) return;
          pending = [...batch, ...pending];
          flushTimer ??= setTimeout(() => void flush(), 1000);
          return;
        }
      }
    });
    return flushing;
  }

  async function run() {
    let failures = 0;
    while (running) {
      wakeRequested = false;
      try {
        const free = settings.concurrency - inFlight.size;
        if (free > 0) {
          const want = Math.min(free, settings.batchSize);
          const claimed = await repository.claimDueChecks({ workerId, limit: want, leaseMs });
          stats.claims += 1;
          for (const check of claimed) start(check);
          failures = 0;
          // A full batch means more may be due now.
          if (claimed.length === want && running) continue;
        }
        if (!running) break;
        let delay = settings.pollIntervalMs;
        waitingForSlot = inFlight.size >= settings.concurrency;
        if (!waitingForSlot) {
          const next = await repository.nextDueTime();
          if (next) {
            delay = Math.min(settings.pollIntervalMs, Math.max(settings.minTickMs, next.getTime() - Date.now()));
          }
        }
        if (running) await sleep(delay);
        waitingForSlot = false;
      } catch (error) {
        failures += 1;
        const backoff = Math.min(settings.pollIntervalMs, 250 * 2 ** Math.min(failures, 6));
        logger.warn({ err: error, retryInMs: backoff }, 'Check scheduler could not claim checks');
        if (running) await sleep(backoff);
      }
    }
  }

  return {
    workerId,

    /** Starts claiming and running due checks. */
    start() {
      if (running) return;
      running = true;
      unsubscribe = deps.subscribe?.(CHECKS_DUE_CHANNEL, wake);
      loop = run();
      logger.info({ workerId, concurrency: settings.concurrency }, 'Check scheduler started');
    },

    /**
     * Stops claiming, lets runs under way finish for a grace period, cancels the rest and gives
     * their checks back (due at once, for another replica), and writes what is pending.
     */
    async stop() {
      if (!running) return;
      running = false;
      unsubscribe?.();
      wake();
      await loop;
      const under = [...inFlight.values()].map((run) => run.done);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(under),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, settings.stopGraceMs);
        }),
      ]);
      clearTimeout(timer);
      const left = [...inFlight.keys()];
      for (const id of left) {
        cancelled.add(id);
        inFlight.get(id)?.controller.abort(new Error('Lookout is shutting down'));
      }
      await flush();
      try {
        await repository.releaseClaims(left, workerId);
      } catch (error) {
        logger.warn({ err: error }, 'Could not give back the checks under way; they run again when their lease ends');
      }
      logger.info({ workerId, cancelled: left.length }, 'Check scheduler stopped');
    },

    /** Looks for due checks now (tests, and the notification listener). */
    wake,

    /** Writes results waiting in memory now. */
    flush,

    /** Starts the counters and lag samples afresh (benchmarks measure after a warm-up). */
    resetStats() {
      stats.runs = 0;
      stats.passed = 0;
      stats.failed = 0;
      stats.claims = 0;
      stats.writeErrors = 0;
      lagCount = 0;
    },

    stats(): CheckSchedulerStats {
      const count = Math.min(lagCount, LAG_SAMPLES);
      const sorted = Array.from(lags.subarray(0, count)).sort((a, b) => a - b);
      const at = (p: number) => (count === 0 ? 0 : (sorted[Math.min(count - 1, Math.floor(p * count))] ?? 0));
      return {
        ...stats,
        inFlight: inFlight.size,
        lagMs: {
          p50: at(0.5),
          p95: at(0.95),
          p99: at(0.99),
          max: count === 0 ? 0 : (sorted[count - 1] ?? 0),
          samples: count,
        },
      };
    },
  };
}
