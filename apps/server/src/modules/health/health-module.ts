import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerModule } from '../../http/server-module.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { AccessService } from '../access/access-service.js';
import type { Metrics } from '../metrics/metrics-service.js';
import { guardHealthWrites } from './health-data-api-guard.js';
import { healthRoutes } from './health-routes.js';
import type { HealthService } from './health-service.js';
import { buildHealthService, type HealthServiceOptions } from './health-service-factory.js';
import type { HealthSettings } from './health-settings.js';
import { createHealthWorkers, type HealthWorkers } from './health-workers.js';

// What `lookout serve` and `lookout apply` use of the health module besides its factory.
export { ensureSelfCanary } from './health-bootstrap.js';
export { selfCanaryTargets } from './health-canary-fns.js';
export { applyCanaryFiles, attachToRunningEmbedded, type ApplyLine } from './health-cli.js';
export { readHealthSettings, type HealthSettings } from './health-settings.js';

export type HealthModuleDeps = Omit<HealthServiceOptions, 'metrics'> & {
  jobs: Pick<Jobs, 'run' | 'schedule' | 'cleanupHistory'>;
  metrics?: Pick<Metrics, 'recordCheckResult' | 'observeCheckStartDelay'>;
  access: Pick<AccessService, 'rolesOf'>;
  /** The signed-in person's id (for created_by). */
  personOf: (request: FastifyRequest) => Promise<string | null>;
  /**
   * The background workers' settings (LOOKOUT_CHECK_*; `lookout serve` passes them): the check
   * scheduler, started by `start()`, and the roll-up and retention jobs, registered with the
   * jobs module. Without them (tests) the module has no background work.
   */
  workers?: HealthSettings;
};

export type HealthModule = ServerModule<{
  health: HealthService;
  /** Validates canary writes through the data API (and keeps derived rows read-only). */
  guardDataApiWrites: typeof guardHealthWrites;
}>;

/**
 * Health: the check summary, Run Now and canary apply at /api/canary (spec 2 section 7.2);
 * status history, checks and canaries are read through /api/db. The check scheduler claims due
 * checks as a queue (FOR UPDATE SKIP LOCKED); roll-ups and retention are jobs.
 */
export function createHealthModule(deps: HealthModuleDeps): HealthModule {
  const health = buildHealthService(deps);
  let workers: HealthWorkers | undefined;
  if (deps.workers) {
    if (!deps.sandbox) throw new Error('The health workers need the sandbox exec checks run in');
    workers = createHealthWorkers({
      pool: deps.pool,
      logger: deps.logger,
      settings: deps.workers,
      sandbox: deps.sandbox,
      jobs: deps.jobs,
      ...(deps.self ? { self: deps.self } : {}),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
    });
  }
  return {
    services: { health, guardDataApiWrites: guardHealthWrites },
    async routes(app: FastifyInstance) {
      await app.register(healthRoutes, {
        prefix: '/api/canary',
        health,
        access: deps.access,
        personOf: deps.personOf,
      });
    },
    start: () => workers?.start(),
    // Stops claiming checks before the database goes.
    stop: async () => workers?.stop(),
  };
}
