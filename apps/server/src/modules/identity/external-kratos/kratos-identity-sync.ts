import type { Logger } from 'pino';
import type { KratosIdentityMirror } from './kratos-identity-mirror.js';

/**
 * How often Lookout copies the identities of an external Kratos (KRATOS_ADMIN_URL): changes
 * made in Kratos itself (its admin API, self-service sign-up, another tool) reach the Users
 * page within this time; changes made through Lookout are copied at once.
 */
export const KRATOS_IDENTITY_SYNC_INTERVAL_MS = 60_000;

export type KratosIdentitySync = {
  /** Syncs now, in the background (after a change made through the admin proxy). */
  syncSoon: () => void;
  /** Stops the timer and waits for a sync in progress, so the database can close after. */
  stop: () => Promise<void>;
};

/**
 * Runs the full sync once right after start, in the background (start-up neither waits for
 * Kratos nor fails when it is away), then every `intervalMs`. Every replica runs the timer;
 * the advisory lock in `syncAll` lets one sync at a time, and the others skip that round.
 * A failed round is logged and tried again on the next one; the copies keep their last state.
 */
export function startKratosIdentitySync({
  mirror,
  logger,
  intervalMs = KRATOS_IDENTITY_SYNC_INTERVAL_MS,
}: {
  mirror: Pick<KratosIdentityMirror, 'syncAll'>;
  logger: Pick<Logger, 'warn' | 'info' | 'debug'>;
  intervalMs?: number;
}): KratosIdentitySync {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let first = true;

  const round = () => {
    // A slow Kratos may outlast the interval: never two rounds at once in one process. A
    // request meanwhile runs one more round after, as the running one may have listed too early.
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    const wasFirst = first;
    first = false;
    running = mirror
      .syncAll()
      .then(
        (outcome) => {
          if (!outcome.ran) return;
          const log = wasFirst || outcome.written > 0 || outcome.removed > 0 ? logger.info : logger.debug;
          log.call(logger, outcome, 'Copied the identities of Kratos (KRATOS_ADMIN_URL) for the Users page');
        },
        (error: unknown) => {
          logger.warn(
            { reason: error instanceof Error ? error.message : String(error), retryInMs: intervalMs },
            'Could not copy the identities of Kratos (KRATOS_ADMIN_URL); the Users page shows the last copy until a later sync succeeds',
          );
        },
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          round();
        }
      });
  };

  const startTimer = setTimeout(round, 0);
  const timer = setInterval(round, intervalMs);
  startTimer.unref();
  timer.unref();
  return {
    syncSoon: round,
    async stop() {
      stopped = true;
      clearTimeout(startTimer);
      clearInterval(timer);
      await running;
    },
  };
}
