import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../src/db/free-port.js';
import { bearer, createSignedInUser, type TestUser } from './access-helpers.js';
import { buildTestApp, type TestApp } from './build-test-app.js';

/**
 * A real Prometheus (Debian's `prometheus` package, which scripts/ensure-test-tools.mjs
 * installs) scrapes a listening Lookout with LOOKOUT_METRICS_TOKEN, as an operator would set it
 * up; the values are then read back through Prometheus's query API. A second job with a wrong
 * token shows the scrape is refused.
 */

const TOKEN = 'prometheus-scrape-token-0123456789';
const binary = [process.env.PROMETHEUS_BIN, '/usr/bin/prometheus', '/usr/local/bin/prometheus'].find(
  (file): file is string => !!file && existsSync(file),
);

type Series = { metric: Record<string, string>; value: [number, string] };

let unavailable: string | undefined = binary
  ? undefined
  : 'prometheus is not installed (run scripts/ensure-test-tools.mjs)';
let prometheus: ChildProcess | undefined;
let prometheusUrl = '';
let dir = '';
let target: http.Server;
let testApp: TestApp;
let admin: TestUser;
let lookoutPort = 0;

async function waitUntil<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    if (prometheus?.exitCode !== null && prometheus?.exitCode !== undefined) {
      throw new Error(`prometheus exited with code ${prometheus.exitCode}`);
    }
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

async function query(promql: string): Promise<Series[]> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await response.json()) as { status: string; data?: { result: Series[] }; error?: string };
  if (body.status !== 'success') throw new Error(`query ${promql} failed: ${body.error ?? response.status}`);
  return body.data?.result ?? [];
}

/** The series of `promql` once Prometheus has any. */
const seriesOf = (promql: string) =>
  waitUntil(promql, async () => {
    const result = await query(promql);
    return result.length > 0 ? result : undefined;
  });

beforeAll(async () => {
  target = http.createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  testApp = await buildTestApp({ metrics: { token: TOKEN } });
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  lookoutPort = (testApp.app.server.address() as AddressInfo).port;
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'admin@prometheus.test',
    roles: ['admin'],
  });
  if (!binary) return;

  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-metrics-prometheus-'));
  const port = await findFreePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  const job = (name: string, token: string) =>
    [
      `  - job_name: ${name}`,
      `    metrics_path: /metrics`,
      `    authorization:`,
      `      credentials: ${token}`,
      `    static_configs:`,
      `      - targets: ['127.0.0.1:${lookoutPort}']`,
    ].join('\n');
  const config = path.join(dir, 'prometheus.yml');
  await writeFile(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      job('lookout', TOKEN),
      job('lookout-wrong-token', `${TOKEN}-wrong`),
      '',
    ].join('\n'),
  );
  prometheus = spawn(
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  );
  try {
    await waitUntil('prometheus to be ready', async () =>
      (await fetch(`${prometheusUrl}/-/ready`)).ok ? true : undefined,
    );
  } catch (error) {
    unavailable = `prometheus did not start: ${(error as Error).message}`;
  }
}, 60_000);

afterAll(async () => {
  prometheus?.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
  await testApp?.close();
  await new Promise((resolve) => target?.close(resolve));
});

describe('a real Prometheus scraping GET /metrics', () => {
  it('scrapes it with the token, is refused with a wrong one, and stores check results with their labels', async () => {
    if (unavailable) {
      console.warn(`SKIPPED metrics scrape by Prometheus: ${unavailable}`);
      return;
    }
    const applied = await testApp.app.inject({
      method: 'POST',
      url: '/api/canary/apply',
      headers: { ...bearer(admin), 'content-type': 'application/json' },
      payload: {
        apiVersion: 'canaries.flanksource.com/v1',
        kind: 'Canary',
        metadata: { name: 'scraped', namespace: 'prom' },
        spec: {
          interval: 3600,
          owner: 'sre',
          http: [{ name: 'home', url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` }],
        },
      },
    });
    expect(applied.statusCode).toBe(200);
    const { rows } = await testApp.database.pool.query<{ id: string; endpoint: string }>(
      `SELECT id, endpoint FROM checks WHERE name = 'home' AND deleted_at IS NULL`,
    );
    const check = rows[0]!;
    const run = await testApp.app.inject({
      method: 'POST',
      url: `/api/canary/run/check/${check.id}`,
      headers: bearer(admin),
    });
    expect(run.json()).toMatchObject({ success: 1 });

    const [success] = await seriesOf(`canary_check_success_count{job="lookout",key="${check.id}"}`);
    expect(success?.metric).toEqual({
      __name__: 'canary_check_success_count',
      instance: `127.0.0.1:${lookoutPort}`,
      job: 'lookout',
      type: 'http',
      endpoint: check.endpoint,
      canary_name: 'scraped',
      canary_namespace: 'prom',
      owner: 'sre',
      // No severity: Prometheus stores an empty label as no label at all.
      key: check.id,
      name: 'home',
    });
    expect(success?.value[1]).toBe('1');
    expect((await seriesOf(`canary_check{job="lookout",key="${check.id}"}`))[0]?.value[1]).toBe('0');
    expect((await seriesOf(`canary_check_failed_count{job="lookout",key="${check.id}"}`))[0]?.value[1]).toBe('0');
    const buckets = await seriesOf(`canary_check_duration_bucket{job="lookout",key="${check.id}"}`);
    expect(buckets.map((series) => series.metric.le).sort()).toEqual(
      ['+Inf', '10', '1000', '10000', '200', '25', '3000', '30000', '5', '50', '500'].sort(),
    );
    const runs = await seriesOf(
      `lookout_http_requests_total{job="lookout",route="/api/canary/run/check/:id",method="POST",status_code="200"}`,
    );
    expect(Number(runs[0]?.value[1])).toBeGreaterThanOrEqual(1);
    expect(Number((await seriesOf('process_resident_memory_bytes{job="lookout"}'))[0]?.value[1])).toBeGreaterThan(0);

    expect((await seriesOf('up{job="lookout"}'))[0]?.value[1]).toBe('1');
    expect((await seriesOf('up{job="lookout-wrong-token"}'))[0]?.value[1]).toBe('0');
    // The refused scrapes stored nothing but up and Prometheus's own scrape series.
    expect(await query('canary_check_success_count{job="lookout-wrong-token"}')).toEqual([]);
  }, 90_000);
});
