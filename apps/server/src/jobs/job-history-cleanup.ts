import { JOB_HISTORY_MAX_AGE_DAYS, JOB_HISTORY_STALE_AFTER_HOURS } from '@lookout/contracts';
import type { JobRun, Jobs } from './jobs.js';

/** Its `job_history` name (and the job name of its runs in the job metrics). */
export const JOB_HISTORY_CLEANUP_JOB = 'CleanupJobHistory';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How often a replica asks whether the cleanup is due. The job itself runs once a day: a run
 * is skipped when any replica finished one in the last day (`minGapMs`), so restarts neither
 * skip a day nor run it twice.
 */
const CHECK_EVERY_MS = HOUR_MS;
/** The first check after the jobs start: after start-up work, not during it. */
const FIRST_CHECK_AFTER_MS = 5 * 60_000;

export type JobHistoryCleanupDeps = {
  jobs: Pick<Jobs, 'run' | 'schedule' | 'cleanupHistory'>;
  now?: () => Date;
};

/**
 * The jobs module's own housekeeping of `job_history` (backend-model section 2.7): daily, rows
 * older than 30 days are deleted and RUNNING rows that started more than 4 hours ago are
 * marked STALE (their process died before finishing them). It runs as a singleton job, with a
 * `job_history` row of its own.
 */
export function createJobHistoryCleanup(deps: JobHistoryCleanupDeps) {
  const now = deps.now ?? (() => new Date());

  /** Runs the cleanup now, unless one finished less than `minGapMs` ago. */
  const run = (minGapMs = 0): Promise<JobRun> =>
    deps.jobs.run(
      JOB_HISTORY_CLEANUP_JOB,
      async () => {
        const at = now().getTime();
        const deleteBefore = new Date(at - JOB_HISTORY_MAX_AGE_DAYS * DAY_MS);
        const staleBefore = new Date(at - JOB_HISTORY_STALE_AFTER_HOURS * HOUR_MS);
        const result = await deps.jobs.cleanupHistory({ deleteBefore, staleBefore });
        return {
          successCount: result.deleted + result.stale,
          details: {
            summary: {
              deleted: result.deleted,
              stale: result.stale,
              deleteBefore: deleteBefore.toISOString(),
              staleBefore: staleBefore.toISOString(),
            },
          },
        };
      },
      { minGapMs },
    );

  return {
    run,
    /** Registers the daily run with the jobs module (it runs once the jobs are started). */
    schedule: () =>
      deps.jobs.schedule(JOB_HISTORY_CLEANUP_JOB, { everyMs: CHECK_EVERY_MS, firstAfterMs: FIRST_CHECK_AFTER_MS }, () =>
        run(DAY_MS),
      ),
  };
}
