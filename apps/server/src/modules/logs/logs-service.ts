import {
  LOGS_LIMITS,
  logBackendSpecSchema,
  parseTimeExpression,
  type LogBackendSpec,
  type LogsRequest,
  type LogsResponse,
} from '@lookout/contracts';
import type pg from 'pg';
import { readFileLogs } from './file-source.js';
import type { LogConnectionResolver } from './http-endpoint.js';
import { readJournalLogs } from './journald-source.js';
import type { LogFileRoots } from './log-file-roots.js';
import { readPodLogs } from './kubernetes-source.js';
import { LogSourceError, type LogSourceQuery } from './log-source.js';
import { readLokiLogs } from './loki-source.js';
import { readSearchLogs } from './opensearch-source.js';

type Selector = { name?: unknown; type?: unknown; labels?: unknown };

/** A time of the request (`start`, `end`): a time expression or ISO date-time, else a 400 naming it. */
function timeOf(value: string | undefined, field: string, now: Date): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const at = parseTimeExpression(value, now);
  if (!at) throw new LogSourceError(`${field}: is not a time (write now-1h or an ISO date-time)`, 400);
  return at.getTime();
}

/** Reads a backend's spec with the source it names. */
export function readSource(
  spec: LogBackendSpec,
  query: LogSourceQuery,
  resolve: LogConnectionResolver | undefined,
  roots: LogFileRoots,
): Promise<LogsResponse> {
  if (spec.file) return readFileLogs(spec.file, query, roots);
  if (spec.journald) return readJournalLogs(spec.journald, query, roots);
  if (spec.kubernetes) return readPodLogs(spec.kubernetes, query, resolve);
  if (spec.loki) return readLokiLogs(spec.loki, query, resolve);
  if (spec.opensearch) return readSearchLogs(spec.opensearch, 'opensearch', query, resolve);
  if (spec.elasticsearch) return readSearchLogs(spec.elasticsearch, 'elasticsearch', query, resolve);
  throw new LogSourceError('the log backend has no source', 400);
}

/**
 * `POST /api/logs`: the component's `logs` selector by name, the backend its `type` names
 * (a live `logging_backends` row), read with the query, the time range and the selector's labels.
 */
export function createLogsService(deps: {
  pool: pg.Pool;
  resolveConnection?: LogConnectionResolver | undefined;
  /** LOOKOUT_LOG_FILE_ROOTS: the only directories file and journald backends may read. */
  fileRoots: LogFileRoots;
}) {
  return {
    async fetch(request: LogsRequest, now = new Date()): Promise<LogsResponse> {
      const startMs = timeOf(request.start, 'start', now);
      const endMs = timeOf(request.end, 'end', now);
      if (startMs !== undefined && endMs !== undefined && startMs > endMs) {
        throw new LogSourceError('start: is after end', 400);
      }
      const component = await deps.pool.query<{ name: string; log_selectors: unknown }>(
        'SELECT name, log_selectors FROM components WHERE id = $1 AND deleted_at IS NULL',
        [request.id],
      );
      const row = component.rows[0];
      if (!row) throw new LogSourceError(`id: no component ${request.id}`, 404);
      const selectors = Array.isArray(row.log_selectors) ? (row.log_selectors as Selector[]) : [];
      const selector = selectors.find((entry) => entry.name === request.name);
      if (!selector)
        throw new LogSourceError(`name: component ${row.name} has no logs selector '${request.name}'`, 404);
      if (typeof selector.type !== 'string' || selector.type === '') {
        throw new LogSourceError(`name: logs selector '${request.name}' names no log backend in its type`, 400);
      }
      const backend = await deps.pool.query<{ spec: unknown }>(
        'SELECT spec FROM logging_backends WHERE name = $1 AND deleted_at IS NULL ORDER BY created_at LIMIT 1',
        [selector.type],
      );
      const stored = backend.rows[0];
      if (!stored) throw new LogSourceError(`name: log backend '${selector.type}' does not exist`, 404);
      const spec = logBackendSpecSchema.safeParse(stored.spec);
      if (!spec.success) throw new LogSourceError(`log backend '${selector.type}' has an invalid spec`, 409);
      const labels =
        selector.labels && typeof selector.labels === 'object'
          ? (selector.labels as Record<string, string>)
          : undefined;
      return readSource(
        spec.data,
        {
          query: request.query?.trim() || undefined,
          startMs,
          endMs,
          limit: request.limit ?? LOGS_LIMITS.defaultLimit,
          labels,
        },
        deps.resolveConnection,
        deps.fileRoots,
      );
    },
  };
}

export type LogsService = ReturnType<typeof createLogsService>;
