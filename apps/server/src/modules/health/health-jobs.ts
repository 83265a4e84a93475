import os from 'node:os';
import type { Logger } from 'pino';
import { ADVISORY_LOCKS, type HealthRepository, type JobStatus } from './health-repository.js';
import type { Metrics } from '../metrics/metrics-service.js';
import {
  DAY_MS,
  dailyRollupWindow,
  hourlyRollupWindow,
  retentionCutoffs,
  type RetentionDays,
} from './health-rollup-fns.js';

/**
 * The health module's singleton jobs (backend-model section 2.3): hourly and daily roll-ups of
 * check statuses, and retention of raw rows, roll-ups and job history. Every replica runs the
 * timers; `pg_try_advisory_lock` lets one run a job at a time and a job another replica has
 * just finished is skipped. Each run writes a `job_history` row (RUNNING, then SUCCESS or
 * FAILED with counts, details and duration).
 */

export const HEALTH_JOB_NAMES = {
  refreshSummary: 'RefreshCheckStatusSummary',
  rollupHourly: 'AggregateCheckStatuses1h',
  rollupDaily: 'AggregateCheckStatuses1d',
  deleteRaw: 'DeleteOldCheckStatuses',
  deleteHourly: 'DeleteOldCheckStatuses1h',
  deleteDaily: 'DeleteOldCheckStatuses1d',
  cleanupJobHistory: 'CleanupJobHistory',
} as const;

const JOB_LOCKS: Record<string, number> = {
  [HEALTH_JOB_NAMES.refreshSummary]: ADVISORY_LOCKS.refreshSummary,
  [HEALTH_JOB_NAMES.rollupHourly]: ADVISORY_LOCKS.rollupHourly,
  [HEALTH_JOB_NAMES.rollupDaily]: ADVISORY_LOCKS.rollupDaily,
  [HEALTH_JOB_NAMES.deleteRaw]: ADVISORY_LOCKS.retention,
  [HEALTH_JOB_NAMES.deleteHourly]: ADVISORY_LOCKS.retention + 1,
  [HEALTH_JOB_NAMES.deleteDaily]: ADVISORY_LOCKS.retention + 2,
  [HEALTH_JOB_NAMES.cleanupJobHistory]: ADVISORY_LOCKS.retention + 3,
};

/** Job history is kept this long (the original's job.history.maxAge). */
export const JOB_HISTORY_RETENTION_DAYS = 30;
const DELETE_BATCH = 50_000;
const RETENTION_EVERY_MS = DAY_MS;

export type HealthJobsSettings = {
  rollupIntervalMs: number;
  /** How often the last-hour summary is recomputed. */
  summaryRefreshMs: number;
  retentionDays: RetentionDays;
  /**
   * Raw rows younger than this are left to the next roll-up (and read live by the last-hour
   * summary): a run's row carries its start time and is written when it ends, so rows this
   * recent may still arrive.
   */
  lateMarginMs: number;
};

export type HealthJobsDeps = {
  repository: Pick<
    HealthRepository,
    | 'rollupMarks'
    | 'refreshLastHourSummary'
    | 'pruneJobHistory'
    | 'rollupHourly'
    | 'rollupDaily'
    | 'setRollupMark'
    | 'deleteOlderThan'
    | 'cleanupJobHistory'
    | 'startJob'
    | 'finishJob'
    | 'lastSuccess'
    | 'withAdvisoryLock'
  >;
  logger: Logger;
  settings: HealthJobsSettings;
  now?: () => Date;
  hostname?: string;
  /** Prometheus metrics: each run's duration and status, as its job_history row has them. */
  metrics?: Pick<Metrics, 'recordJobRun'>;
};

/** What one job run did. */
export type JobOutcome = { successCount: number; errorCount?: number; details: Record<string, unknown> };
/** `ran` false: another replica held the lock, or had just run it. */
export type JobRun = { ran: false } | { ran: true; status: JobStatus; outcome?: JobOutcome; error?: string };

export type HealthJobs = ReturnType<typeof createHealthJobs>;

export function createHealthJobs(deps: HealthJobsDeps) {
  const { repository, logger, settings } = deps;
  const now = deps.now ?? (() => new Date());
  const hostname = deps.hostname ?? os.hostname();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  let busy: Promise<unknown> = Promise.resolve();
  let summaryRun: Promise<unknown> = Promise.resolve();

  /**
   * Runs a job as a singleton with its history row. `minGapMs`: skip it when it succeeded that
   * recently (another replica ran it on the same timer).
   */
  async function runJob(
    name: string,
    minGapMs: number,
    work: () => Promise<JobOutcome>,
    options: { keepSuccesses?: number } = {},
  ): Promise<JobRun> {
    if (minGapMs > 0) {
      const last = await repository.lastSuccess(name);
      if (last && now().getTime() - last.getTime() < minGapMs * 0.9) return { ran: false };
    }
    const key = JOB_LOCKS[name] ?? ADVISORY_LOCKS.retention + 100;
    const locked = await repository.withAdvisoryLock(key, async (): Promise<JobRun> => {
      const id = await repository.startJob({ name, hostname });
      const started = performance.now();
      const finished = (status: JobStatus) =>
        deps.metrics?.recordJobRun({ name, status, durationMs: performance.now() - started });
      try {
        const outcome = await work();
        const errors = outcome.errorCount ?? 0;
        const status: JobStatus = errors === 0 ? 'SUCCESS' : outcome.successCount > 0 ? 'WARNING' : 'FAILED';
        await repository.finishJob(id, {
          status,
          successCount: outcome.successCount,
          errorCount: errors,
          details: outcome.details,
        });
        if (options.keepSuccesses !== undefined) await repository.pruneJobHistory(name, options.keepSuccesses);
        finished(status);
        return { ran: true, status, outcome };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        logger.error({ err: error, job: name }, 'Health job failed');
        await repository
          .finishJob(id, { status: 'FAILED', successCount: 0, errorCount: 1, details: { errors: [message] } })
          .catch(() => undefined);
        finished('FAILED');
        return { ran: true, status: 'FAILED', error: message };
      }
    });
    return locked.locked ? locked.value : { ran: false };
  }

  const jobs = {
    /**
     * Recomputes the last-hour summary the dashboard reads by default. It runs every few seconds,
     * so only its latest successful run stays in job history (failures stay, as for any job).
     */
    refreshSummary: () =>
      runJob(
        HEALTH_JOB_NAMES.refreshSummary,
        0,
        async () => {
          const at = now();
          // Rows of runs still under way arrive later with earlier times: the summary reads the
          // rows after exactUntil live instead.
          const exactUntil = new Date(at.getTime() - settings.lateMarginMs);
          const checks = await repository.refreshLastHourSummary(at, exactUntil);
          return {
            successCount: checks,
            details: { at: at.toISOString(), exactUntil: exactUntil.toISOString(), checks },
          };
        },
        { keepSuccesses: 1 },
      ),

    /** Brings the hourly buckets up to (now - late margin) and moves the hourly mark there. */
    rollupHourly: () =>
      runJob(HEALTH_JOB_NAMES.rollupHourly, 0, async () => {
        const marks = await repository.rollupMarks();
        const to = new Date(now().getTime() - settings.lateMarginMs);
        const window = hourlyRollupWindow(to, marks.hourly, settings.retentionDays.raw * DAY_MS);
        const buckets = await repository.rollupHourly(window);
        await repository.setRollupMark('1h', window.to);
        return {
          successCount: buckets,
          details: { from: window.from.toISOString(), to: window.to.toISOString(), buckets },
        };
      }),

    /** Sums complete hourly buckets into days, when an hour completed since its last run. */
    rollupDaily: async (): Promise<JobRun> => {
      const marks = await repository.rollupMarks();
      if (!marks.hourly) return { ran: false };
      const hourlyMark = marks.hourly;
      const window = dailyRollupWindow(hourlyMark, marks.daily, settings.retentionDays.hourly * DAY_MS);
      if (!window) return { ran: false };
      return runJob(HEALTH_JOB_NAMES.rollupDaily, 0, async () => {
        const buckets = await repository.rollupDaily(window);
        await repository.setRollupMark('1d', window.to);
        return {
          successCount: buckets,
          details: { from: window.from.toISOString(), to: window.to.toISOString(), buckets },
        };
      });
    },

    /** Deletes raw statuses, hourly and daily buckets past their retention, and old job history. */
    retention: async (minGapMs = 0): Promise<JobRun[]> => {
      const cutoffs = retentionCutoffs(now(), settings.retentionDays);
      const remove = (
        name: string,
        table: 'check_statuses' | 'check_statuses_1h' | 'check_statuses_1d',
        cutoff: Date,
      ) =>
        runJob(name, minGapMs, async () => {
          const deleted = await repository.deleteOlderThan(table, cutoff, DELETE_BATCH);
          return { successCount: deleted, details: { table, before: cutoff.toISOString(), deleted } };
        });
      return [
        await remove(HEALTH_JOB_NAMES.deleteRaw, 'check_statuses', cutoffs.raw),
        await remove(HEALTH_JOB_NAMES.deleteHourly, 'check_statuses_1h', cutoffs.hourly),
        await remove(HEALTH_JOB_NAMES.deleteDaily, 'check_statuses_1d', cutoffs.daily),
        await runJob(HEALTH_JOB_NAMES.cleanupJobHistory, minGapMs, async () => {
          const before = new Date(now().getTime() - JOB_HISTORY_RETENTION_DAYS * DAY_MS);
          const result = await repository.cleanupJobHistory(before);
          return { successCount: result.deleted, details: { before: before.toISOString(), ...result } };
        }),
      ];
    },
  };

  /**
   * Runs `task` unless stopped, one task at a time, logging rather than throwing. A task still
   * waiting or running is not queued again, so a slow run cannot pile up behind itself.
   */
  const queued = new Set<string>();
  const guarded = (label: string, task: () => Promise<unknown>) => () => {
    if (stopped || queued.has(label)) return;
    queued.add(label);
    busy = busy
      .then(() => (stopped ? undefined : task()))
      .catch((error: unknown) => logger.error({ err: error, job: label }, 'Health job could not run'))
      .finally(() => queued.delete(label));
  };

  return {
    ...jobs,

    /**
     * Starts the timers: the last-hour summary every `summaryRefreshMs`, roll-ups every
     * `rollupIntervalMs` (first soon after start), retention checked hourly and run when no
     * replica ran it in the last day.
     */
    start() {
      stopped = false;
      const rollups = guarded('rollups', async () => {
        await jobs.rollupHourly();
        await jobs.rollupDaily();
      });
      const retention = guarded('retention', () => jobs.retention(RETENTION_EVERY_MS));
      // Its own chain: a long roll-up must not hold the dashboard's summary back.
      let refreshing = false;
      const refresh = () => {
        if (stopped || refreshing) return;
        refreshing = true;
        const run = jobs
          .refreshSummary()
          .catch((error: unknown) => logger.error({ err: error, job: 'refreshSummary' }, 'Health job could not run'))
          .finally(() => {
            refreshing = false;
          });
        summaryRun = run;
      };
      timers.push(setTimeout(refresh, 1_000));
      timers.push(setInterval(refresh, settings.summaryRefreshMs));
      timers.push(setTimeout(rollups, Math.min(10_000, settings.rollupIntervalMs)));
      timers.push(setInterval(rollups, settings.rollupIntervalMs));
      timers.push(setTimeout(retention, 60_000));
      timers.push(setInterval(retention, 3_600_000));
      for (const timer of timers) timer.unref();
    },

    /** Stops the timers and waits for a job under way. */
    async stop() {
      stopped = true;
      for (const timer of timers.splice(0)) clearTimeout(timer);
      await Promise.all([busy, summaryRun]);
    },
  };
}
