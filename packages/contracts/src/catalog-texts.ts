/** UI texts, options and limits of the catalog pages (spec 3 sections 2.1, 4, 8 and 9). */
export const CATALOG_TEXTS = {
  title: 'Catalog',
  searchPlaceholder: 'Search for configs',
  hideDeleted: 'Hide Deleted Catalog',
  notFound: 'Details not found',
  filters: { type: 'Type', groupBy: 'Group By', labels: 'Labels', status: 'Status', health: 'Health' },
  columns: {
    name: 'Name',
    type: 'Type',
    status: 'Status',
    changes: 'Changes',
    tags: 'Tags',
    analysis: 'Analysis',
    cost: 'Cost',
    created: 'Created',
    updated: 'Updated',
    deletedAt: 'Deleted At',
    changed: 'Changed',
    count: 'Count',
    health: 'Health',
  },
  pin: 'Pin as favourite',
  favourites: 'Favourites',
  unpin: 'Remove from favourites',
  allTypes: 'All',
  /** After the item table's total: '30,000 items'. */
  items: 'items',
  tabs: {
    config: 'Config',
    changes: 'Changes',
    insights: 'Insights',
    relationships: 'Relationships',
    playbooks: 'Playbooks',
    checks: 'Checks',
  },
  panel: {
    created: 'Created',
    updated: 'Updated',
    deleted: 'Deleted',
    type: 'Type',
    class: 'Class',
    cost: 'Cost',
    labels: 'Labels',
    tags: 'Tags',
    status: 'Status',
    health: 'Health',
    by: 'by',
    stale: 'Not scraped in over an hour',
    /** Attaches the item as config evidence to an incident (spec 3 section 2.1). */
    linkToIncident: 'Link to incident',
  },
  views: { json: 'json', yaml: 'yaml' },
  noChanges: 'No changes',
  noInsights: 'No insights',
  change: {
    title: 'Change',
    diff: 'Diff',
    patches: 'Patches',
    details: 'Details',
    source: 'Source',
    severity: 'Severity',
    creator: 'Created By',
    createdAt: 'Created',
  },
} as const;

/** Health filter options in the spec's order; values as stored. */
export const CATALOG_HEALTH_OPTIONS = [
  { value: 'unhealthy', label: 'Unhealthy' },
  { value: 'healthy', label: 'Healthy' },
  { value: 'unknown', label: 'Unknown' },
  { value: 'warning', label: 'Warning' },
] as const;

/** Group By options before the tag keys (spec 3 section 2.1). */
export const CATALOG_GROUP_BY_OPTIONS = ['name', 'analysis', 'changed', 'type', 'provider'] as const;

/** Health display order of the bars (spec 3 section 4): green, red, orange, gray. */
export const CATALOG_HEALTH_DISPLAY_ORDER = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;

export const CATALOG_LIMITS = {
  /** A change count this high is shown in red. */
  changesHighlightFrom: 500,
  /** Counts above this are written as Nk+. */
  compactCountAbove: 999,
  /** The cost badge shows when the 1-day cost differs from the 30-day daily mean by more. */
  costChangePercent: 10,
  /** Virtualised table geometry. */
  rowEstimate: 37,
  overscan: 20,
  /** Rows per request of the item table; the next page loads as the scroller nears the end. */
  tablePageSize: 200,
  /** An item not scraped for this long is flagged stale. */
  staleAfterMs: 60 * 60_000,
  /** Catalog query stale time. */
  staleTimeMs: 5 * 60_000,
} as const;

/** localStorage keys of the catalog's preferences. */
export const CATALOG_STORAGE_KEYS = {
  favourites: 'catalogFavouriteTypes',
  hideDeleted: 'catalogHideDeleted',
} as const;
