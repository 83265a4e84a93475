import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { findFreePort } from '../../db/free-port.js';
import { readMetrics, valueOf } from '../../../test/prometheus-text.js';
import { startMetricsListener, type MetricsListener } from './metrics-listener.js';
import { createMetrics } from './metrics-service.js';

/** LOOKOUT_METRICS_PORT: /metrics on a listener of its own, over real HTTP. */

const metrics = createMetrics({
  repository: {
    checkStatuses: async () => [],
    schedulerBacklog: async () => ({ due: 3, oldestDueSeconds: 12 }),
  },
  logger: pino({ level: 'silent' }),
  version: '9.9.9',
});
const listeners: MetricsListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function listen(token?: string): Promise<string> {
  const listener = await startMetricsListener({
    metrics,
    host: '127.0.0.1',
    port: await findFreePort(),
    ...(token ? { token } : {}),
    logger: pino({ level: 'silent' }),
  });
  listeners.push(listener);
  return listener.address;
}

describe('the metrics listener', () => {
  it('serves GET /metrics and nothing else', async () => {
    const address = await listen();
    const response = await fetch(`${address}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = readMetrics(await response.text());
    expect(valueOf(text, 'lookout_build_info', { version: '9.9.9' })).toBe(1);
    expect(valueOf(text, 'lookout_scheduler_queue_depth')).toBe(3);

    for (const path of ['/', '/api/health', '/metrics/extra']) {
      const other = await fetch(`${address}${path}`);
      expect(other.status, path).toBe(404);
      expect(await other.json()).toMatchObject({
        error: { code: 'not_found', message: 'This port serves only GET /metrics.' },
      });
    }
    expect((await fetch(`${address}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('asks for LOOKOUT_METRICS_TOKEN there too when it is set', async () => {
    const token = 'listener-token-0123456789';
    const address = await listen(token);
    expect((await fetch(`${address}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${address}/metrics`, { headers: { authorization: 'Bearer nope-nope-nope-nope' } })).status,
    ).toBe(403);
    expect((await fetch(`${address}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('fails to start, naming the problem, when its port is taken', async () => {
    const address = await listen();
    const port = Number(new URL(address).port);
    await expect(
      startMetricsListener({ metrics, host: '127.0.0.1', port, logger: pino({ level: 'silent' }) }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});
