import { CATALOG_INSIGHTS_DEFAULTS, CATALOG_INSIGHTS_SORT_COLUMNS, PAGE_SIZES } from '@lookout/contracts';

/**
 * The insights pages' state in the address (spec 3 section 2.1): status, severity, type
 * (the insight's analysis type), configType, analyzer, component, pageSize (default 50),
 * pageIndex (from 0), sortBy, sortOrder.
 */
export type InsightsParams = {
  status: string;
  severity: string;
  type: string;
  configType: string;
  analyzer: string;
  component: string;
  pageSize: number;
  pageIndex: number;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
};

export const INSIGHT_FILTER_KEYS = ['status', 'severity', 'type', 'configType', 'analyzer', 'component'] as const;
export type InsightFilterKey = (typeof INSIGHT_FILTER_KEYS)[number];

function count(raw: string | null, fallback: number, min: number): number {
  const value = Number(raw);
  return raw !== null && raw.trim() !== '' && Number.isInteger(value) && value >= min ? value : fallback;
}

export function parseInsightsParams(search: URLSearchParams): InsightsParams {
  const d = CATALOG_INSIGHTS_DEFAULTS;
  const pageSize = count(search.get('pageSize'), d.pageSize, 1);
  const sortBy = search.get('sortBy') ?? d.sortBy;
  const text = (key: string) => search.get(key)?.trim() ?? '';
  return {
    status: text('status'),
    severity: text('severity'),
    type: text('type'),
    configType: text('configType'),
    analyzer: text('analyzer'),
    component: text('component'),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : d.pageSize,
    pageIndex: count(search.get('pageIndex'), d.pageIndex, 0),
    sortBy: (CATALOG_INSIGHTS_SORT_COLUMNS as readonly string[]).includes(sortBy) ? sortBy : d.sortBy,
    sortOrder: (search.get('sortOrder') ?? d.sortOrder) === 'asc' ? 'asc' : 'desc',
  };
}

/** The address with `update` written in; a filter, size or order change goes back to page 0. */
export function applyInsightsParams(search: URLSearchParams, update: Partial<InsightsParams>): URLSearchParams {
  const next = new URLSearchParams(search);
  const d = CATALOG_INSIGHTS_DEFAULTS;
  const set = (key: string, value: string, fallback = '') => {
    if (value === '' || value === fallback) next.delete(key);
    else next.set(key, value);
  };
  for (const key of INSIGHT_FILTER_KEYS) if (update[key] !== undefined) set(key, update[key].trim());
  if (update.pageSize !== undefined) set('pageSize', String(update.pageSize), String(d.pageSize));
  if (update.sortBy !== undefined) set('sortBy', update.sortBy, d.sortBy);
  if (update.sortOrder !== undefined) set('sortOrder', update.sortOrder, d.sortOrder);
  if (update.pageIndex !== undefined) set('pageIndex', String(update.pageIndex), String(d.pageIndex));
  else if (Object.keys(update).length > 0) next.delete('pageIndex');
  return next;
}

export const INSIGHTS_LIST_SELECT =
  'id,analysis_type,analyzer,severity,status,message,first_observed,last_observed,config:configs(id,name,config_class,type)';

/**
 * The query of `GET /api/db/config_analysis_items` (ui-calls 3.5): one page, the filters as
 * `eq.` conditions (severity lower-cased), the order. `configId` fixes the item of a tab.
 */
export function insightsQuery(params: InsightsParams, configId?: string): [string, string][] {
  const query: [string, string][] = [
    ['select', INSIGHTS_LIST_SELECT],
    ['limit', String(params.pageSize)],
    ['offset', String(params.pageIndex * params.pageSize)],
  ];
  if (params.status) query.push(['status', `eq.${params.status}`]);
  if (params.type) query.push(['analysis_type', `eq.${params.type}`]);
  if (params.severity) query.push(['severity', `eq.${params.severity.toLowerCase()}`]);
  if (params.analyzer) query.push(['analyzer', `eq.${params.analyzer}`]);
  if (configId) query.push(['config_id', `eq.${configId}`]);
  if (params.configType) query.push(['config_type', `eq.${params.configType}`]);
  // A stable order across pages: ties broken by id.
  query.push(['order', `${params.sortBy}.${params.sortOrder},id.asc`]);
  return query;
}

/** A row of the insights list. */
export type InsightRow = {
  id: string;
  analysis_type: string | null;
  analyzer: string;
  severity: string | null;
  status: string | null;
  message: string | null;
  first_observed: string | null;
  last_observed: string | null;
  config: { id: string; name: string | null; config_class: string | null; type: string | null } | null;
};

/** A row of `rpc/lookup_analysis_by_component` (config_analysis_items columns). */
export type ComponentInsightRow = Omit<InsightRow, 'config'> & {
  config_id: string;
  config_name: string | null;
  config_type: string | null;
  config_class: string | null;
};

const compare = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return String(a).localeCompare(String(b));
};

/**
 * With a component chosen the original reads `rpc/lookup_analysis_by_component` (no paging)
 * and filters, sorts and pages in the browser; this does the same on its rows.
 */
export function componentInsightsPage(
  rows: ReadonlyArray<ComponentInsightRow>,
  params: InsightsParams,
  configId?: string,
): { rows: InsightRow[]; total: number } {
  const kept = rows
    .filter(
      (row) =>
        (!params.status || row.status === params.status) &&
        (!params.type || row.analysis_type === params.type) &&
        (!params.severity || row.severity === params.severity.toLowerCase()) &&
        (!params.analyzer || row.analyzer === params.analyzer) &&
        (!params.configType || row.config_type === params.configType) &&
        (!configId || row.config_id === configId),
    )
    .map(({ config_id, config_name, config_type, config_class, ...rest }): InsightRow => ({
      ...rest,
      config: { id: config_id, name: config_name, type: config_type, config_class },
    }));
  const key = (row: InsightRow) =>
    params.sortBy === 'config_name' ? row.config?.name : (row as Record<string, unknown>)[params.sortBy];
  kept.sort((a, b) => compare(key(a), key(b)) * (params.sortOrder === 'asc' ? 1 : -1));
  const start = params.pageIndex * params.pageSize;
  return { rows: kept.slice(start, start + params.pageSize), total: kept.length };
}

/** Insight messages are cut at 500 characters in lists (spec 3 section 2.1). */
export function cutMessage(text: string | null | undefined): string {
  const limit = CATALOG_INSIGHTS_DEFAULTS.messageLimit;
  if (!text) return '';
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
