import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import { noBootstrap, type ServerModule } from '../../http/server-module.js';
import { registerHttpMetrics } from './metrics-http.js';
import { startMetricsListener, type MetricsListener } from './metrics-listener.js';
import { createMetricsRepository } from './metrics-repository.js';
import { metricsRoutes } from './metrics-routes.js';
import { createMetrics, type Metrics } from './metrics-service.js';

export type MetricsModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  version: string;
  /** The process's metrics, when they are made elsewhere (tests share them). Default: the module's own. */
  instruments?: Metrics;
  /** LOOKOUT_METRICS_TOKEN: GET /metrics on the app's port, for that bearer token. Unset: not served there. */
  token?: string;
};

export type MetricsServices = {
  metrics: Metrics;
  /** Counts every answer by route pattern: called before any route is registered. */
  instrument: (app: FastifyInstance) => void;
  /**
   * LOOKOUT_METRICS_PORT: GET /metrics on a listener of its own (closed by `stop`), and says in
   * the log where GET /metrics is served, if anywhere.
   */
  serve: (options: { host: string; port?: number; token?: string }) => Promise<void>;
};

export type MetricsModule = ServerModule<MetricsServices>;

/** Metrics: Prometheus metrics of HTTP answers, checks, jobs and database reads (docs/metrics.md). */
export function createMetricsModule(deps: MetricsModuleDeps): MetricsModule {
  const metrics =
    deps.instruments ??
    createMetrics({ repository: createMetricsRepository(deps.pool), logger: deps.logger, version: deps.version });
  let listener: MetricsListener | undefined;
  return {
    services: {
      metrics,
      instrument: (app) => registerHttpMetrics(app, metrics),
      async serve({ host, port, token }) {
        if (port === undefined) {
          if (token) deps.logger.info('GET /metrics is served on the main port to callers with LOOKOUT_METRICS_TOKEN');
          return;
        }
        listener = await startMetricsListener({
          metrics,
          host,
          port,
          ...(token ? { token } : {}),
          logger: deps.logger.child({ module: 'metrics' }),
        });
        deps.logger.info(
          { address: listener.address, token: Boolean(token) },
          'GET /metrics is served on LOOKOUT_METRICS_PORT',
        );
      },
    },
    async routes(app) {
      // Without the token here it is the console's not-found page (LOOKOUT_METRICS_PORT serves it instead).
      if (deps.token) await app.register(metricsRoutes, { metrics, token: deps.token });
    },
    ...noBootstrap,
    start: () => undefined,
    async stop() {
      const open = listener;
      listener = undefined;
      await open?.close();
    },
  };
}
