import type { Logger } from 'pino';
import type { KratosIdentityMirror } from './kratos-identity-mirror.js';
import type { Jobs } from '../../../jobs/jobs.js';

/**
 * How often Lookout copies the identities of an external Kratos (KRATOS_ADMIN_URL): changes
 * made in Kratos itself (its admin API, self-service sign-up, another tool) reach the Users
 * page within this time; changes made through Lookout are copied at once.
 */
export const KRATOS_IDENTITY_SYNC_INTERVAL_MS = 60_000;

/** Its `job_history` name (only the latest success is kept: it runs every minute). */
export const KRATOS_IDENTITY_SYNC_JOB = 'SyncKratosIdentities';

export type KratosIdentitySync = {
  /** Syncs now, in the background (after a change made through the admin proxy). */
  syncSoon: () => void;
};

/**
 * Registers the full sync with the jobs module: once right after the jobs start, in the
 * background (start-up neither waits for Kratos nor fails when it is away), then every
 * `intervalMs`. The job's lock lets one replica sync at a time; never two rounds at once in
 * one process, and a request meanwhile runs one more round after, as the running one may have
 * listed too early. A failed round is logged and tried again on the next one; the copies keep
 * their last state.
 */
export function scheduleKratosIdentitySync({
  mirror,
  jobs,
  logger,
  intervalMs = KRATOS_IDENTITY_SYNC_INTERVAL_MS,
}: {
  mirror: Pick<KratosIdentityMirror, 'syncAll'>;
  jobs: Pick<Jobs, 'run' | 'schedule'>;
  logger: Pick<Logger, 'warn' | 'info' | 'debug'>;
  intervalMs?: number;
}): KratosIdentitySync {
  let first = true;
  const round = () =>
    jobs.run(
      KRATOS_IDENTITY_SYNC_JOB,
      async () => {
        const wasFirst = first;
        first = false;
        try {
          const outcome = await mirror.syncAll();
          const log = wasFirst || outcome.written > 0 || outcome.removed > 0 ? logger.info : logger.debug;
          log.call(logger, outcome, 'Copied the identities of Kratos (KRATOS_ADMIN_URL) for the Users page');
          return { successCount: outcome.written, details: outcome };
        } catch (error) {
          logger.warn(
            { reason: error instanceof Error ? error.message : String(error), retryInMs: intervalMs },
            'Could not copy the identities of Kratos (KRATOS_ADMIN_URL); the Users page shows the last copy until a later sync succeeds',
          );
          throw error;
        }
      },
      { keepSuccesses: 1 },
    );
  const task = jobs.schedule(KRATOS_IDENTITY_SYNC_JOB, { everyMs: intervalMs, firstAfterMs: 0 }, round);
  return { syncSoon: task.runSoon };
}
