/**
 * UI texts, options and limits of the topology pages (spec 3 sections 2.2, 8 and 9; spec 1
 * section 2.2 for the menu label). The server's topology contracts live in `topology.ts`.
 */
export const TOPOLOGY_TEXTS = {
  /** The sidebar item and the breadcrumb root (spec 1 section 2.2). */
  menu: 'Dashboard',
  title: 'Topology',
  empty: 'There are no components matching this criteria',
  loadError: 'Unable to load components!',
  multiple: 'Response has multiple components for the id.',
  notFound: 'Component not found',
  all: 'All',
  filters: {
    health: 'Health',
    type: 'Type',
    team: 'Team',
    labels: 'Labels',
    agent: 'Agent',
    sortBy: 'Sort By',
    sortOrder: 'Sort order',
    ascending: 'Ascending',
    descending: 'Descending',
  },
  cardWidth: 'Card Width',
  showMore: 'Show more',
  showLess: 'Show less',
  summary: { insights: 'Insights', checks: 'Health Checks', incidents: 'Incidents' },
  menuLabel: 'Component actions',
  actions: {
    viewLogs: 'View Logs',
    zoomIn: 'Zoom In',
    linkToIncident: 'Link to Incident',
    snapshot: 'Snapshot',
    linkToCatalog: 'Link to catalog',
  },
  snapshot: {
    title: (name: string) => `Download ${name} snapshot`,
    timeRange: 'Time Range',
    related: 'Include related components',
    download: 'Download',
    downloading: 'Downloading...',
    error: 'Error downloading file',
    fileSuffix: '-snapshot.zip',
  },
  link: {
    title: 'Link to Catalog',
    catalog: 'Catalog',
    search: 'Search catalog items',
    submit: 'Link',
    submitting: 'Linking..',
    success: 'config link successful',
    required: 'Please select a catalog item',
    noMatches: 'No catalog items match',
    unlink: 'Unlink',
    unlinked: 'Deleted config link successfully',
  },
  panels: {
    details: 'Details',
    catalog: 'Catalog',
    incidents: 'Incidents',
    changes: 'Changes',
    checks: 'Checks',
    playbookRuns: 'Playbook runs',
    teams: 'Teams',
    insights: 'Insights',
  },
  panelEmpty: {
    catalog: 'No linked catalog items',
    incidents: 'No incidents',
    changes: 'No changes',
    checks: 'No checks',
    playbookRuns: 'No playbook runs',
    teams: 'No teams',
    insights: 'No insights',
  },
  details: {
    name: 'Name',
    namespace: 'Namespace',
    parent: 'Parent',
    created: 'Created',
    updated: 'Updated',
    topology: 'Topology',
    labels: 'Labels',
    statusReason: 'Status',
  },
  showSidebar: 'Show details',
  hideSidebar: 'Hide details',
} as const;

/** Card sizes and their widths in px (spec 3 section 9). */
export const TOPOLOGY_CARD_SIZES = { small: 198, medium: 258, large: 356, extra_large: 554 } as const;
export type TopologyCardSize = keyof typeof TOPOLOGY_CARD_SIZES;

/** The card width slider (spec 3 sections 2.2 and 9); the original console starts at 554 px. */
export const TOPOLOGY_CARD_WIDTH = { min: 250, max: 768, step: 2, default: 554 } as const;

/** Show-more thresholds of a card (spec 3 section 2.2). */
export const TOPOLOGY_SHOW_MORE = { properties: 6, summaryItems: 5, maxHeightPx: 200 } as const;

/** A usage (value of max) above this share is shown red (spec 3 section 2.2). */
export const TOPOLOGY_USAGE_RED_PERCENT = 70;

/** The link-to-catalog picker lists at most this many options (spec 3 section 9). */
export const TOPOLOGY_LINK_PICKER_LIMIT = 50;

/** Health sort ranks (spec 3 section 4): unhealthy first, then warning, healthy, info. */
export const TOPOLOGY_HEALTH_RANK = { unhealthy: 1, warning: 2, healthy: 3, info: 4 } as const;

/** The standard sort fields of the card grid; headline property names are added per page. */
export const TOPOLOGY_SORT_FIELDS = [
  { value: 'status', label: 'Health' },
  { value: 'name', label: 'Name' },
  { value: 'type', label: 'Type' },
  { value: 'updated_at', label: 'Last Updated' },
] as const;

/** Snapshot time ranges; the first is the default (spec 3 section 9). */
export const TOPOLOGY_SNAPSHOT_RANGES = [
  { value: '15m', label: '15 minutes' },
  { value: '1h', label: '1 hour' },
  { value: '2h', label: '2 hours' },
  { value: '3h', label: '3 hours' },
  { value: '6h', label: '6 hours' },
  { value: '12h', label: '12 hours' },
  { value: '1d', label: '1 day' },
  { value: '2d', label: '2 days' },
  { value: '7d', label: '7 days' },
] as const;

/** localStorage keys of the topology pages. */
export const TOPOLOGY_STORAGE_KEYS = {
  cardWidth: 'topology_card_width',
  sidebarOpen: 'topology_sidebar_open',
} as const;

/** Option lookups (the link-to-catalog picker) wait this long after typing (spec 3 section 9). */
export const TOPOLOGY_LOOKUP_DEBOUNCE_MS = 500;

/** `/settings/topologies` and its edit form (spec 3 section 2.6, ui-calls 3.10). */
export const TOPOLOGY_SETTINGS_TEXTS = {
  /** The settings menu item and the list's title. */
  title: 'Topology',
  titleNew: 'New Topology',
  add: 'Add Topology',
  /** The generic columns without Schedule, which is hidden for topologies. */
  columns: {
    name: 'Name',
    source: 'Source',
    namespace: 'Namespace',
    jobStatus: 'Job Status',
    lastRun: 'Last Run',
    lastFailed: 'Last Failed',
    tags: 'Tags',
    created: 'Created',
    updated: 'Updated',
    createdBy: 'Created By',
  },
  empty: 'No topologies yet',
  listError: 'Something went wrong',
  notFound: 'No resources found',
  spec: 'Spec',
  jobHistory: 'Job History',
  specHint: 'The Topology as YAML: metadata (name, namespace, labels) and its spec (components, lookups, selectors).',
  save: 'Save',
  saving: 'Saving',
  cancel: 'Cancel',
  delete: 'Delete',
  deleteConfirm: (name: string) => `Are you sure you want to delete the topology ${name} ?`,
  readOnly: (source: string) => `This topology comes from ${source} and is read-only here.`,
  invalid: 'The topology cannot be read',
  nameRequired: 'metadata.name is required',
  specRequired: 'spec must be a set of settings (key: value)',
} as const;
