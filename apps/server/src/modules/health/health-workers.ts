import type pg from 'pg';
import { createNotificationListener } from '../../db/notification-listener.js';
import type { Logger } from 'pino';
import type { SelfCanaryTargets } from './health-canary-fns.js';
import { createHealthJobs } from './health-jobs.js';
import { createHealthRepository } from './health-repository.js';
import { secretsUnavailable, type CanarySecretResolver } from './health-run-fns.js';
import { createCheckScheduler } from './health-scheduler.js';
import type { HealthSettings } from './health-settings.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { createCheckRunner } from './runners/runners.js';
import type { CanaryConnectionResolver } from './runners/check-connections.js';
import type { Metrics } from '../metrics/metrics-service.js';
import type { Jobs } from '../../jobs/jobs.js';

/**
 * The health module's background workers for `lookout serve`: the check scheduler, with one
 * LISTEN connection that wakes it, and the roll-up and retention jobs (registered with the jobs
 * module). The health module starts the scheduler on worker replicas and stops it before the
 * database closes.
 */

export type HealthWorkersDeps = {
  pool: pg.Pool;
  logger: Logger;
  settings: HealthSettings;
  /** Where scheduled exec scripts run, and the paths no check may list (server.ts sets it up). */
  sandbox: Sandbox;
  /** This replica's address and database endpoint, which the `lookout-self` canary's checks use here. */
  self?: SelfCanaryTargets;
  /** Prometheus metrics: check results and start delays (server.ts shares the app's). */
  metrics?: Pick<Metrics, 'recordCheckResult' | 'observeCheckStartDelay'>;
  /** The jobs module: the roll-up and retention jobs run (and are scheduled) through it. */
  jobs: Pick<Jobs, 'run' | 'schedule'>;
  /** Reads `valueFrom` references in the canary's namespace (the secret store). */
  resolveSecret?: CanarySecretResolver;
  /** Reads the connection a check names (the connections module). */
  resolveConnection?: CanaryConnectionResolver;
};

export type HealthWorkers = ReturnType<typeof createHealthWorkers>;

export function createHealthWorkers({
  pool,
  logger,
  settings,
  sandbox,
  self,
  metrics,
  jobs,
  resolveSecret,
  resolveConnection,
}: HealthWorkersDeps) {
  const log = logger.child({ module: 'health' });
  const repository = createHealthRepository(pool);
  const listener = createNotificationListener(pool, log);
  const scheduler = createCheckScheduler({
    repository,
    runCheck: createCheckRunner(sandbox),
    resolveSecret: resolveSecret ?? secretsUnavailable,
    ...(resolveConnection ? { resolveConnection } : {}),
    subscribe: listener.subscribe,
    logger: log,
    ...(self ? { self } : {}),
    ...(metrics ? { metrics } : {}),
    settings: {
      concurrency: settings.checkConcurrency,
      checkTimeoutMs: settings.checkTimeoutMs,
      pollIntervalMs: settings.pollIntervalMs,
    },
  });
  const healthJobs = createHealthJobs({
    repository,
    jobs,
    settings: {
      rollupIntervalMs: settings.rollupIntervalMs,
      summaryRefreshMs: settings.summaryRefreshMs,
      retentionDays: settings.retentionDays,
      lateMarginMs: settings.checkTimeoutMs + 30_000,
    },
  });
  healthJobs.schedule();
  return {
    scheduler,
    jobs: healthJobs,
    /** Starts the check scheduler; the jobs run when the jobs module starts. */
    start() {
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await listener.close();
    },
  };
}
