import type { LogBackendSpec, LogLine, LogsResponse } from '@lookout/contracts';
import { endpointOf, fetchJson, type LogConnectionResolver } from './http-endpoint.js';
import { newestFirst, type LogSourceQuery } from './log-source.js';

type LokiAnswer = {
  data?: { resultType?: string; result?: { stream?: Record<string, string>; values?: [string, string][] }[] };
};

/** Without a start, Loki's own default window: the last hour. */
const DEFAULT_WINDOW_MS = 60 * 60 * 1000;

const quoted = (value: string) => JSON.stringify(value);

/** The LogQL of a selector: its labels as the stream selector, the query as a line filter. */
export function lokiQuery(labels: Record<string, string> | undefined, query: string | undefined): string {
  const matchers = Object.entries(labels ?? {}).map(([key, value]) => `${key}=${quoted(value)}`);
  // A stream selector needs one non-empty matcher; `job=~".+"` stands for "every stream".
  const selector = `{${matchers.length > 0 ? matchers.join(',') : 'job=~".+"'}}`;
  return query ? `${selector} |= ${quoted(query)}` : selector;
}

/** Loki: `GET /loki/api/v1/query_range` (direction backward), streams flattened newest first. */
export async function readLokiLogs(
  spec: NonNullable<LogBackendSpec['loki']>,
  query: LogSourceQuery,
  resolve: LogConnectionResolver | undefined,
): Promise<LogsResponse> {
  const endpoint = await endpointOf(spec, 'spec.loki', resolve);
  const endMs = query.endMs ?? Date.now();
  const startMs = query.startMs ?? endMs - DEFAULT_WINDOW_MS;
  const url = new URL('loki/api/v1/query_range', endpoint.url.endsWith('/') ? endpoint.url : `${endpoint.url}/`);
  url.searchParams.set('query', lokiQuery(query.labels, query.query));
  url.searchParams.set('start', `${BigInt(startMs) * 1_000_000n}`);
  url.searchParams.set('end', `${BigInt(endMs) * 1_000_000n}`);
  url.searchParams.set('limit', String(query.limit));
  url.searchParams.set('direction', 'backward');
  const answer = (await fetchJson(url, { headers: endpoint.headers }, 'Loki')) as LokiAnswer;
  const lines: LogLine[] = [];
  for (const stream of answer.data?.result ?? []) {
    for (const [nanoseconds, message] of stream.values ?? []) {
      lines.push({
        timestamp: new Date(Number(BigInt(nanoseconds) / 1_000_000n)).toISOString(),
        message,
        labels: { ...(stream.stream ?? {}) },
      });
    }
  }
  return { total: lines.length, results: newestFirst(lines, query.limit) };
}
