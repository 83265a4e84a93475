import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../http/app-error.js';
import {
  checkMetricsToken,
  METRICS_PATH,
  METRICS_TOKEN_MISSING_MESSAGE,
  METRICS_TOKEN_WRONG_MESSAGE,
} from './metrics-fns.js';
import type { Metrics } from './metrics-service.js';

export type MetricsRoutesOptions = {
  metrics: Pick<Metrics, 'render'>;
  /**
   * LOOKOUT_METRICS_TOKEN: callers must send it as a bearer token. Always set on the main port;
   * on LOOKOUT_METRICS_PORT's own listener it may be left out (the port is the protection).
   */
  token?: string;
};

/**
 * GET /metrics in the Prometheus text format. It lives outside /api, so the session and role
 * checks of route-access.ts do not apply: Prometheus has no session, and a session (anyone's)
 * does not open it. Only the metrics token does, or being able to reach the metrics port.
 */
export const metricsRoutes: FastifyPluginAsync<MetricsRoutesOptions> = async (app, { metrics, token }) => {
  app.get(
    METRICS_PATH,
    {
      // Not part of the API the console calls; Prometheus reads it.
      schema: { hide: true },
      // A scrape every few seconds would fill the log with request lines; refusals still show.
      logLevel: 'warn',
      onRequest: async (request, reply) => {
        if (token === undefined) return;
        const presented = checkMetricsToken(request.headers.authorization, token);
        if (presented === 'missing') {
          reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
          throw new AppError(401, 'metrics_token_required', METRICS_TOKEN_MISSING_MESSAGE);
        }
        if (presented === 'wrong') throw new AppError(403, 'metrics_token_wrong', METRICS_TOKEN_WRONG_MESSAGE);
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await metrics.render();
      return reply.header('Cache-Control', 'no-store').type(contentType).send(body);
    },
  );
};
