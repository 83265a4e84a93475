import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';
import {
  CHECK_DURATION_BUCKETS_MS,
  CHECK_GAUGE_LABEL_NAMES,
  CHECK_LABEL_NAMES,
  checkLabels,
  routeLabel,
  type CheckMetricResult,
  type CheckMetricSubject,
} from './metrics-fns.js';
import { createHttpAnswerTally } from './http-answer-tally.js';
import type { MetricsRepository } from './metrics-repository.js';

/**
 * The Prometheus metrics of one Lookout process (docs/metrics.md, ADR 0014). Each app gets its
 * own registry (tests build several apps in one process; prom-client's global registry would
 * mix them). `lookout serve` makes one and hands it to the app and to the background workers,
 * narrowed with Pick<> to what each records.
 *
 * Counters and histograms count what this process did. The gauges read from the database at
 * scrape time (`canary_check`, the scheduler's backlog) describe the whole installation, so
 * every replica reports the same values for them.
 */

export type MetricsDeps = {
  repository: Pick<MetricsRepository, 'checkStatuses' | 'schedulerBacklog'>;
  logger: Pick<Logger, 'warn'>;
  version: string;
  /** Node.js process metrics (process_*, nodejs_*); on unless a test turns them off. */
  processMetrics?: boolean;
};

/** One finished HTTP request. */
export type HttpRequestObservation = {
  method: string;
  /** The route pattern it matched; undefined when none did. */
  routePattern: string | undefined;
  statusCode: number;
  durationMs: number;
};

/** One finished run of a background job: its job_history name and final status (SUCCESS, WARNING, FAILED). */
export type JobRunObservation = { name: string; status: string; durationMs: number; finishedAt?: Date };

/** Seconds, Prometheus's base unit for durations. */
const seconds = (ms: number) => Math.max(0, ms) / 1000;

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(deps: MetricsDeps) {
  const registry = new Registry();
  const registers = [registry];
  const { repository, logger } = deps;

  if (deps.processMetrics !== false) collectDefaultMetrics({ register: registry });

  new Gauge({
    name: 'lookout_build_info',
    help: 'Always 1; the version label is the running Lookout version.',
    labelNames: ['version'] as const,
    registers,
  }).set({ version: deps.version }, 1);

  // ---------------------------------------------------------------- HTTP
  // lookout_http_requests_total and lookout_http_request_duration_seconds (http-answer-tally.ts).
  const httpAnswers = createHttpAnswerTally(registry);

  // ---------------------------------------------------------------- checks (canary-checker's names)
  const checkRuns = new Counter({
    name: 'canary_check_count',
    help: 'Check runs this process made.',
    labelNames: CHECK_LABEL_NAMES,
    registers,
  });
  const checkPassed = new Counter({
    name: 'canary_check_success_count',
    help: 'Check runs this process made that passed.',
    labelNames: CHECK_LABEL_NAMES,
    registers,
  });
  const checkFailed = new Counter({
    name: 'canary_check_failed_count',
    help: 'Check runs this process made that failed (invalid ones included).',
    labelNames: CHECK_LABEL_NAMES,
    registers,
  });
  const checkInvalid = new Counter({
    name: 'canary_check_invalid_count',
    help: 'Check runs this process could not make because the check is invalid.',
    labelNames: CHECK_LABEL_NAMES,
    registers,
  });
  const checkDuration = new Histogram({
    name: 'canary_check_duration',
    help: 'How long check runs took, in milliseconds.',
    labelNames: CHECK_LABEL_NAMES,
    buckets: CHECK_DURATION_BUCKETS_MS,
    registers,
  });
  new Gauge({
    name: 'canary_check',
    help: 'Latest status of every live check that has run: 0 healthy, 1 unhealthy (read from the database).',
    labelNames: CHECK_GAUGE_LABEL_NAMES,
    registers,
    async collect() {
      this.reset();
      try {
        for (const row of await repository.checkStatuses()) {
          this.set(
            {
              key: row.id,
              type: row.type,
              canary_name: row.canary_name,
              canary_namespace: row.canary_namespace,
              name: row.name,
            },
            row.healthy ? 0 : 1,
          );
        }
      } catch (error) {
        logger.warn({ err: error }, 'Metrics: could not read check statuses; canary_check is left out of this scrape');
      }
    },
  });

  // ---------------------------------------------------------------- scheduler
  const startDelay = new Histogram({
    name: 'lookout_scheduler_start_delay_seconds',
    help: 'How long after its due time this process started each scheduled check run.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  // A gauge without labels is always exposed; NaN says "unknown" when the database does not
  // answer (a 0 would claim nothing is due).
  const backlog = (read: (value: Awaited<ReturnType<MetricsRepository['schedulerBacklog']>>) => number) =>
    async function collect(this: Gauge) {
      try {
        this.set(read(await repository.schedulerBacklog()));
      } catch (error) {
        this.set(Number.NaN);
        logger.warn({ err: error }, 'Metrics: could not read the scheduler backlog; it is NaN in this scrape');
      }
    };
  new Gauge({
    name: 'lookout_scheduler_lag_seconds',
    help: 'How long the oldest due check has waited to be started, in seconds (0 when none is due; all replicas).',
    registers,
    collect: backlog((value) => value.oldestDueSeconds),
  });
  new Gauge({
    name: 'lookout_scheduler_queue_depth',
    help: 'Checks that are due and not yet started by any replica.',
    registers,
    collect: backlog((value) => value.due),
  });

  // ---------------------------------------------------------------- background jobs
  const jobDuration = new Histogram({
    name: 'lookout_job_duration_seconds',
    help: 'How long background job runs took, by job name and final status (as in job_history).',
    labelNames: ['name', 'status'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800],
    registers,
  });
  const jobFailures = new Counter({
    name: 'lookout_job_failures_total',
    help: 'Background job runs that ended FAILED, by job name.',
    labelNames: ['name'] as const,
    registers,
  });
  const jobLastSuccess = new Gauge({
    name: 'lookout_job_last_success_timestamp_seconds',
    help: 'When a run of the job last ended SUCCESS or WARNING in this process (Unix time).',
    labelNames: ['name'] as const,
    registers,
  });

  // ---------------------------------------------------------------- event queue
  const eventsHandled = new Counter({
    name: 'lookout_events_handled_total',
    help: "Events this process's consumers handled, by event name.",
    labelNames: ['name'] as const,
    registers,
  });
  const eventsFailed = new Counter({
    name: 'lookout_events_failed_total',
    help: "Tries of events that failed in this process's consumers (retried later, or kept as dead letters), by event name.",
    labelNames: ['name'] as const,
    registers,
  });

  return {
    /** The text a scrape gets, and its content type (Prometheus text format 0.0.4). */
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },

    observeHttpRequest(request: HttpRequestObservation): void {
      httpAnswers.count(
        request.method,
        routeLabel(request.routePattern),
        request.statusCode,
        seconds(request.durationMs),
      );
    },

    /** A check run finished (scheduled or Run Now) in this process. */
    recordCheckResult(check: CheckMetricSubject, result: CheckMetricResult): void {
      const labels = checkLabels(check);
      checkRuns.inc(labels);
      if (result.status) {
        checkPassed.inc(labels);
        // Present from the first run, so uptime ratios and increase() see a failure series.
        checkFailed.inc(labels, 0);
      } else {
        checkFailed.inc(labels);
        checkPassed.inc(labels, 0);
        if (result.invalid) checkInvalid.inc(labels);
      }
      // An invalid check did not run: it has no duration to show.
      if (!result.invalid) checkDuration.observe(labels, Math.max(0, result.durationMs));
    },

    /** The scheduler started a check this long after it was due. */
    observeCheckStartDelay(delayMs: number): void {
      startDelay.observe(seconds(delayMs));
    },

    /** A background job run finished with this status (the job_history row's). */
    recordJobRun(run: JobRunObservation): void {
      jobDuration.observe({ name: run.name, status: run.status }, seconds(run.durationMs));
      if (run.status === 'FAILED') jobFailures.inc({ name: run.name });
      else {
        // Present from the first run, so increase() sees the first failure.
        jobFailures.inc({ name: run.name }, 0);
        jobLastSuccess.set({ name: run.name }, (run.finishedAt ?? new Date()).getTime() / 1000);
      }
    },

    /** An event consumer's try of one event ended (the event queue, src/events). */
    recordEvent(event: { name: string; outcome: 'handled' | 'failed' }): void {
      // Both series exist from the first try, so increase() sees the first failure.
      if (event.outcome === 'handled') {
        eventsHandled.inc({ name: event.name });
        eventsFailed.inc({ name: event.name }, 0);
      } else {
        eventsFailed.inc({ name: event.name });
        eventsHandled.inc({ name: event.name }, 0);
      }
    },
  };
}
