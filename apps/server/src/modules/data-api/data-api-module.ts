import type pg from 'pg';
import type { Logger } from 'pino';
import { noBootstrap, type ServerModule } from '../../http/server-module.js';
import type { AccessServices } from '../access/access-module.js';
import { dataApiRoutes } from './data-api-routes.js';
import { createDataApiService, type DataApiService } from './data-api-service.js';

export type DataApiModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  access: Pick<AccessServices['access'], 'rolesOf'>;
  /** Local property names guard /api/db/properties; a flag write refreshes the flags. */
  featureFlags: Pick<AccessServices['featureFlags'], 'localNames' | 'invalidate'>;
  /**
   * Checks other modules make on writes before the engine, each wrapping the data API for its
   * own relations (health: canary writes; connections: sealing credentials), applied in order.
   */
  guardWrites?: readonly ((dataApi: DataApiService) => DataApiService)[];
};

export type DataApiModule = ServerModule<Record<string, never>>;

/** The data API: the PostgREST-compatible engine over the allow-listed relations, at /api/db. */
export async function createDataApiModule(deps: DataApiModuleDeps): Promise<DataApiModule> {
  const dataApi = await createDataApiService({
    pool: deps.pool,
    logger: deps.logger,
    localPropertyNames: deps.featureFlags.localNames,
    onRelationWritten: (relation) => {
      if (relation === 'properties') deps.featureFlags.invalidate();
    },
  });
  return {
    services: {},
    async routes(app) {
      await app.register(dataApiRoutes, {
        prefix: '/api/db',
        dataApi: (deps.guardWrites ?? []).reduce((guarded, guard) => guard(guarded), dataApi),
        access: deps.access,
      });
    },
    ...noBootstrap,
    start: () => undefined,
    // Its engine's connections and caches.
    stop: () => dataApi.close(),
  };
}
