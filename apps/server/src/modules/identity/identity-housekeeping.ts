import type { Logger } from 'pino';
import type { IdentityRepository } from './identity-repository.js';

const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

/**
 * Removes expired flows, ended sessions, old flow errors, rate-limit counters and outbox
 * messages older than COURIER_RETENTION_DAYS every hour.
 * Every replica may run it: the deletes are idempotent.
 */
export function startIdentityHousekeeping(options: {
  repository: Pick<IdentityRepository, 'purgeExpired'>;
  logger: Pick<Logger, 'debug' | 'warn'>;
  intervalMs?: number;
}): { stop: () => void } {
  const timer = setInterval(() => {
    options.repository.purgeExpired().then(
      (removed) => options.logger.debug({ removed }, 'Identity housekeeping removed expired rows'),
      (error: unknown) =>
        options.logger.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'Identity housekeeping failed',
        ),
    );
  }, options.intervalMs ?? HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
