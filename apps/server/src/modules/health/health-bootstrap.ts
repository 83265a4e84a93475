import type pg from 'pg';
import type { Logger } from 'pino';
import { postgresEndpointOf, selfHealthUrl, type SelfCanaryTargets } from './health-canary-fns.js';
import { createHealthRepository } from './health-repository.js';
import { secretsUnavailable } from './health-run-fns.js';
import { createHealthService } from './health-service.js';
import { DEFAULT_CHECK_TIMEOUT_MS, runCheck } from './runners/runners.js';

/**
 * Where this server's `lookout-self` checks look: its own /api/health (a wildcard listen
 * address through loopback) and the host and port of the PostgreSQL it uses. Undefined when
 * the database URL names no host (a Unix socket), which the tcp check cannot reach.
 */
export function selfCanaryTargets(input: {
  host: string;
  port: number;
  databaseUrl: string;
}): SelfCanaryTargets | undefined {
  const postgresEndpoint = postgresEndpointOf(input.databaseUrl);
  return postgresEndpoint ? { healthUrl: selfHealthUrl(input.host, input.port), postgresEndpoint } : undefined;
}

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
  const service = createHealthService({
    repository: createHealthRepository(input.pool),
    runCheck,
    resolveSecret: secretsUnavailable,
    settings: { checkTimeoutMs: DEFAULT_CHECK_TIMEOUT_MS },
    logger: input.logger,
  });
  await service.ensureSelfCanary({ enabled: input.enabled, targets });
}
