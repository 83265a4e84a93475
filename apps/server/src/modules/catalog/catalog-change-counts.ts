import { parseTimeExpression, type CatalogChangesRequest } from '@lookout/contracts';
import { LIVE_ITEMS_CONDITION, SqlParts } from './catalog-summary-fns.js';

/**
 * The changes page's total and counts by change type, from the hourly change counts
 * (config_change_counts, 22_catalog_performance.sql) for the whole hours of the range and the
 * changes themselves for its partial first and last hours. Counting a week of a million
 * changes on every request would not meet the bench (changes page p95 < 100 ms).
 */

const HOUR_MS = 3_600_000;

/** The whole UTC hours inside [from, to]: [start, end), or undefined when there is none. */
export function wholeHours(from: Date, to: Date): { start: Date; end: Date } | undefined {
  const start = Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS;
  const end = Math.floor(to.getTime() / HOUR_MS) * HOUR_MS;
  return end > start ? { start: new Date(start), end: new Date(end) } : undefined;
}

/**
 * Whether the hourly counts can answer this request: they are kept per change type, severity
 * and whether the item is live, so any other filter (item, item type, tags, source, summary,
 * creator) is counted from the changes.
 */
export function countableByHour(body: CatalogChangesRequest): boolean {
  return !body.id && !body.config_type && !body.tags && !body.summary && !body.source && !body.created_by;
}

/** Columns of the changes list that config_changes holds itself (the others are the item's). */
const CHANGE_COLUMNS: ReadonlySet<string> = new Set([
  'created_at',
  'first_observed',
  'change_type',
  'severity',
  'summary',
  'source',
  'count',
]);

/** Whether a page in this order can be chosen from config_changes alone, before joining the items. */
export const pagedByChanges = (body: CatalogChangesRequest, column: string) =>
  countableByHour(body) && CHANGE_COLUMNS.has(column);

/**
 * The conditions of a request that `countableByHour` accepts, on config_changes rows alone:
 * changes of deleted items are left out by the (few) deleted items' ids, with no probe of the
 * item of every change.
 */
export function changeRowConditions(conditions: string[]): string[] {
  return conditions.map((condition) =>
    condition === LIVE_ITEMS_CONDITION
      ? 'cc.config_id NOT IN (SELECT d.id FROM config_items d WHERE d.deleted_at IS NOT NULL)'
      : condition,
  );
}

/**
 * The SQL counting changes by change type for a request that `countableByHour` accepts, with
 * `conditions` the request's conditions on catalog_changes rows (alias cc, changesConditions)
 * written into `parts`; undefined when the range holds no whole hour (then count the rows).
 */
export function hourlyCountSql(
  body: CatalogChangesRequest,
  parts: SqlParts,
  conditions: string[],
  now: Date,
  defaultFrom: string,
): string | undefined {
  const from = parseTimeExpression(body.from ?? defaultFrom, now);
  const to = body.to ? parseTimeExpression(body.to, now, { roundUp: true }) : now;
  if (!from || !to) return undefined;
  const hours = wholeHours(from, to);
  if (!hours) return undefined;
  const start = parts.param(hours.start);
  const end = parts.param(hours.end);
  // The same type and severity filters on the counts ('' is a change without severity).
  const counted = new SqlParts(parts.params);
  counted.where.push(`h.bucket >= ${start}`, `h.bucket < ${end}`);
  counted.valueList('h.change_type', body.type);
  counted.valueList(`nullif(h.severity, '')`, body.severity);
  if (!body.include_deleted_configs) counted.where.push('h.live');
  const rows = changeRowConditions(conditions);
  const edge = (bound: string) =>
    `SELECT cc.change_type, 1 AS n FROM config_changes cc WHERE ${[...rows, bound].join(' AND ')}`;
  // Without an upper bound, changes stamped after now (clock skew) still count, as they do in the page.
  return `
    SELECT change_type, sum(n)::integer AS n FROM (
      SELECT h.change_type, h.n FROM config_change_counts h ${counted.sql()}
      UNION ALL ${edge(`cc.created_at < ${start}`)}
      UNION ALL ${edge(`cc.created_at >= ${end}`)}
    ) x
    GROUP BY change_type HAVING sum(n) > 0`;
}
