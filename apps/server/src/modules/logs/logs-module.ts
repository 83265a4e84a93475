import type pg from 'pg';
import { noBootstrap, noWorkers, type ServerModule } from '../../http/server-module.js';
import type { DataApiService } from '../data-api/data-api-service.js';
import type { LogConnectionResolver } from './http-endpoint.js';
import { DEFAULT_ROOTS, type LogFileRoots } from './log-file-roots.js';
import { guardLogBackendWrites } from './logs-data-api-guard.js';
import { logsRoutes } from './logs-routes.js';
import { createLogsService, type LogsService } from './logs-service.js';

export type LogsModuleDeps = {
  pool: pg.Pool;
  /** The connections module's `resolve`: Loki, OpenSearch and Kubernetes backends may name a connection. */
  resolveConnection?: LogConnectionResolver;
  /** LOOKOUT_LOG_FILE_ROOTS: the only directories file and journald backends may read (default /var/log). */
  fileRoots?: LogFileRoots;
};

export type LogsModule = ServerModule<{
  /** Validates logging_backends writes through /api/db (app.ts hands it to the data API). */
  guardDataApiWrites: (dataApi: DataApiService) => DataApiService;
  logs: LogsService;
}>;

/**
 * Logs (issue 19; docs/logs.md): log backends are `logging_backends` rows written through
 * /api/db; `POST /api/logs` reads a component's selector from the backend it names (files,
 * journald, Kubernetes pods, Loki, OpenSearch/Elasticsearch); files and journal directories only
 * under LOOKOUT_LOG_FILE_ROOTS (ADR 0043). Nothing runs in the background.
 */
export function createLogsModule(deps: LogsModuleDeps): LogsModule {
  const fileRoots = deps.fileRoots ?? DEFAULT_ROOTS;
  const logs = createLogsService({ ...deps, fileRoots });
  return {
    services: { guardDataApiWrites: guardLogBackendWrites(fileRoots), logs },
    async routes(app) {
      await app.register(logsRoutes, { service: logs });
    },
    ...noBootstrap,
    ...noWorkers,
  };
}
