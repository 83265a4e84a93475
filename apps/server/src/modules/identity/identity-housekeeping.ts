import type { IdentityRepository } from './identity-repository.js';
import type { Jobs } from '../../jobs/jobs.js';

const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

/** Its `job_history` name, and the job name its runs have in the job metrics. */
export const IDENTITY_HOUSEKEEPING_JOB = 'IdentityHousekeeping';

/**
 * Removes expired flows, ended sessions, old flow errors, rate-limit counters and outbox
 * messages older than COURIER_RETENTION_DAYS every hour, as a job of the jobs module (one
 * replica at a time, a `job_history` row per run; the deletes are idempotent anyway).
 */
export function scheduleIdentityHousekeeping(options: {
  repository: Pick<IdentityRepository, 'purgeExpired'>;
  jobs: Pick<Jobs, 'run' | 'schedule'>;
  intervalMs?: number;
}): void {
  const everyMs = options.intervalMs ?? HOUSEKEEPING_INTERVAL_MS;
  options.jobs.schedule(IDENTITY_HOUSEKEEPING_JOB, { everyMs }, () =>
    options.jobs.run(IDENTITY_HOUSEKEEPING_JOB, async () => {
      const removed = await options.repository.purgeExpired();
      return { successCount: removed, details: { removed } };
    }),
  );
}
