/**
 * Texts, URL parameter names and defaults of the catalog's changes and insights pages
 * (spec 3 sections 2.1 and 9; ui-calls 3.5): /catalog/changes, /catalog/insights and the
 * Changes and Insights tabs of an item.
 */

export const CATALOG_CHANGES_TEXTS = {
  title: 'Changes',
  hideDeleted: 'Hide Deleted Config Changes',
  downstream: 'Downstream',
  upstream: 'Upstream',
  timeRange: 'Time range',
  empty: 'No changes',
  filters: { configType: 'Config Type', changeType: 'Change Type', severity: 'Severity', tags: 'Tags' },
  /** Chips of filters without a control of their own (set through the address). */
  chips: {
    id: 'Config',
    summary: 'Summary',
    source: 'Source',
    created_by: 'Created By',
    external_created_by: 'External Created By',
  },
  clearFilter: 'Remove filter',
  columns: {
    createdAt: 'Created',
    catalog: 'Catalog',
    changeType: 'Change Type',
    summary: 'Summary',
    severity: 'Severity',
    source: 'Source',
    createdBy: 'Created By',
    count: 'Count',
  },
  total: (total: number) => `${total} ${total === 1 ? 'change' : 'changes'}`,
  noDiff: 'No diff was recorded for this change.',
} as const;

export const CATALOG_INSIGHTS_TEXTS = {
  title: 'Insights',
  empty: 'No insights',
  filters: {
    configType: 'Config Type',
    type: 'Type',
    severity: 'Severity',
    analyzer: 'Analyzer',
    component: 'Component',
    status: 'Status',
  },
  columns: {
    catalog: 'Catalog',
    type: 'Type',
    analyzer: 'Analyzer',
    severity: 'Severity',
    status: 'Status',
    firstObserved: 'First Observed',
    lastObserved: 'Last Observed',
  },
  detail: {
    title: 'Insight',
    message: 'Message',
    source: 'Source',
    analysis: 'Analysis',
    notFound: 'Insight not found',
  },
} as const;

/** Tabs at the top of the catalog pages (the list, all changes, all insights, the scrapers). */
export const CATALOG_PAGE_TABS = [
  { path: '/catalog', label: 'Catalog' },
  { path: '/catalog/changes', label: 'Changes' },
  { path: '/catalog/insights', label: 'Insights' },
  { path: '/catalog/scrapers', label: 'Scrapers' },
] as const;

/** URL query parameters of the changes pages (spec 3 section 2.1), in the spec's order. */
export const CATALOG_CHANGES_PARAMS = [
  'id',
  'summary',
  'source',
  'created_by',
  'external_created_by',
  'tags',
  'changeType',
  'severity',
  'configTypes',
  'page',
  'pageSize',
  'sortBy',
  'sortDirection',
] as const;

/** URL query parameters of the insights pages (spec 3 section 2.1). */
export const CATALOG_INSIGHTS_PARAMS = [
  'status',
  'severity',
  'type',
  'configType',
  'analyzer',
  'component',
  'pageSize',
  'pageIndex',
  'sortBy',
  'sortOrder',
] as const;

export const CATALOG_CHANGES_DEFAULTS = {
  /** Default time range: relative 7 days (spec 3 section 9). */
  range: 'now-7d',
  page: 1,
  pageSize: 200,
  sortBy: 'created_at',
  sortDirection: 'desc',
  /** The per-item view follows related items downstream, not upstream, by default. */
  downstream: true,
  upstream: false,
  /** How far related items are followed (ui-calls 3.5: depth 5). */
  depth: 5,
} as const;

export const CATALOG_INSIGHTS_DEFAULTS = {
  pageSize: 50,
  pageIndex: 0,
  sortBy: 'first_observed',
  sortOrder: 'desc',
  /** Insight messages are cut at this many characters in lists. */
  messageLimit: 500,
} as const;

/** Columns the insights list may be sorted by (the `order` of config_analysis_items). */
export const CATALOG_INSIGHTS_SORT_COLUMNS = [
  'config_name',
  'analysis_type',
  'analyzer',
  'severity',
  'status',
  'first_observed',
  'last_observed',
] as const;

/** localStorage key of 'Hide Deleted Config Changes' (default yes). */
export const CATALOG_CHANGES_HIDE_DELETED_KEY = 'catalogChangesHideDeleted';
