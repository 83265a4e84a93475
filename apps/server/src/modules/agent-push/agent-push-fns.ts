import type { AgentPushBacklog, AgentPushData, AgentPushRow } from '@lookout/contracts';
import type { PushPage } from './agent-push-repository.js';

/** The first pause after a failed push; each further failure doubles it up to the cap. */
export const PUSH_RETRY_FIRST_MS = 1_000;
/** The longest pause while the upstream is unreachable or failing (5xx). */
export const PUSH_RETRY_MAX_MS = 30_000;
/** The pause after the upstream refused the token (401/403): it will not change by itself soon. */
export const PUSH_RETRY_UNAUTHORIZED_MS = 60_000;

/**
 * How long to wait before the next push after `failures` failures in a row (1 s, 2 s, 4 s, ...
 * up to 30 s; a refused token waits a minute each time).
 */
export function retryDelayMs(failures: number, kind: 'unavailable' | 'refused' | 'unauthorized'): number {
  if (kind === 'unauthorized') return PUSH_RETRY_UNAUTHORIZED_MS;
  if (failures <= 0) return 0;
  return Math.min(PUSH_RETRY_MAX_MS, PUSH_RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 20));
}

/**
 * The push body of a page: each table's rows, and the backlog. Within a table the deleted rows
 * go first: a row deleted on the agent frees its natural key (a component's topology, type,
 * name and parent) for the live row that replaced it, and the upstream stores rows in order.
 */
export function pushBody(page: PushPage, backlog: AgentPushBacklog): AgentPushData {
  const body: AgentPushData = { backlog };
  const deleted = (row: AgentPushRow) => (row.deleted_at === null || row.deleted_at === undefined ? 1 : 0);
  for (const [table, rows] of page) {
    if (rows.length > 0) body[table] = rows.map((entry) => entry.row).sort((a, b) => deleted(a) - deleted(b));
  }
  return body;
}

/**
 * Whether the upstream's 409 names `row`: its `ids` are the refused rows' keys, each key's
 * values joined by ',' (an id, or check_id,time of a check status). A row is named when every
 * part of one id is one of its values as sent.
 */
export function rowIsNamed(row: AgentPushRow, ids: readonly string[]): boolean {
  const values = new Set(
    Object.values(row)
      .filter((value) => typeof value === 'string' || typeof value === 'number')
      .map((value) => String(value).toLowerCase()),
  );
  return ids.some((id) =>
    id
      .split(',')
      .filter((part) => part !== '')
      .every((part) => values.has(part.toLowerCase())),
  );
}

/** Takes the rows a 409 named out of the page (they stay unpushed); returns how many. */
export function dropNamedRows(page: PushPage, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  let dropped = 0;
  for (const [table, rows] of page) {
    const kept = rows.filter((entry) => !rowIsNamed(entry.row, ids));
    dropped += rows.length - kept.length;
    page.set(table, kept);
  }
  return dropped;
}

/** Rows per table of a page, for the log and the job summary. */
export function countsByTable(page: PushPage): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [table, rows] of page) if (rows.length > 0) counts[table] = rows.length;
  return counts;
}
