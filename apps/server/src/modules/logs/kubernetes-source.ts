import http from 'node:http';
import https from 'node:https';
import type { LogBackendSpec, LogLine, LogsResponse } from '@lookout/contracts';
import { IN_CLUSTER, kubernetesAccess, type KubernetesAccess } from '../../kubernetes/kubeconfig-access.js';
import { SERVER_VERSION } from '../../version.js';
import type { LogConnectionResolver } from './http-endpoint.js';
import { normaliseTime } from './log-line-fns.js';
import { LogSourceError, type LogSourceQuery } from './log-source.js';

/** A searched pod log is read up to this much (the API server's `limitBytes`). */
const SEARCH_BYTES = 16 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/** `GET` of a text answer from the API server with the connection's credentials and TLS. */
function getText(access: KubernetesAccess, path: string): Promise<{ status: number; text: string }> {
  const base = access.server.href.endsWith('/') ? access.server.href : `${access.server.href}/`;
  const url = new URL(path.replace(/^\//, ''), base);
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = { accept: 'text/plain', 'user-agent': `lookout/${SERVER_VERSION}` };
  if (access.authorization) headers.authorization = access.authorization;
  const { tls } = access;
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: 'GET',
        headers,
        agent: false,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(secure
          ? {
              rejectUnauthorized: !tls.insecure,
              ...(tls.ca ? { ca: tls.ca } : {}),
              ...(tls.cert ? { cert: tls.cert } : {}),
              ...(tls.key ? { key: tls.key } : {}),
            }
          : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** One line of `?timestamps=true` output: an RFC 3339 time, a space, the message. */
export function podLogLine(text: string, labels: Record<string, string>): LogLine | undefined {
  if (text === '') return undefined;
  const space = text.indexOf(' ');
  const timestamp = space > 0 ? normaliseTime(text.slice(0, space)) : undefined;
  if (!timestamp) return { timestamp: new Date().toISOString(), message: text, labels };
  return { timestamp, message: text.slice(space + 1), labels };
}

/**
 * Kubernetes pod logs: `GET /api/v1/namespaces/{ns}/pods/{pod}/log?timestamps=true` through a
 * kubernetes connection. The selector's labels name the `pod` (required), `namespace` and
 * `container`; the newest page is `tailLines`, a query reads up to 16 MiB and filters.
 */
export async function readPodLogs(
  spec: NonNullable<LogBackendSpec['kubernetes']>,
  query: LogSourceQuery,
  resolve: LogConnectionResolver | undefined,
): Promise<LogsResponse> {
  const pod = query.labels?.pod;
  if (!pod) throw new LogSourceError('the logs selector needs a pod label for a kubernetes backend', 400);
  if (!resolve) throw new LogSourceError('spec.kubernetes.connection: this Lookout reads no connections', 400);
  const connection = await resolve(spec.connection).catch((error: unknown) => {
    throw new LogSourceError(
      `spec.kubernetes.connection: ${error instanceof Error ? error.message : String(error)}`,
      400,
    );
  });
  const access = await kubernetesAccess(connection, IN_CLUSTER).catch((error: unknown) => {
    throw new LogSourceError(
      `spec.kubernetes.connection: ${error instanceof Error ? error.message : String(error)}`,
      400,
    );
  });
  const namespace = query.labels?.namespace ?? spec.namespace ?? 'default';
  const params = new URLSearchParams({ timestamps: 'true' });
  if (query.labels?.container) params.set('container', query.labels.container);
  if (query.startMs !== undefined)
    params.set('sinceTime', new Date(query.startMs).toISOString().replace(/\.\d+Z$/, 'Z'));
  if (query.query) params.set('limitBytes', String(SEARCH_BYTES));
  else if (query.endMs === undefined) params.set('tailLines', String(query.limit));
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log?${params}`;
  const answer = await getText(access, path).catch((error: unknown) => {
    throw new LogSourceError(`the API server at ${access.server.origin} did not answer (${String(error)})`);
  });
  if (answer.status !== 200) {
    let message = answer.text.slice(0, 300);
    try {
      message = (JSON.parse(answer.text) as { message?: string }).message ?? message;
    } catch {
      // not a Status body: the text as it came
    }
    throw new LogSourceError(`the API server answered ${answer.status} for pod ${namespace}/${pod}: ${message}`);
  }
  const labels = { namespace, pod, ...(query.labels?.container ? { container: query.labels.container } : {}) };
  const matching = answer.text
    .split('\n')
    .map((text) => podLogLine(text, labels))
    .filter((line): line is LogLine => line !== undefined)
    .filter((line) => !query.query || line.message.includes(query.query))
    .filter((line) => query.endMs === undefined || Date.parse(line.timestamp) <= query.endMs)
    .reverse();
  return { total: matching.length, results: matching.slice(0, query.limit) };
}
