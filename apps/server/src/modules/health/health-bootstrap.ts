import type pg from 'pg';
import type { Logger } from 'pino';
import { postgresEndpointOf, selfHealthUrl } from './health-canary-fns.js';
import { createHealthRepository } from './health-repository.js';
import { secretsUnavailable } from './health-run-fns.js';
import { createHealthService } from './health-service.js';
import { DEFAULT_CHECK_TIMEOUT_MS, runCheck } from './runners/runners.js';

/**
 * Start-up work of the health module for `lookout serve`: the `lookout-self` canary, kept
 * pointed at this server's HTTP port and at the PostgreSQL it uses (an embedded PostgreSQL
 * gets a new port at every start, so the tcp check is rewritten then).
 */
export async function ensureSelfCanary(input: {
  pool: pg.Pool;
  logger: Logger;
  enabled: boolean;
  host: string;
  port: number;
  databaseUrl: string;
}): Promise<void> {
  const postgresEndpoint = postgresEndpointOf(input.databaseUrl);
  if (!postgresEndpoint) {
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
  await service.ensureSelfCanary({
    enabled: input.enabled,
    targets: { healthUrl: selfHealthUrl(input.host, input.port), postgresEndpoint },
  });
}
