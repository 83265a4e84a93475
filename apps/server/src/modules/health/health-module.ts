import { CANARY_KIND } from '@lookout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServeContext, ServerModule } from '../../http/server-module.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { AccessService } from '../access/access-service.js';
import type { Metrics } from '../metrics/metrics-service.js';
import { guardHealthWrites } from './health-data-api-guard.js';
import { healthRoutes } from './health-routes.js';
import type { HealthService } from './health-service.js';
import { buildHealthService, type HealthServiceOptions } from './health-service-factory.js';
import type { HealthSettings } from './health-settings.js';
import { createHealthWorkers, type HealthWorkers } from './health-workers.js';

import { ensureSelfCanary } from './health-bootstrap.js';
import { selfCanaryTargets } from './health-canary-fns.js';
import { canaryApplier } from './canary-applier.js';
import { applyCanaries } from './health-cli.js';
import { readHealthSettings } from './health-settings.js';

export type { HealthSettings } from './health-settings.js';

/**
 * The health module's command-line entry (cli.ts): its settings of `lookout serve`
 * (LOOKOUT_ROLE, LOOKOUT_CHECK_*, LOOKOUT_SELF_CANARY) and `lookout apply -f canary.yaml`.
 */
export const healthCli = {
  readSettings: readHealthSettings,
  apply: applyCanaries,
  /** Canary documents for callers that take appliers by kind (the Kubernetes-compatible API). */
  appliers: { [CANARY_KIND]: canaryApplier },
};

export type HealthModuleDeps = Omit<HealthServiceOptions, 'metrics'> & {
  jobs: Pick<Jobs, 'run' | 'schedule'>;
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
  /**
   * `lookout serve`: without `self`, the `lookout-self` checks look at this replica's port and
   * database, and `bootstrap` keeps that canary (when `selfCanary`, LOOKOUT_SELF_CANARY).
   */
  serve?: ServeContext;
  selfCanary?: boolean;
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
  // Where this replica's lookout-self checks look (its own port and database), so the canary
  // describes whichever replica runs it rather than the one that started last.
  const selfAddress = deps.serve && {
    host: deps.serve.config.host,
    port: deps.serve.config.port,
    databaseUrl: deps.serve.databaseUrl,
  };
  const self = deps.self ?? (selfAddress ? selfCanaryTargets(selfAddress) : undefined);
  const health = buildHealthService({ ...deps, ...(self ? { self } : {}) });
  let workers: HealthWorkers | undefined;
  if (deps.workers) {
    if (!deps.sandbox) throw new Error('The health workers need the sandbox exec checks run in');
    workers = createHealthWorkers({
      pool: deps.pool,
      logger: deps.logger,
      settings: deps.workers,
      sandbox: deps.sandbox,
      jobs: deps.jobs,
      ...(self ? { self } : {}),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
      ...(deps.resolveSecret ? { resolveSecret: deps.resolveSecret } : {}),
      ...(deps.resolveConnection ? { resolveConnection: deps.resolveConnection } : {}),
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
    async bootstrap() {
      // The lookout-self canary, kept pointed at this server's port and database. Its checks
      // first run when the workers start, after the server listens.
      if (selfAddress)
        await ensureSelfCanary({
          pool: deps.pool,
          logger: deps.logger,
          enabled: deps.selfCanary ?? true,
          ...selfAddress,
        });
    },
    start: () => workers?.start(),
    // Stops claiming checks before the database goes.
    stop: async () => workers?.stop(),
  };
}
