import type { PrometheusCheck } from '@lookout/contracts';
import { fetchJson } from './fetch-json.js';
import { prometheusSummary, prometheusVariables } from './prometheus-fns.js';
import { CheckFailure, runProbe } from './runner-harness.js';
import { truncate } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

async function probe(check: PrometheusCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const base = check.url ?? check.host ?? '';
  const { status, body } = await fetchJson(
    'prometheus',
    base,
    `api/v1/query?${new URLSearchParams({ query: check.query }).toString()}`,
    context.signal,
  );
  const answer = (body ?? {}) as { status?: unknown; data?: unknown; error?: unknown; errorType?: unknown };
  if (answer.status !== 'success') {
    // Prometheus explains a rejected query in the body: `bad_data: 1:5: parse error: ...`.
    const reason = [answer.errorType, answer.error].filter(Boolean).map(String).join(': ');
    throw new CheckFailure(`prometheus query failed: ${reason || `status ${status}`}`);
  }
  const variables = prometheusVariables(answer.data);
  if (!variables) throw new CheckFailure('prometheus answered with a result this check cannot read');
  const summary = prometheusSummary(variables);
  return {
    pass: true,
    message: truncate(summary, 500),
    detail: { query: check.query, results: variables.results.slice(0, 100), count: variables.results.length },
    celVariables: { ...variables },
  };
}

/** prometheus checks: an instant query; `test` judges `value`, `firstResult` and `results`. */
export const prometheusRunner: CheckRunner<'prometheus'> = {
  type: 'prometheus',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
