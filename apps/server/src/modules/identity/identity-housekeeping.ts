import type { Logger } from 'pino';
import type { IdentityRepository } from './identity-repository.js';
import type { Metrics } from '../metrics/metrics-service.js';

const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

/** The job name its runs have in the job metrics. */
export const IDENTITY_HOUSEKEEPING_JOB = 'IdentityHousekeeping';

/**
 * Removes expired flows, ended sessions, old flow errors, rate-limit counters and outbox
 * messages older than COURIER_RETENTION_DAYS every hour.
 * Every replica may run it: the deletes are idempotent.
 */
export function startIdentityHousekeeping(options: {
  repository: Pick<IdentityRepository, 'purgeExpired'>;
  logger: Pick<Logger, 'debug' | 'warn'>;
  intervalMs?: number;
  /** Prometheus metrics: each run's duration and whether it failed. */
  metrics?: Pick<Metrics, 'recordJobRun'>;
}): { stop: () => void } {
  const timer = setInterval(() => {
    const started = performance.now();
    const finished = (status: 'SUCCESS' | 'FAILED') =>
      options.metrics?.recordJobRun({
        name: IDENTITY_HOUSEKEEPING_JOB,
        status,
        durationMs: performance.now() - started,
      });
    options.repository.purgeExpired().then(
      (removed) => {
        finished('SUCCESS');
        options.logger.debug({ removed }, 'Identity housekeeping removed expired rows');
      },
      (error: unknown) => {
        finished('FAILED');
        options.logger.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'Identity housekeeping failed',
        );
      },
    );
  }, options.intervalMs ?? HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
