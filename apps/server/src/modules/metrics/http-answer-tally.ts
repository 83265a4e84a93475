import { Counter, type Histogram, type Registry } from 'prom-client';

/** The buckets of `lookout_http_request_duration_seconds`, in seconds. */
export const HTTP_DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const DURATION_NAME = 'lookout_http_request_duration_seconds';
const DURATION_HELP =
  'Time from receiving an HTTP request to finishing its answer, by method, route pattern and status code.';

/** The labels of both HTTP metrics. */
export type HttpAnswerLabels = { method: string; route: string; status_code: string };

/** One method, route pattern and status code: how many answers, their total and per-bucket durations. */
type Series = { labels: HttpAnswerLabels; count: number; sum: number; buckets: number[] };

/** One exposed sample, in the form prom-client's registry prints (`getMetricsAsJSON`'s values). */
type Sample = { labels: Record<string, string | number>; value: number; metricName: string };

/**
 * `lookout_http_requests_total` and `lookout_http_request_duration_seconds`, counted by the
 * answer hook into one tally per series and handed to prom-client's registry when it is
 * scraped. Every answer is counted, so this is on the path of every request: prom-client's
 * own `Counter.inc` and `Histogram.observe` rebuild and check a label key and look buckets
 * up by their bound's text on every call (about 4 µs per answer on 2 cores, a measurable
 * share of a data API read), where the tally finds its series by one string and bumps
 * three numbers.
 *
 * The counter is a prom-client Counter filled from the tally at each scrape (its `collect`).
 * The histogram is an object of the shape the registry reads from every metric (`get`,
 * `reset`, name, help, type): prom-client has no way to add a series' counts at once.
 */
export function createHttpAnswerTally(registry: Registry) {
  const series = new Map<string, Series>();

  new Counter({
    name: 'lookout_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const one of series.values()) this.inc(one.labels, one.count);
    },
  });

  const duration = {
    name: DURATION_NAME,
    help: DURATION_HELP,
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    get: async () => ({
      name: DURATION_NAME,
      help: DURATION_HELP,
      type: 'histogram' as const,
      aggregator: 'sum' as const,
      values: [...series.values()].flatMap(histogramSamples),
    }),
    reset: () => series.clear(),
  };
  // The registry reads any metric through get() and reset(); its type names only its own classes.
  registry.registerMetric(duration as unknown as Histogram);

  return {
    /** One answer of `seconds` (a negative or unknown duration counts as 0). */
    count(method: string, route: string, statusCode: number, seconds: number): void {
      const key = `${method} ${statusCode} ${route}`;
      let one = series.get(key);
      if (!one) {
        one = {
          labels: { method, route, status_code: String(statusCode) },
          count: 0,
          sum: 0,
          buckets: HTTP_DURATION_BUCKETS.map(() => 0),
        };
        series.set(key, one);
      }
      const value = seconds > 0 && Number.isFinite(seconds) ? seconds : 0;
      one.count += 1;
      one.sum += value;
      const bucket = HTTP_DURATION_BUCKETS.findIndex((bound) => value <= bound);
      // Beyond the last bound it is only in +Inf, which is the count.
      if (bucket !== -1) one.buckets[bucket] = (one.buckets[bucket] ?? 0) + 1;
    },
  };
}

/** A series as Prometheus histogram samples: cumulative buckets, +Inf, sum and count. */
function histogramSamples(one: Series): Sample[] {
  const samples: Sample[] = [];
  let cumulative = 0;
  HTTP_DURATION_BUCKETS.forEach((bound, index) => {
    cumulative += one.buckets[index] ?? 0;
    samples.push({ labels: { ...one.labels, le: bound }, value: cumulative, metricName: `${DURATION_NAME}_bucket` });
  });
  samples.push(
    { labels: { ...one.labels, le: '+Inf' }, value: one.count, metricName: `${DURATION_NAME}_bucket` },
    { labels: { ...one.labels }, value: one.sum, metricName: `${DURATION_NAME}_sum` },
    { labels: { ...one.labels }, value: one.count, metricName: `${DURATION_NAME}_count` },
  );
  return samples;
}
