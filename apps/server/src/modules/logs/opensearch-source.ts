import type { LogBackendSpec, LogLine, LogsResponse } from '@lookout/contracts';
import { normaliseTime } from './log-line-fns.js';
import { endpointOf, fetchJson, type LogConnectionResolver } from './http-endpoint.js';
import type { LogSourceQuery } from './log-source.js';

type SearchAnswer = {
  hits?: { total?: number | { value?: number }; hits?: { _source?: Record<string, unknown> }[] };
};

const MESSAGE_FIELDS = ['message', 'log', 'msg'];

/** The `_search` body: newest first, the time range and labels as filters, the query as a phrase. */
export function searchBody(query: LogSourceQuery): Record<string, unknown> {
  const filter: unknown[] = Object.entries(query.labels ?? {}).map(([key, value]) => ({ term: { [key]: value } }));
  if (query.startMs !== undefined || query.endMs !== undefined) {
    const range: Record<string, string> = {};
    if (query.startMs !== undefined) range.gte = new Date(query.startMs).toISOString();
    if (query.endMs !== undefined) range.lte = new Date(query.endMs).toISOString();
    filter.push({ range: { '@timestamp': range } });
  }
  const must = query.query ? [{ multi_match: { query: query.query, type: 'phrase', fields: MESSAGE_FIELDS } }] : [];
  return {
    size: query.limit,
    track_total_hits: true,
    sort: [{ '@timestamp': { order: 'desc' } }],
    query: { bool: { filter, must } },
  };
}

/** One hit as a line: `@timestamp`, the first message field, and the other scalar fields as labels. */
export function lineOfHit(source: Record<string, unknown>): LogLine {
  const labels: Record<string, string> = {};
  let message = '';
  for (const [key, value] of Object.entries(source)) {
    if (key === '@timestamp') continue;
    if (!message && MESSAGE_FIELDS.includes(key) && typeof value === 'string') message = value;
    else if (value !== null && typeof value !== 'object') labels[key] = String(value);
  }
  return { timestamp: normaliseTime(source['@timestamp']) ?? new Date(0).toISOString(), message, labels };
}

/** OpenSearch and Elasticsearch: `POST /<index>/_search` (their documented query DSL). */
export async function readSearchLogs(
  spec: NonNullable<LogBackendSpec['opensearch']>,
  field: 'opensearch' | 'elasticsearch',
  query: LogSourceQuery,
  resolve: LogConnectionResolver | undefined,
): Promise<LogsResponse> {
  const endpoint = await endpointOf(spec, `spec.${field}`, resolve);
  const base = endpoint.url.endsWith('/') ? endpoint.url : `${endpoint.url}/`;
  const url = new URL(`${encodeURIComponent(spec.index)}/_search`, base);
  const answer = (await fetchJson(
    url,
    {
      method: 'POST',
      headers: { ...endpoint.headers, 'content-type': 'application/json' },
      body: JSON.stringify(searchBody(query)),
    },
    field === 'opensearch' ? 'OpenSearch' : 'Elasticsearch',
  )) as SearchAnswer;
  const hits = answer.hits?.hits ?? [];
  const total = answer.hits?.total;
  return {
    total: typeof total === 'number' ? total : (total?.value ?? hits.length),
    results: hits.map((hit) => lineOfHit(hit._source ?? {})),
  };
}
