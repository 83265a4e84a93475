import { z } from 'zod';
import { parseDurationMs } from './time-expressions.js';

/**
 * The catalog's own HTTP endpoints (spec 3 section 7; ui-calls section 3.5): the summary rows
 * of the catalog list and the changes list. Everything else of the catalog is read through
 * `/api/db` (18_catalog.sql; docs/catalog.md).
 */

export const CATALOG_API_BASE = '/api/catalog';

/** Summary windows (spec 3 section 9: summary windows 30 days). */
export const CATALOG_SUMMARY_WINDOW = '30d';
/** Changes page defaults (spec 3 section 9; ui-calls 3.5). */
export const CATALOG_CHANGES_PAGE_SIZE = 200;
export const CATALOG_CHANGES_MAX_PAGE_SIZE = 1000;
/** Where a changes query starts when it names no `from` (ui-calls 3.5). */
export const CATALOG_CHANGES_DEFAULT_FROM = 'now-2d';
/** Columns a changes list may be sorted by (`sort_by`, `-` first for descending). */
export const CATALOG_CHANGES_SORT_COLUMNS = [
  'created_at',
  'first_observed',
  'name',
  'type',
  'change_type',
  'severity',
  'summary',
  'source',
  'count',
  'created_by',
] as const;
/** How far a changes query follows relationships from `id`. */
export const CATALOG_CHANGES_RECURSIVE = ['none', 'upstream', 'downstream', 'all'] as const;
/** Summary group-by keys that are item columns; any other key is a tag key. */
export const CATALOG_SUMMARY_COLUMNS = ['type', 'name', 'status', 'health', 'config_class'] as const;

const duration = (field: string) =>
  z.string().refine((value) => parseDurationMs(value) !== undefined, `${field} must be a duration such as 30d or 24h`);
/** "a,!b": values to keep and (with `!`) to leave out. */
const valueList = z.string().max(2000);

export const catalogSummaryRequestSchema = z
  .object({
    groupBy: z.array(z.string().min(1).max(200)).max(10).optional(),
    deleted: z.boolean().optional(),
    filter: z.record(z.string().min(1).max(200), z.string().max(2000)).optional(),
    health: valueList.optional(),
    status: valueList.optional(),
    changes: z
      .object({ since: duration('changes.since') })
      .strict()
      .optional(),
    analysis: z
      .object({ since: duration('analysis.since') })
      .strict()
      .optional(),
    cost: duration('cost').optional(),
  })
  .strict();
export type CatalogSummaryRequest = z.infer<typeof catalogSummaryRequestSchema>;

/** One row: the group's keys (type and each group-by key), counts and costs. */
export const catalogSummaryRowSchema = z
  .object({
    type: z.string().nullable(),
    count: z.number(),
    health: z.record(z.string(), z.number()),
    analysis: z.record(z.string(), z.number()),
    changes: z.number(),
    cost_per_minute: z.number().nullable(),
    cost_total_1d: z.number().nullable(),
    cost_total_7d: z.number().nullable(),
    cost_total_30d: z.number().nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
    agent: z.object({ id: z.string(), name: z.string() }).nullable(),
  })
  .catchall(z.unknown());
export type CatalogSummaryRow = z.infer<typeof catalogSummaryRowSchema>;
export const catalogSummaryResponseSchema = z.array(catalogSummaryRowSchema);

export const catalogChangesRequestSchema = z
  .object({
    id: z.string().uuid().optional(),
    config_type: z.string().max(2000).optional(),
    type: valueList.optional(),
    severity: valueList.optional(),
    tags: z.string().max(4000).optional(),
    summary: z.string().max(1000).optional(),
    source: z.string().max(1000).optional(),
    created_by: z.string().max(1000).optional(),
    from: z.string().max(100).optional(),
    to: z.string().max(100).optional(),
    page: z.number().int().min(1).optional(),
    page_size: z.number().int().min(1).max(CATALOG_CHANGES_MAX_PAGE_SIZE).optional(),
    sort_by: z.string().max(100).optional(),
    recursive: z.enum(CATALOG_CHANGES_RECURSIVE).optional(),
    depth: z.number().int().min(0).max(20).optional(),
    include_deleted_configs: z.boolean().optional(),
  })
  .strict();
export type CatalogChangesRequest = z.infer<typeof catalogChangesRequestSchema>;

export const catalogChangeRowSchema = z.object({
  id: z.string(),
  config_id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  config_class: z.string().nullable(),
  change_type: z.string(),
  severity: z.string().nullable(),
  summary: z.string().nullable(),
  source: z.string().nullable(),
  tags: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  first_observed: z.string().nullable(),
  count: z.number(),
  created_by: z.string().nullable(),
  external_created_by: z.string().nullable(),
  deleted_at: z.string().nullable(),
});
export type CatalogChangeRow = z.infer<typeof catalogChangeRowSchema>;
export const catalogChangesResponseSchema = z.object({
  /** How many changes of each change type match (all pages). */
  summary: z.record(z.string(), z.number()),
  changes: z.array(catalogChangeRowSchema),
  total: z.number(),
});
export type CatalogChangesResponse = z.infer<typeof catalogChangesResponseSchema>;

/** "a,!b" → the values to keep and to leave out. */
export function splitValueList(text: string | undefined): { include: string[]; exclude: string[] } {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const raw of (text ?? '').split(',')) {
    const value = raw.trim();
    if (value === '' || value === '!') continue;
    if (value.startsWith('!')) exclude.push(value.slice(1));
    else include.push(value);
  }
  return { include, exclude };
}

/** One tag condition of a changes query: `k=v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`. */
export type TagCondition = { key: string; values: string[]; negate: boolean };

/**
 * Reads the `tags` text of a changes query. Conditions are joined by commas outside of
 * parentheses. Returns the conditions, or the first part it could not read.
 */
export function parseTagConditions(
  text: string,
): { ok: true; conditions: TagCondition[] } | { ok: false; part: string } {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  const conditions: TagCondition[] = [];
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') continue;
    const set = /^(.+?)\s+(in|notin)\s*\((.*)\)$/.exec(part);
    if (set) {
      const values = set[3]!
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      conditions.push({ key: set[1]!.trim(), values, negate: set[2] === 'notin' });
      continue;
    }
    const pair = /^([^=!]+?)\s*(!=|=)\s*(.*)$/.exec(part);
    if (!pair || pair[1]!.trim() === '') return { ok: false, part };
    conditions.push({ key: pair[1]!.trim(), values: [pair[3]!.trim()], negate: pair[2] === '!=' });
  }
  return { ok: true, conditions };
}
