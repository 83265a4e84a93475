import type pg from 'pg';
import type { Logger } from 'pino';
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { Metrics } from '../metrics/metrics-service.js';
import type { SelfCanaryTargets } from './health-canary-fns.js';
import { createHealthRepository } from './health-repository.js';
import { secretsUnavailable, type CanarySecretResolver } from './health-run-fns.js';
import { createHealthService, type HealthService } from './health-service.js';
import { createCheckRunner, DEFAULT_CHECK_TIMEOUT_MS, runCheck } from './runners/runners.js';
import type { CanaryConnectionResolver } from './runners/check-connections.js';

export type HealthServiceOptions = {
  pool: pg.Pool;
  logger: Logger;
  /** Where Run Now runs exec scripts; without one they are refused. */
  sandbox?: Sandbox;
  /** Run Now's timeout (LOOKOUT_CHECK_TIMEOUT; default 60 s). */
  checkTimeoutMs?: number;
  /** How often the workers refresh the last-hour summary; two refreshes may be missed before it is computed live. */
  summaryRefreshMs?: number;
  /** This replica's /api/health and database endpoint, for Run Now of the `lookout-self` checks. */
  self?: SelfCanaryTargets;
  /** Run Now's results count in the check metrics. */
  metrics?: Pick<Metrics, 'recordCheckResult'>;
  /**
   * Reads `valueFrom` references in the canary's namespace: the secrets module's store (app.ts).
   * Without it a check that names a secret or config map fails saying none is available.
   */
  resolveSecret?: CanarySecretResolver;
  /** Reads the connection a check names: the connections module's `resolve` (app.ts). */
  resolveConnection?: CanaryConnectionResolver;
};

/**
 * The one place the health service is built: for the app, for `lookout serve`'s `lookout-self`
 * canary (health-bootstrap.ts) and for `lookout apply` (health-cli.ts).
 */
export function buildHealthService(options: HealthServiceOptions): HealthService {
  return createHealthService({
    repository: createHealthRepository(options.pool),
    runCheck: options.sandbox ? createCheckRunner(options.sandbox) : runCheck,
    resolveSecret: options.resolveSecret ?? secretsUnavailable,
    ...(options.resolveConnection ? { resolveConnection: options.resolveConnection } : {}),
    settings: {
      checkTimeoutMs: options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      ...(options.summaryRefreshMs ? { lastHourSnapshotMaxAgeMs: 2.5 * options.summaryRefreshMs } : {}),
      ...(options.self ? { self: options.self } : {}),
    },
    logger: options.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
}
