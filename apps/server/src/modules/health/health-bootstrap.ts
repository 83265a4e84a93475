import type pg from 'pg';
import type { Logger } from 'pino';
import { selfCanaryTargets } from './health-canary-fns.js';
import { buildHealthService } from './health-service-factory.js';

export { selfCanaryTargets };

/**
 * Start-up work of the health module for `lookout serve`: the `lookout-self` canary, kept
 * pointed at this server's HTTP port and at the PostgreSQL it uses (an embedded PostgreSQL
 * gets a new port at every start, so the tcp check is rewritten then). With several replicas
 * the last one to start writes its address, but each replica runs the canary's checks against
 * itself (forThisReplica in health-canary-fns.ts), so the canary does not follow that one.
 */
export async function ensureSelfCanary(input: {
  pool: pg.Pool;
  logger: Logger;
  enabled: boolean;
  host: string;
  port: number;
  databaseUrl: string;
}): Promise<void> {
  const targets = selfCanaryTargets(input);
  if (!targets) {
    input.logger.warn('The lookout-self canary needs the database host and port; skipped');
    return;
  }
  const service = buildHealthService({ pool: input.pool, logger: input.logger });
  await service.ensureSelfCanary({ enabled: input.enabled, targets });
}
