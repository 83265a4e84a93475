import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import { errorEnvelope, registerErrorHandler } from '../../http/error-envelope.js';
import { METRICS_PATH } from './metrics-fns.js';
import { metricsRoutes } from './metrics-routes.js';
import type { Metrics } from './metrics-service.js';

export type MetricsListener = {
  /** The address it listens on, e.g. http://127.0.0.1:9464. */
  address: string;
  close: () => Promise<void>;
};

/**
 * LOOKOUT_METRICS_PORT: GET /metrics on a listener of its own, reachable only where that port
 * is (a firewall or a Kubernetes NetworkPolicy decides), so the public port does not serve it.
 * Every other path there is a 404.
 */
export async function startMetricsListener(options: {
  metrics: Pick<Metrics, 'render'>;
  host: string;
  port: number;
  /** LOOKOUT_METRICS_TOKEN, required here too when set. */
  token?: string;
  logger: Logger;
}): Promise<MetricsListener> {
  const listener = Fastify({ loggerInstance: options.logger as FastifyBaseLogger });
  registerErrorHandler(listener);
  await listener.register(metricsRoutes, {
    metrics: options.metrics,
    ...(options.token !== undefined ? { token: options.token } : {}),
  });
  listener.setNotFoundHandler(async (_request, reply) =>
    reply.status(404).send(errorEnvelope('not_found', `This port serves only GET ${METRICS_PATH}.`)),
  );
  try {
    const address = await listener.listen({ host: options.host, port: options.port });
    return { address, close: () => listener.close() };
  } catch (error) {
    await listener.close();
    throw error;
  }
}
