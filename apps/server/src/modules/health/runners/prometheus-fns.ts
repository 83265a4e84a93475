/** One series of a Prometheus answer: its labels plus `value`, as canary-checker exposes it. */
export type PrometheusSeries = Record<string, string | number> & { value: number };

/** The variables a prometheus check's expressions see. */
export type PrometheusVariables = {
  /** The first series' value, 0 when there is none (canary-checker's default). */
  value: number;
  firstResult: PrometheusSeries | Record<string, never>;
  results: PrometheusSeries[];
};

type Sample = [number, string];
type VectorEntry = { metric?: Record<string, string>; value?: Sample; values?: Sample[] };

const sampleValue = (sample: Sample | undefined): number => (sample ? Number(sample[1]) : Number.NaN);

/**
 * Turns `data` of a `/api/v1/query` answer into check variables. Vectors give one series per
 * entry, a scalar gives one unlabelled series, a matrix gives each series' latest sample.
 * Returns undefined for an answer that is not one of those shapes.
 */
export function prometheusVariables(data: unknown): PrometheusVariables | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const { resultType, result } = data as { resultType?: unknown; result?: unknown };
  let series: PrometheusSeries[];
  if (resultType === 'scalar' && Array.isArray(result)) {
    series = [{ value: sampleValue(result as Sample) }];
  } else if ((resultType === 'vector' || resultType === 'matrix') && Array.isArray(result)) {
    series = (result as VectorEntry[]).map((entry) => {
      const sample = entry.value ?? entry.values?.[entry.values.length - 1];
      return { ...(entry.metric ?? {}), value: sampleValue(sample) };
    });
  } else {
    return undefined;
  }
  const first = series[0];
  return { value: first?.value ?? 0, firstResult: first ?? {}, results: series };
}

/** `a{job="x"}=1`: a series as the message shows it. */
export function describeSeries(series: PrometheusSeries): string {
  const { value, __name__: name, ...labels } = series;
  const labelText = Object.entries(labels)
    .map(([key, label]) => `${key}="${label}"`)
    .join(', ');
  const head = `${name ?? ''}${labelText ? `{${labelText}}` : ''}`;
  return head ? `${head} = ${value}` : String(value);
}

/** The pass message: `query returned 2 series, first: up{job="api"} = 1`. */
export function prometheusSummary(variables: PrometheusVariables): string {
  const count = variables.results.length;
  if (count === 0) return 'query returned no series';
  const first = variables.results[0] as PrometheusSeries;
  return `query returned ${count} series, first: ${describeSeries(first)}`;
}
