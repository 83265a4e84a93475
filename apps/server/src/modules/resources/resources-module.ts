import type pg from 'pg';
import { noBootstrap, noWorkers, type ServerModule } from '../../http/server-module.js';
import { resourceSearchRoutes } from './resource-search-routes.js';

export type ResourcesModuleDeps = { pool: pg.Pool };

/** Resources across areas: `POST /api/resources/search` over checks, components and config items (pickers). */
export function createResourcesModule({ pool }: ResourcesModuleDeps): ServerModule<Record<string, never>> {
  return {
    services: {},
    async routes(app) {
      await app.register(resourceSearchRoutes, { prefix: '/api', pool });
    },
    ...noBootstrap,
    ...noWorkers,
  };
}
