import type { LogLine, LogsResponse } from '@lookout/contracts';

/** What `POST /api/logs` asks a source for, after the selector and time range are read. */
export type LogSourceQuery = {
  query?: string | undefined;
  startMs?: number | undefined;
  endMs?: number | undefined;
  limit: number;
  /** The selector's labels: each source narrows by them its own way (docs/logs.md). */
  labels?: Record<string, string> | undefined;
};

/** A source that cannot answer: the message says which backend field or server is wrong. */
export class LogSourceError extends Error {
  constructor(
    message: string,
    readonly status = 502,
  ) {
    super(message);
    this.name = 'LogSourceError';
  }
}

/** Newest first, at most `limit`. */
export function newestFirst(lines: LogLine[], limit: number): LogLine[] {
  return [...lines].sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp)).slice(0, limit);
}

export function emptyAnswer(): LogsResponse {
  return { total: 0, results: [] };
}
