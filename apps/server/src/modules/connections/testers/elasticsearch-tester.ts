import type { ConnectionTester } from './tester.js';
import { httpGet, httpRequestOf, jsonOf, statusMessage, type HttpAnswer } from './http-get.js';

type ElasticError = { reason?: unknown; type?: unknown; root_cause?: { reason?: unknown }[] };

/** The reason an Elasticsearch or OpenSearch error body gives (`{"error": {"reason": …}}` or `{"error": "…"}`). */
export function elasticReason(answer: HttpAnswer): string {
  const body = jsonOf(answer) as { error?: unknown; message?: unknown } | undefined;
  const error = body?.error;
  const head = `${answer.status} ${answer.statusText}`.trim();
  if (typeof error === 'string') return `${head}: ${error}`;
  if (error && typeof error === 'object') {
    const { reason, type, root_cause: rootCause } = error as ElasticError;
    const text =
      typeof reason === 'string' ? reason : rootCause?.find((cause) => typeof cause.reason === 'string')?.reason;
    if (typeof text === 'string') return `${head}: ${typeof type === 'string' ? `${type}: ` : ''}${text}`;
  }
  if (typeof body?.message === 'string') return `${head}: ${body.message}`;
  return statusMessage(answer);
}

/**
 * Elasticsearch and OpenSearch: GETs `/` with the connection's credentials (basic auth, or a
 * bearer token) and expects the cluster's JSON with `version.number`. Otherwise the cluster's
 * own error reason (`security_exception: unable to authenticate user [elastic]…`), the status,
 * or the network error.
 */
export const testElasticsearchConnection: ConnectionTester = async (connection, { signal }) => {
  const { url, headers } = httpRequestOf(connection);
  const answer = await httpGet(url, { headers, insecureTls: connection.insecureTls, signal });
  if (answer.status >= 400) throw new Error(elasticReason(answer));
  const body = jsonOf(answer) as { version?: { number?: unknown } } | undefined;
  if (typeof body?.version?.number !== 'string') {
    throw new Error(
      `${answer.status} ${answer.statusText}: the answer is not an Elasticsearch or OpenSearch cluster's (no version.number)`.trim(),
    );
  }
};
