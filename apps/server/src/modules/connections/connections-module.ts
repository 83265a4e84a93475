import type pg from 'pg';
import type { Logger } from 'pino';
import type { Sealer } from '../../crypto/sealed-values.js';
import { noWorkers, type ServerModule } from '../../http/server-module.js';
import type { ReferenceResolver } from './connection-hydrate-fns.js';
import { guardConnectionWrites } from './connections-data-api-guard.js';
import { createConnectionsRepository } from './connections-repository.js';
import { connectionsRoutes } from './connections-routes.js';
import { createConnectionsService, type ConnectionsService } from './connections-service.js';

export type ConnectionsModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  /** The app's one sealer of stored credentials (LOOKOUT_SECRET_KEY and the keys before it). */
  sealer: Sealer;
  /** Reads `secret://` / `configmap://` references of credential fields (the secrets service). */
  resolveReference?: ReferenceResolver;
  /** How long a connection test waits (tests shorten it). */
  testTimeoutMs?: number;
};

export type ConnectionsModule = ServerModule<{
  connections: ConnectionsService;
  /** Seals connection credentials written through /api/db (app.ts hands it to the data API). */
  guardDataApiWrites: ReturnType<typeof guardConnectionWrites>;
}>;

/**
 * Connections (issue 12 part 2; docs/connections.md): the table is read and written through
 * /api/db, with credentials sealed by this module's write hook and masked in SQL for every
 * reader; `resolve` hands other modules a connection ready for use; `POST
 * /api/connection/test/{id}` tests one with the tester of its type (testers/registry.ts).
 */
export function createConnectionsModule(deps: ConnectionsModuleDeps): ConnectionsModule {
  const repository = createConnectionsRepository(deps.pool);
  const connections = createConnectionsService({
    repository,
    sealer: deps.sealer,
    logger: deps.logger,
    ...(deps.resolveReference ? { resolveReference: deps.resolveReference } : {}),
    ...(deps.testTimeoutMs ? { testTimeoutMs: deps.testTimeoutMs } : {}),
  });
  return {
    services: {
      connections,
      guardDataApiWrites: guardConnectionWrites({ sealing: deps.sealer, repository }),
    },
    async routes(app) {
      await app.register(connectionsRoutes, { connections });
    },
    // After a key rotation, values sealed under the previous key are sealed again under the
    // current one, before anything uses them (every replica may do it; the update is guarded).
    async bootstrap() {
      await connections.resealAll();
    },
    ...noWorkers,
  };
}
