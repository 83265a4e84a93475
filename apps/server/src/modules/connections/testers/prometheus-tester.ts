import type { ConnectionTester } from './tester.js';
import { httpGet, httpRequestOf, jsonOf, statusMessage, type HttpAnswer } from './http-get.js';

type PrometheusAnswer = { status?: unknown; error?: unknown; data?: { version?: unknown } };

function prometheusError(answer: HttpAnswer): string {
  const body = jsonOf(answer) as PrometheusAnswer | undefined;
  return typeof body?.error === 'string'
    ? `${answer.status} ${answer.statusText}: ${body.error}`.trim()
    : statusMessage(answer);
}

/**
 * Prometheus (and what speaks its HTTP API: Thanos, Mimir, VictoriaMetrics): GETs
 * `/api/v1/status/buildinfo` with the connection's credentials; a server without it (404) is
 * asked the instant query `1` instead. Ok when the answer is `{"status": "success"}`; otherwise
 * Prometheus' own `error`, or the status and body.
 */
export const testPrometheusConnection: ConnectionTester = async (connection, { signal }) => {
  const options = { insecureTls: connection.insecureTls, signal };
  const buildInfo = httpRequestOf(connection, 'api/v1/status/buildinfo');
  let answer = await httpGet(buildInfo.url, { ...options, headers: buildInfo.headers });
  if (answer.status === 404) {
    const query = httpRequestOf(connection, 'api/v1/query?query=1');
    answer = await httpGet(query.url, { ...options, headers: query.headers });
  }
  const body = jsonOf(answer) as PrometheusAnswer | undefined;
  if (answer.status >= 400 || body?.status !== 'success') {
    if (answer.status < 400 && body === undefined) {
      throw new Error(
        `${answer.status} ${answer.statusText}: the answer is not the Prometheus API's JSON; is the URL the server's base URL?`,
      );
    }
    throw new Error(prometheusError(answer));
  }
};
