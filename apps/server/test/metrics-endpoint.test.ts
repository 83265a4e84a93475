import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from './access-helpers.js';
import { buildTestApp, type TestApp } from './build-test-app.js';
import {
  PROMTOOL,
  promtoolCheckMetrics,
  readMetrics,
  samplesOf,
  valueOf,
  type MetricsText,
} from './prometheus-text.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { SERVER_VERSION } from '../src/version.js';
import { createHealthJobs, HEALTH_JOB_NAMES } from '../src/modules/health/health-jobs.js';
import { createJobs } from '../src/jobs/jobs.js';
import { createHealthRepository } from '../src/modules/health/health-repository.js';
import { secretsUnavailable } from '../src/modules/health/health-run-fns.js';
import { createCheckScheduler } from '../src/modules/health/health-scheduler.js';
import { runCheck } from '../src/modules/health/runners/runners.js';
import { createCourier } from '../src/modules/identity/identity-courier.js';
import { createCourierRepository } from '../src/modules/identity/identity-courier-repository.js';
import { COURIER_SEND_JOB, createCourierSender } from '../src/modules/identity/identity-courier-sender.js';
import { createSecretBox, randomToken } from '../src/modules/identity/identity-crypto.js';
import {
  IDENTITY_HOUSEKEEPING_JOB,
  scheduleIdentityHousekeeping,
} from '../src/modules/identity/identity-housekeeping.js';
import { createMetricsRepository } from '../src/modules/metrics/metrics-repository.js';
import { createMetrics, type Metrics } from '../src/modules/metrics/metrics-service.js';

/**
 * GET /metrics on a real app with LOOKOUT_METRICS_TOKEN: who may read it, that Prometheus's
 * own parser (promtool) accepts it, and that check runs (Run Now and scheduled), HTTP requests,
 * the scheduler's backlog and job runs show in it with the labels docs/metrics.md lists.
 */

const TOKEN = 'metrics-token-0123456789abcdef';
const silent = pino({ level: 'silent' });

let target: http.Server;
let targetPort = 0;
let database: TestDatabase;
let metrics: Metrics;
let testApp: TestApp;
let admin: TestUser;

beforeAll(async () => {
  // /ok answers 200, anything else 500.
  target = http.createServer((request, response) => {
    response.writeHead(request.url === '/ok' ? 200 : 500, { 'content-type': 'text/plain' });
    response.end(request.url === '/ok' ? 'ok' : 'broken');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
  database = await createTestDatabase();
  metrics = createMetrics({
    repository: createMetricsRepository(database.pool),
    logger: silent,
    version: SERVER_VERSION,
  });
  testApp = await buildTestApp({ database, metrics: { instruments: metrics, token: TOKEN } });
  admin = await createSignedInUser(testApp.app, database.pool, { email: 'admin@metrics.test', roles: ['admin'] });
});

afterAll(async () => {
  await testApp?.close();
  await database?.drop();
  await new Promise((resolve) => target?.close(resolve));
});

const scrapeResponse = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  testApp.app.inject({ method: 'GET', url: '/metrics', headers });

async function scrape(): Promise<MetricsText> {
  const response = await scrapeResponse();
  expect(response.statusCode).toBe(200);
  return readMetrics(response.body);
}

/** Applies the `shop` canary (one check that passes, one that fails) and returns its checks. */
async function applyShopCanary() {
  const applied = await testApp.app.inject({
    method: 'POST',
    url: '/api/canary/apply',
    headers: { ...bearer(admin), 'content-type': 'application/json' },
    payload: {
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: 'shop', namespace: 'metrics' },
      spec: {
        interval: 3600,
        owner: 'platform',
        severity: 'high',
        http: [
          { name: 'storefront', url: `http://127.0.0.1:${targetPort}/ok` },
          // The password must not reach the metrics: the endpoint label is the masked one.
          { name: 'checkout', url: `http://probe:s3cret-pass@127.0.0.1:${targetPort}/broken`, severity: 'critical' },
        ],
      },
    },
  });
  expect(applied.statusCode).toBe(200);
  const { rows } = await database.pool.query<{ id: string; name: string; endpoint: string }>(
    `SELECT c.id, c.name, c.endpoint FROM checks c JOIN canaries k ON k.id = c.canary_id
     WHERE k.name = 'shop' AND c.deleted_at IS NULL`,
  );
  const byName = (name: string) => {
    const row = rows.find((candidate) => candidate.name === name);
    if (!row) throw new Error(`check ${name} was not derived`);
    return row;
  };
  return { storefront: byName('storefront'), checkout: byName('checkout') };
}

describe('GET /metrics: access', () => {
  it('asks for the token, refuses a wrong one and any session, and answers the right one in text format 0.0.4', async () => {
    const missing = await scrapeResponse({});
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(missing.json()).toMatchObject({ error: { code: 'metrics_token_required' } });
    expect(missing.json().message).toContain('Authorization: Bearer <LOOKOUT_METRICS_TOKEN>');
    expect(
      (await scrapeResponse({ authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` })).statusCode,
    ).toBe(401);

    const wrong = await scrapeResponse({ authorization: `Bearer ${TOKEN}-not` });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ error: { code: 'metrics_token_wrong' } });
    expect(wrong.body).not.toContain(TOKEN);
    // An admin's session token is a bearer token too, but not this one.
    expect((await scrapeResponse(bearer(admin))).statusCode).toBe(403);
    expect((await scrapeResponse({ 'x-session-token': admin.token })).statusCode).toBe(401);

    const right = await scrapeResponse();
    expect(right.statusCode).toBe(200);
    expect(right.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(right.headers['cache-control']).toBe('no-store');
    const text = readMetrics(right.body);
    // Process metrics, and the build.
    expect(valueOf(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(text, 'lookout_build_info', { version: SERVER_VERSION })).toBe(1);
  });

  it("is the console's not-found page when neither LOOKOUT_METRICS_TOKEN nor LOOKOUT_METRICS_PORT is set", async () => {
    const webDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-metrics-web-'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Lookout</title><div id="root"></div>');
    const plain = await buildTestApp({ webDir });
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const response = await plain.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('<title>Lookout</title>');
        expect(response.body).not.toContain('# TYPE');
      }
    } finally {
      await plain.close();
      await rm(webDir, { recursive: true, force: true });
    }
  });
});

describe('GET /metrics: format', () => {
  it("passes Prometheus's own parser (promtool check metrics); its only lint findings are the names kept for compatibility", async () => {
    await applyShopCanary();
    const response = await scrapeResponse();
    if (!PROMTOOL) {
      console.warn('SKIPPED promtool format check: promtool is not installed (run scripts/ensure-test-tools.mjs)');
      return;
    }
    const verdict = await promtoolCheckMetrics(response.body, PROMTOOL);
    // 1 would mean unparsable; 3 means parsed, with naming findings.
    expect([0, 3]).toContain(verdict.code);
    const unexpected = verdict.findings.filter(
      (finding) =>
        // canary-checker's counter names (canary_check_*_count), kept as its dashboards query them.
        !/^canary_check(_success|_failed|_invalid)?_count (counter metrics should have "_total" suffix|non-histogram and non-summary metrics should not have "_count" suffix)$/.test(
          finding,
        ) &&
        // prom-client's Node.js gauges of active handles, requests and resources.
        !/^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/.test(
          finding,
        ),
    );
    expect(unexpected).toEqual([]);
  });
});

describe('GET /metrics: check results', () => {
  it("shows Run Now's passing and failing runs under canary-checker's names and labels", async () => {
    const { storefront, checkout } = await applyShopCanary();
    for (const check of [storefront, checkout]) {
      const run = await testApp.app.inject({
        method: 'POST',
        url: `/api/canary/run/check/${check.id}`,
        headers: bearer(admin),
      });
      expect(run.statusCode).toBe(200);
    }
    const text = await scrape();
    const labelsOf = (check: { id: string; name: string; endpoint: string }, severity: string) => ({
      type: 'http',
      endpoint: check.endpoint,
      canary_name: 'shop',
      canary_namespace: 'metrics',
      owner: 'platform',
      severity,
      key: check.id,
      name: check.name,
    });
    const passed = labelsOf(storefront, 'high');
    expect(samplesOf(text, 'canary_check_count', passed)[0]?.labels).toEqual(passed);
    expect(valueOf(text, 'canary_check_count', passed)).toBe(1);
    expect(valueOf(text, 'canary_check_success_count', passed)).toBe(1);
    expect(valueOf(text, 'canary_check_failed_count', passed)).toBe(0);
    expect(valueOf(text, 'canary_check_duration_count', passed)).toBe(1);
    expect(valueOf(text, 'canary_check_duration_bucket', { ...passed, le: '+Inf' })).toBe(1);

    const failed = labelsOf(checkout, 'critical');
    expect(valueOf(text, 'canary_check_count', failed)).toBe(1);
    expect(valueOf(text, 'canary_check_success_count', failed)).toBe(0);
    expect(valueOf(text, 'canary_check_failed_count', failed)).toBe(1);

    // The gauge comes from the checks' stored status: 0 healthy, 1 unhealthy.
    const gaugeLabels = (check: { id: string; name: string }) => ({
      key: check.id,
      type: 'http',
      canary_name: 'shop',
      canary_namespace: 'metrics',
      name: check.name,
    });
    expect(samplesOf(text, 'canary_check', { key: storefront.id })).toEqual([
      { name: 'canary_check', labels: gaugeLabels(storefront), value: 0 },
    ]);
    expect(samplesOf(text, 'canary_check', { key: checkout.id })).toEqual([
      { name: 'canary_check', labels: gaugeLabels(checkout), value: 1 },
    ]);

    // The endpoint label is the masked endpoint; the password is nowhere in the answer.
    expect(checkout.endpoint).toContain('127.0.0.1');
    expect((await scrapeResponse()).body).not.toContain('s3cret-pass');
  });

  it('counts scheduled runs the same way, with their start delay, and reports the backlog', async () => {
    const { storefront, checkout } = await applyShopCanary();
    // Nothing else due; checkout due 30 s ago, storefront due 90 s ago.
    await database.pool.query(`UPDATE checks SET next_runtime = now() + interval '1 hour' WHERE deleted_at IS NULL`);
    await database.pool.query(`UPDATE checks SET next_runtime = now() - interval '30 seconds' WHERE id = $1`, [
      checkout.id,
    ]);
    await database.pool.query(`UPDATE checks SET next_runtime = now() - interval '90 seconds' WHERE id = $1`, [
      storefront.id,
    ]);
    let text = await scrape();
    expect(valueOf(text, 'lookout_scheduler_queue_depth')).toBe(2);
    expect(valueOf(text, 'lookout_scheduler_lag_seconds')).toBeGreaterThanOrEqual(90);
    const before = valueOf(text, 'canary_check_count', { key: storefront.id }) ?? 0;
    const delaysBefore = valueOf(text, 'lookout_scheduler_start_delay_seconds_count') ?? 0;

    const scheduler = createCheckScheduler({
      repository: createHealthRepository(database.pool),
      runCheck,
      resolveSecret: secretsUnavailable,
      logger: silent,
      settings: { concurrency: 2, checkTimeoutMs: 5_000, pollIntervalMs: 100 },
      metrics,
    });
    scheduler.start();
    try {
      const deadline = Date.now() + 20_000;
      while (scheduler.stats().runs < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(scheduler.stats().runs).toBeGreaterThanOrEqual(2);
    } finally {
      await scheduler.stop();
    }
    text = await scrape();
    expect(valueOf(text, 'canary_check_count', { key: storefront.id })).toBe(before + 1);
    expect(
      valueOf(text, 'canary_check_failed_count', { key: checkout.id, severity: 'critical' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'lookout_scheduler_start_delay_seconds_count')).toBe(delaysBefore + 2);
    expect(valueOf(text, 'lookout_scheduler_start_delay_seconds_sum')).toBeGreaterThanOrEqual(90 + 30);
    // Both ran and were rescheduled an hour on: nothing is due any more.
    expect(valueOf(text, 'lookout_scheduler_queue_depth')).toBe(0);
    expect(valueOf(text, 'lookout_scheduler_lag_seconds')).toBe(0);
  });
});

describe('GET /metrics: HTTP requests', () => {
  it('counts requests by method, route pattern and status, never by the raw address', async () => {
    const { storefront } = await applyShopCanary();
    const route = { method: 'POST', route: '/api/canary/run/check/:id', status_code: '200' };
    const before = valueOf(await scrape(), 'lookout_http_requests_total', route) ?? 0;
    await testApp.app.inject({ method: 'POST', url: `/api/canary/run/check/${storefront.id}`, headers: bearer(admin) });
    await testApp.app.inject({ method: 'GET', url: '/api/no-such-route/12345?x=1', headers: bearer(admin) });

    const text = await scrape();
    expect(valueOf(text, 'lookout_http_requests_total', route)).toBe(before + 1);
    expect(valueOf(text, 'lookout_http_request_duration_seconds_count', route)).toBe(before + 1);
    expect(
      valueOf(text, 'lookout_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' }),
    ).toBe(1);
    const routes = new Set(samplesOf(text, 'lookout_http_requests_total').map((sample) => sample.labels.route ?? ''));
    expect(routes.size).toBeGreaterThan(2);
    expect([...routes].filter((value) => value.includes(storefront.id) || value.includes('12345'))).toEqual([]);
    // The scrapes themselves are requests too.
    expect(
      valueOf(text, 'lookout_http_requests_total', { method: 'GET', route: '/metrics', status_code: '200' }),
    ).toBeGreaterThan(0);
  });
});

describe('GET /metrics: background jobs', () => {
  it('records each health job run with its duration and status, and counts failures', async () => {
    const settings = {
      rollupIntervalMs: 300_000,
      summaryRefreshMs: 30_000,
      retentionDays: { raw: 30, hourly: 90, daily: 270 },
      lateMarginMs: 90_000,
    };
    const repository = createHealthRepository(database.pool);
    const jobs = createHealthJobs({
      repository,
      jobs: createJobs({ pool: database.pool, logger: silent, metrics }),
      settings,
    });
    expect(await jobs.refreshSummary()).toMatchObject({ ran: true, status: 'SUCCESS' });

    const failing = createHealthJobs({
      repository: {
        ...repository,
        refreshLastHourSummary: () => Promise.reject(new Error('the summary table is locked')),
      },
      jobs: createJobs({ pool: database.pool, logger: silent, metrics }),
      settings,
    });
    expect(await failing.refreshSummary()).toMatchObject({ ran: true, status: 'FAILED' });

    const text = await scrape();
    const job = { name: HEALTH_JOB_NAMES.refreshSummary };
    expect(valueOf(text, 'lookout_job_duration_seconds_count', { ...job, status: 'SUCCESS' })).toBe(1);
    expect(valueOf(text, 'lookout_job_duration_seconds_count', { ...job, status: 'FAILED' })).toBe(1);
    expect(valueOf(text, 'lookout_job_failures_total', job)).toBe(1);
    expect(valueOf(text, 'lookout_job_last_success_timestamp_seconds', job)).toBeGreaterThan(Date.now() / 1000 - 600);
    // What job_history holds for the same runs.
    const { rows } = await database.pool.query<{ status: string }>(
      `SELECT status FROM job_history WHERE name = $1 ORDER BY created_at`,
      [job.name],
    );
    expect(rows.map((row) => row.status)).toEqual(['SUCCESS', 'FAILED']);
  });

  it('records identity housekeeping runs, failed ones too', async () => {
    let fail = false;
    const jobs = createJobs({ pool: database.pool, logger: silent, metrics });
    scheduleIdentityHousekeeping({
      repository: {
        purgeExpired: async () => {
          if (fail) throw new Error('database unavailable');
          return 0;
        },
      },
      jobs,
      intervalMs: 20,
    });
    jobs.start();
    const countOf = async (status: string) =>
      valueOf(await scrape(), 'lookout_job_duration_seconds_count', { name: IDENTITY_HOUSEKEEPING_JOB, status }) ?? 0;
    try {
      const deadline = Date.now() + 10_000;
      while ((await countOf('SUCCESS')) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      fail = true;
      while ((await countOf('FAILED')) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await jobs.stop();
    }
    expect(await countOf('SUCCESS')).toBeGreaterThan(0);
    expect(await countOf('FAILED')).toBeGreaterThan(0);
    expect(valueOf(await scrape(), 'lookout_job_failures_total', { name: IDENTITY_HOUSEKEEPING_JOB })).toBeGreaterThan(
      0,
    );
  });

  it('records passes of the email outbox sender, failed deliveries as FAILED', async () => {
    const box = createSecretBox(randomToken());
    const repository = createCourierRepository(database.pool);
    const courier = createCourier({ repository, box });
    let smtpDown = false;
    const sender = createCourierSender({
      repository,
      box,
      transport: {
        sendMail: async () => {
          if (smtpDown) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
        },
      },
      from: 'Lookout <no-reply@lookout.local>',
      logger: silent,
      settings: { pollIntervalMs: 50, retry: { maxAttempts: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 } },
      jobs: createJobs({ pool: database.pool, logger: silent, metrics }),
    });
    const countOf = async (status: string) =>
      valueOf(await scrape(), 'lookout_job_duration_seconds_count', { name: COURIER_SEND_JOB, status }) ?? 0;
    const eventually = async (status: string) => {
      const deadline = Date.now() + 15_000;
      while ((await countOf(status)) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return countOf(status);
    };
    sender.start();
    try {
      await courier.queue({ template: 'recovery_code_valid', code: '246810', to: 'someone@metrics.test' });
      expect(await eventually('SUCCESS')).toBe(1);
      smtpDown = true;
      await courier.queue({ template: 'recovery_code_valid', code: '135790', to: 'someone@metrics.test' });
      expect(await eventually('FAILED')).toBe(1);
    } finally {
      await sender.stop();
    }
    expect(valueOf(await scrape(), 'lookout_job_failures_total', { name: COURIER_SEND_JOB })).toBe(1);
  });
});
