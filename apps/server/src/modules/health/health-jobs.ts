import type { Jobs, JobRun } from '../../jobs/jobs.js';
import type { HealthRepository } from './health-repository.js';
import {
  DAY_MS,
  dailyRollupWindow,
  hourlyRollupWindow,
  retentionCutoffs,
  type RetentionDays,
} from './health-rollup-fns.js';

/**
 * The health module's singleton jobs (backend-model section 2.3): hourly and daily roll-ups of
 * check statuses, and retention of raw rows and roll-ups (job history has its own cleanup in
 * the jobs module). They run through the jobs module (apps/server/src/jobs), which locks,
 * records `job_history` and keeps the timers; a job another replica has just finished is
 * skipped (`minGapMs`).
 */

export const HEALTH_JOB_NAMES = {
  refreshSummary: 'RefreshCheckStatusSummary',
  rollupHourly: 'AggregateCheckStatuses1h',
  rollupDaily: 'AggregateCheckStatuses1d',
  deleteRaw: 'DeleteOldCheckStatuses',
  deleteHourly: 'DeleteOldCheckStatuses1h',
  deleteDaily: 'DeleteOldCheckStatuses1d',
} as const;

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
    'rollupMarks' | 'refreshLastHourSummary' | 'rollupHourly' | 'rollupDaily' | 'setRollupMark' | 'deleteOlderThan'
  >;
  /** Runs each job as a singleton with its history row and metrics, and keeps the timers. */
  jobs: Pick<Jobs, 'run' | 'schedule'>;
  settings: HealthJobsSettings;
  now?: () => Date;
};

export type { JobOutcome, JobRun } from '../../jobs/jobs.js';

export type HealthJobs = ReturnType<typeof createHealthJobs>;

export function createHealthJobs(deps: HealthJobsDeps) {
  const { repository, settings } = deps;
  const now = deps.now ?? (() => new Date());
  const runJob = deps.jobs.run;

  const jobs = {
    /**
     * Recomputes the last-hour summary the dashboard reads by default. It runs every few seconds,
     * so only its latest successful run stays in job history (failures stay, as for any job).
     */
    refreshSummary: () =>
      runJob(
        HEALTH_JOB_NAMES.refreshSummary,
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
      runJob(HEALTH_JOB_NAMES.rollupHourly, async () => {
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
      return runJob(HEALTH_JOB_NAMES.rollupDaily, async () => {
        const buckets = await repository.rollupDaily(window);
        await repository.setRollupMark('1d', window.to);
        return {
          successCount: buckets,
          details: { from: window.from.toISOString(), to: window.to.toISOString(), buckets },
        };
      });
    },

    /** Deletes raw statuses, hourly and daily buckets past their retention. */
    retention: async (minGapMs = 0): Promise<JobRun[]> => {
      const cutoffs = retentionCutoffs(now(), settings.retentionDays);
      const remove = (
        name: string,
        table: 'check_statuses' | 'check_statuses_1h' | 'check_statuses_1d',
        cutoff: Date,
      ) =>
        runJob(
          name,
          async () => {
            const deleted = await repository.deleteOlderThan(table, cutoff, DELETE_BATCH);
            return { successCount: deleted, details: { table, before: cutoff.toISOString(), deleted } };
          },
          { minGapMs },
        );
      return [
        await remove(HEALTH_JOB_NAMES.deleteRaw, 'check_statuses', cutoffs.raw),
        await remove(HEALTH_JOB_NAMES.deleteHourly, 'check_statuses_1h', cutoffs.hourly),
        await remove(HEALTH_JOB_NAMES.deleteDaily, 'check_statuses_1d', cutoffs.daily),
      ];
    },
  };

  return {
    ...jobs,

    /**
     * Registers the timers with the jobs module (they run once it is started): the last-hour
     * summary every `summaryRefreshMs` on its own (a long roll-up must not hold the dashboard's
     * summary back), roll-ups every `rollupIntervalMs` (first soon after start), retention
     * checked hourly and run when no replica ran it in the last day; roll-ups and retention
     * one at a time.
     */
    schedule() {
      deps.jobs.schedule('refreshSummary', { everyMs: settings.summaryRefreshMs, firstAfterMs: 1_000 }, () =>
        jobs.refreshSummary(),
      );
      deps.jobs.schedule(
        'rollups',
        { everyMs: settings.rollupIntervalMs, firstAfterMs: Math.min(10_000, settings.rollupIntervalMs) },
        async () => {
          await jobs.rollupHourly();
          await jobs.rollupDaily();
        },
        { group: 'health' },
      );
      deps.jobs.schedule(
        'retention',
        { everyMs: 3_600_000, firstAfterMs: 60_000 },
        () => jobs.retention(RETENTION_EVERY_MS),
        {
          group: 'health',
        },
      );
    },
  };
}
