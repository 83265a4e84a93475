import type { Database } from '../../db/database.js';
import { noBootstrap, noWorkers, type ServerModule } from '../../http/server-module.js';
import { systemRoutes } from './system-routes.js';
import { createSystemService } from './system-service.js';

export type SystemModuleDeps = {
  database: Database;
  version: string;
  startedAt: Date;
};

export type SystemModule = ServerModule<Record<string, never>>;

/** System: /api/health, /api/about and the like. */
export function createSystemModule(deps: SystemModuleDeps): SystemModule {
  const system = createSystemService(deps);
  return {
    services: {},
    async routes(app) {
      await app.register(
        async (api) => {
          await api.register(systemRoutes, { system });
        },
        { prefix: '/api' },
      );
    },
    ...noBootstrap,
    ...noWorkers,
  };
}
