import { describe, expect, it, vi } from 'vitest';
import { readMetrics, samplesOf, valueOf } from '../../../test/prometheus-text.js';
import type { CheckMetricSubject } from './metrics-fns.js';
import type { CheckStatusRow, SchedulerBacklog } from './metrics-repository.js';
import { createMetrics } from './metrics-service.js';

const check: CheckMetricSubject = {
  id: '0190d6f5-8f54-7a1e-9c3b-3f1e2d4c5b6a',
  type: 'http',
  name: 'home',
  canary: { name: 'web', namespace: 'shop' },
  endpoint: 'https://shop.example/',
  owner: 'platform',
  severity: 'high',
};
const labels = {
  type: 'http',
  endpoint: 'https://shop.example/',
  canary_name: 'web',
  canary_namespace: 'shop',
  owner: 'platform',
  severity: 'high',
  key: check.id,
  name: 'home',
};

function metricsWith(
  rows: CheckStatusRow[] | Error = [],
  backlog: SchedulerBacklog | Error = { due: 0, oldestDueSeconds: 0 },
) {
  const logger = { warn: vi.fn() };
  const metrics = createMetrics({
    repository: {
      checkStatuses: async () => {
        if (rows instanceof Error) throw rows;
        return rows;
      },
      schedulerBacklog: async () => {
        if (backlog instanceof Error) throw backlog;
        return backlog;
      },
    },
    logger,
    version: '1.2.3',
    processMetrics: false,
  });
  const scrape = async () => readMetrics((await metrics.render()).body);
  return { metrics, logger, scrape };
}

describe('check result metrics', () => {
  it('counts passes and failures under canary-checker names, each series present from the first run', async () => {
    const { metrics, scrape } = metricsWith();
    metrics.recordCheckResult(check, { status: true, invalid: false, durationMs: 120 });
    let families = await scrape();
    expect(valueOf(families, 'canary_check_count', labels)).toBe(1);
    expect(valueOf(families, 'canary_check_success_count', labels)).toBe(1);
    expect(valueOf(families, 'canary_check_failed_count', labels)).toBe(0);

    metrics.recordCheckResult(check, { status: false, invalid: false, durationMs: 4000 });
    families = await scrape();
    expect(valueOf(families, 'canary_check_count', labels)).toBe(2);
    expect(valueOf(families, 'canary_check_success_count', labels)).toBe(1);
    expect(valueOf(families, 'canary_check_failed_count', labels)).toBe(1);
    expect(valueOf(families, 'canary_check_invalid_count', labels)).toBeUndefined();

    // Milliseconds, in canary-checker's buckets.
    expect(families.types.get('canary_check_duration')).toBe('histogram');
    expect(valueOf(families, 'canary_check_duration_count', labels)).toBe(2);
    expect(valueOf(families, 'canary_check_duration_sum', labels)).toBe(4120);
    const buckets = samplesOf(families, 'canary_check_duration_bucket', labels);
    expect(buckets.map((bucket) => [bucket.labels.le, bucket.value])).toEqual([
      ['5', 0],
      ['10', 0],
      ['25', 0],
      ['50', 0],
      ['200', 1],
      ['500', 1],
      ['1000', 1],
      ['3000', 1],
      ['10000', 2],
      ['30000', 2],
      ['+Inf', 2],
    ]);
  });

  it('counts an invalid check as failed and invalid, and gives it no duration', async () => {
    const { metrics, scrape } = metricsWith();
    metrics.recordCheckResult(check, { status: false, invalid: true, durationMs: 0 });
    const families = await scrape();
    expect(valueOf(families, 'canary_check_failed_count', labels)).toBe(1);
    expect(valueOf(families, 'canary_check_invalid_count', labels)).toBe(1);
    expect(valueOf(families, 'canary_check_success_count', labels)).toBe(0);
    expect(samplesOf(families, 'canary_check_duration_count', labels)).toEqual([]);
  });

  it('reads canary_check from the database at each scrape: 0 healthy, 1 unhealthy, deleted checks gone', async () => {
    const rows: CheckStatusRow[] = [
      { id: 'a', type: 'http', name: 'home', canary_name: 'web', canary_namespace: 'shop', healthy: true },
      { id: 'b', type: 'tcp', name: 'db', canary_name: 'web', canary_namespace: 'shop', healthy: false },
    ];
    const { scrape } = metricsWith(rows);
    let families = await scrape();
    expect(families.types.get('canary_check')).toBe('gauge');
    expect(samplesOf(families, 'canary_check')).toEqual([
      {
        name: 'canary_check',
        labels: { key: 'a', type: 'http', canary_name: 'web', canary_namespace: 'shop', name: 'home' },
        value: 0,
      },
      {
        name: 'canary_check',
        labels: { key: 'b', type: 'tcp', canary_name: 'web', canary_namespace: 'shop', name: 'db' },
        value: 1,
      },
    ]);
    rows.splice(0, 1);
    families = await scrape();
    expect(samplesOf(families, 'canary_check').map((sample) => sample.labels.key)).toEqual(['b']);
  });

  it('still answers a scrape when the database does not, with its gauges absent or NaN, and says why in the log', async () => {
    const { metrics, logger, scrape } = metricsWith(new Error('connection refused'), new Error('connection refused'));
    metrics.recordCheckResult(check, { status: true, invalid: false, durationMs: 5 });
    const families = await scrape();
    expect(samplesOf(families, 'canary_check')).toEqual([]);
    expect(valueOf(families, 'lookout_scheduler_queue_depth')).toBeNaN();
    expect(valueOf(families, 'lookout_scheduler_lag_seconds')).toBeNaN();
    expect(valueOf(families, 'canary_check_success_count', labels)).toBe(1);
    expect(logger.warn).toHaveBeenCalled();
  });
});

describe('scheduler, job and HTTP metrics', () => {
  it('reports the scheduler backlog read at scrape time', async () => {
    const { scrape } = metricsWith([], { due: 7, oldestDueSeconds: 42.5 });
    const families = await scrape();
    expect(valueOf(families, 'lookout_scheduler_queue_depth')).toBe(7);
    expect(valueOf(families, 'lookout_scheduler_lag_seconds')).toBe(42.5);
  });

  it('observes start delays in seconds', async () => {
    const { metrics, scrape } = metricsWith();
    metrics.observeCheckStartDelay(1500);
    const families = await scrape();
    expect(valueOf(families, 'lookout_scheduler_start_delay_seconds_count')).toBe(1);
    expect(valueOf(families, 'lookout_scheduler_start_delay_seconds_sum')).toBe(1.5);
  });

  it('records job durations by status, counts failures from zero and stamps the last success', async () => {
    const { metrics, scrape } = metricsWith();
    metrics.recordJobRun({
      name: 'AggregateCheckStatuses1h',
      status: 'SUCCESS',
      durationMs: 250,
      finishedAt: new Date('2026-01-01T00:00:00Z'),
    });
    let families = await scrape();
    expect(valueOf(families, 'lookout_job_failures_total', { name: 'AggregateCheckStatuses1h' })).toBe(0);
    expect(valueOf(families, 'lookout_job_last_success_timestamp_seconds', { name: 'AggregateCheckStatuses1h' })).toBe(
      Date.parse('2026-01-01T00:00:00Z') / 1000,
    );
    metrics.recordJobRun({ name: 'AggregateCheckStatuses1h', status: 'FAILED', durationMs: 10 });
    families = await scrape();
    expect(valueOf(families, 'lookout_job_failures_total', { name: 'AggregateCheckStatuses1h' })).toBe(1);
    const job = { name: 'AggregateCheckStatuses1h' };
    expect(valueOf(families, 'lookout_job_duration_seconds_count', { ...job, status: 'SUCCESS' })).toBe(1);
    expect(valueOf(families, 'lookout_job_duration_seconds_sum', { ...job, status: 'SUCCESS' })).toBe(0.25);
    expect(valueOf(families, 'lookout_job_duration_seconds_count', { ...job, status: 'FAILED' })).toBe(1);
    expect(valueOf(families, 'lookout_job_duration_seconds_sum', { ...job, status: 'FAILED' })).toBe(0.01);
  });

  it('counts event tries handled and failed by event name, both series from the first try', async () => {
    const { metrics, scrape } = metricsWith();
    metrics.recordEvent({ name: 'check.failed', outcome: 'handled' });
    let families = await scrape();
    expect(valueOf(families, 'lookout_events_handled_total', { name: 'check.failed' })).toBe(1);
    expect(valueOf(families, 'lookout_events_failed_total', { name: 'check.failed' })).toBe(0);
    metrics.recordEvent({ name: 'check.failed', outcome: 'failed' });
    metrics.recordEvent({ name: 'check.failed', outcome: 'failed' });
    families = await scrape();
    expect(valueOf(families, 'lookout_events_handled_total', { name: 'check.failed' })).toBe(1);
    expect(valueOf(families, 'lookout_events_failed_total', { name: 'check.failed' })).toBe(2);
  });

  it('labels requests with their route pattern, and requests that matched none as unmatched', async () => {
    const { metrics, scrape } = metricsWith();
    metrics.observeHttpRequest({ method: 'GET', routePattern: '/api/db/*', statusCode: 200, durationMs: 12 });
    metrics.observeHttpRequest({ method: 'GET', routePattern: undefined, statusCode: 404, durationMs: 1 });
    const families = await scrape();
    expect(valueOf(families, 'lookout_http_requests_total', { route: '/api/db/*', status_code: '200' })).toBe(1);
    expect(valueOf(families, 'lookout_http_requests_total', { route: 'unmatched', status_code: '404' })).toBe(1);
    expect(valueOf(families, 'lookout_http_request_duration_seconds_count', { route: '/api/db/*' })).toBe(1);
    expect(valueOf(families, 'lookout_http_request_duration_seconds_sum', { route: '/api/db/*' })).toBe(0.012);
  });

  it('exposes request durations as a Prometheus histogram: cumulative buckets, +Inf, sum and count', async () => {
    const { metrics, scrape } = metricsWith();
    const answer = (durationMs: number, statusCode = 200) =>
      metrics.observeHttpRequest({ method: 'GET', routePattern: '/api/about', statusCode, durationMs });
    answer(3);
    answer(30);
    answer(40_000);
    answer(-1);
    answer(7, 500);
    const families = await scrape();
    const route = { method: 'GET', route: '/api/about', status_code: '200' };
    const bucket = (le: string) => valueOf(families, 'lookout_http_request_duration_seconds_bucket', { ...route, le });
    expect(bucket('0.005')).toBe(2);
    expect(bucket('0.025')).toBe(2);
    expect(bucket('0.05')).toBe(3);
    expect(bucket('30')).toBe(3);
    expect(bucket('+Inf')).toBe(4);
    expect(valueOf(families, 'lookout_http_request_duration_seconds_sum', route)).toBeCloseTo(40.033, 9);
    expect(valueOf(families, 'lookout_http_request_duration_seconds_count', route)).toBe(4);
    expect(valueOf(families, 'lookout_http_requests_total', route)).toBe(4);
    expect(valueOf(families, 'lookout_http_requests_total', { ...route, status_code: '500' })).toBe(1);
    expect(
      valueOf(families, 'lookout_http_request_duration_seconds_bucket', { ...route, status_code: '500', le: '0.01' }),
    ).toBe(1);
    // A second scrape counts the same, not twice as much.
    expect(valueOf(await scrape(), 'lookout_http_requests_total', route)).toBe(4);
  });

  it('gives each instance its own registry, so two apps in one process do not share counts', async () => {
    const first = metricsWith();
    const second = metricsWith();
    first.metrics.observeHttpRequest({ method: 'GET', routePattern: '/api/about', statusCode: 200, durationMs: 1 });
    expect(valueOf(await first.scrape(), 'lookout_http_requests_total', { route: '/api/about' })).toBe(1);
    expect(valueOf(await second.scrape(), 'lookout_http_requests_total', { route: '/api/about' })).toBeUndefined();
    expect(valueOf(await second.scrape(), 'lookout_build_info', { version: '1.2.3' })).toBe(1);
  });
});
