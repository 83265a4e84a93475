import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics-service.js';

/**
 * Counts every answer of `app` by method, route pattern and status code. Registered on the
 * root instance before any route (Fastify gives a route the hooks that exist when it is
 * added), so every route and the not-found handler are counted. A callback hook: counting is
 * synchronous, so no answer pays for a promise and a microtask to be counted.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Pick<Metrics, 'observeHttpRequest'>): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeHttpRequest({
      method: request.method,
      routePattern: request.routeOptions.url,
      statusCode: reply.statusCode,
      durationMs: reply.elapsedTime,
    });
    done();
  });
}
