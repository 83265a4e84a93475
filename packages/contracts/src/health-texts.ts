/**
 * Texts and constants of the Health screens (spec 2 sections 2.2, 2.3, 4, 5 and 9; spec 1
 * sections 2.7 and 4). The web renders them and the end-to-end tests look for them, so a
 * wording change happens here once.
 */

import { SCHEDULE_OPTION_SETS, type ScheduleOption } from './settings-resources.js';

/** The health dashboard (`/health`, spec 2 section 2.2; spec 1 section 2.7). */
export const HEALTH_PAGE_TEXTS = {
  title: 'Health',
  addCheck: 'Add Health Check',
  passing: 'passing',
  failing: 'failing',
  filterByHealth: 'Filter by Health',
  hidePassing: 'Hide Passing',
  filterByLabel: 'Filter by Label',
  noLabels: 'No labels',
  searchPlaceholder: 'Search by name, description, or endpoint',
  groupBy: 'Group By',
  tabBy: 'Tab By',
  timeRange: 'Time Range',
  layout: 'Layout',
  layoutTable: 'Table',
  layoutCard: 'Card',
  checksTable: 'Health checks',
  /** The first tab, holding every check. */
  allTab: 'All',
  /** The tab of checks without a namespace. */
  noNamespaceTab: 'none',
  /** Tab By options besides the label keys. */
  tabByNamespace: 'Namespace',
  tabByAgent: 'Agent',
  /** Group By options besides the label keys. */
  groupNone: 'No Grouping',
  groupCanaryName: 'Group Name',
  groupName: 'Name',
  groupDescription: 'Description',
  groupType: 'Type',
  /** Groups of checks with no value for the grouping field, and label groups without the label. */
  groupEmpty: '(none)',
  groupOthers: 'Others',
  columns: {
    checks: 'Checks',
    health: 'Health',
    uptime: 'Uptime',
    latency: 'Latency',
    transition: 'Transition',
  },
  /** The pivot layout (`pivotBy`, `pivotLabel`, `pivotCellType`): checks by name against a dimension. */
  pivotBy: 'Pivot By',
  pivotLabel: 'Pivot Label',
  pivotCell: 'Pivot Cell',
  pivotNone: 'None',
  pivotLabels: 'Labels',
  pivotNamespace: 'Namespace',
  pivotTable: 'Health checks by',
} as const;

/**
 * Said where a spec is shown to someone who may not write canaries: the data API masks its
 * credentials for them (docs/data-api.md, "Credentials in specs").
 */
export const SECRETS_MASKED_NOTE =
  'Passwords, tokens and other credentials show as *** here: only roles that can change health checks see them.';

/** The check detail drawer (spec 2 section 2.3). */
export const CHECK_DRAWER_TEXTS = {
  tabs: {
    history: 'History',
    graph: 'Graph',
    spec: 'Spec',
    relationships: 'Relationships',
  },
  uptime: 'Uptime',
  passed: 'passed',
  failed: 'failed',
  latencyP95: 'Latency (95%)',
  latencyP97: 'Latency (97%)',
  latencyP99: 'Latency (99%)',
  severity: 'Severity',
  lastRun: 'Last Run',
  transitioned: 'Transitioned',
  nextRun: 'Next Run',
  timeRange: 'Time Range',
  healthOverview: 'Health Overview',
  edit: 'Edit',
  runNow: 'Run Now',
  running: 'Running...',
  close: 'Close',
  notFound: 'This check no longer exists.',
  secretsMasked: SECRETS_MASKED_NOTE,
  runPassed: 'Check passed',
  runFailed: 'Check failed',
  noRuns: 'No runs in this time range',
  relationshipsTable: 'Relationships',
  relationshipColumns: { name: 'Name', type: 'Type' },
  history: {
    table: 'Status history',
    status: 'Status',
    duration: 'Duration',
    statusAll: 'All',
    healthy: 'Healthy',
    unhealthy: 'Unhealthy',
    durationAll: 'All',
    durationCustom: 'Custom',
    customDuration: 'Custom duration',
    durationError: 'duration is allowed only in milli seconds & seconds',
    columns: { time: 'Time', duration: 'Duration', message: 'Message', status: 'Status' },
  },
} as const;

/** The health-check form and YAML editor (spec 2 sections 2.8, 3, 4 and 5). */
export const CANARY_FORM_TEXTS = {
  titleNew: 'New Health Check',
  formTab: 'Form',
  yamlTab: 'YAML',
  save: 'Save',
  saving: 'Saving',
  update: 'Update',
  updating: 'Updating',
  cancel: 'Cancel',
  name: 'Name',
  namespace: 'Namespace',
  labels: 'Labels',
  schedule: 'Schedule',
  checks: 'Checks',
  addCheck: 'Add check',
  removeCheck: 'Remove check',
  readOnly: (source: string) => `This health check comes from ${source} and is read-only here.`,
  secretsMasked: SECRETS_MASKED_NOTE,
  otherTypes: (types: string) => `Checks of type ${types} are kept as they are; edit them in YAML.`,
  saved: (name: string) => `${name} updated successfully`,
  created: (name: string) => `${name} created successfully`,
  invalidYaml: 'The YAML cannot be read',
  notFound: 'This health check does not exist.',
  numberError: 'This field must be a number',
  minimumError: 'This field must be at least 0',
} as const;

/** Auto-refresh rates of the dashboard (spec 2 section 4), 'None' first. */
export const HEALTH_REFRESH_RATES = ['None', '15s', '30s', '60s', '2m', '3m', '5m', '10m', '15m'] as const;
/** One of {@link HEALTH_REFRESH_RATES}. */
export type HealthRefreshRate = (typeof HEALTH_REFRESH_RATES)[number];

/**
 * Rates the dashboard disables for long time ranges (spec 2 section 4): 15s and 30s from a
 * range of 1 hour on, 2m and 3m from 3 hours on.
 */
export const HEALTH_REFRESH_DISABLED_FROM: readonly { rates: readonly HealthRefreshRate[]; rangeMs: number }[] = [
  { rates: ['15s', '30s'], rangeMs: 3_600_000 },
  { rates: ['2m', '3m'], rangeMs: 3 * 3_600_000 },
];

/** Status history page size (spec 2 section 9). */
export const STATUS_HISTORY_PAGE_SIZE = 50;
/** Status history is cached this long (spec 2 section 9). */
export const STATUS_HISTORY_STALE_MS = 10_000;
/** Points the Health Overview chart draws at most (spec 2 section 9). */
export const CHECK_GRAPH_COUNT = 300;
/** Duration filter presets of the status history (spec 2 section 9), besides All and custom. */
export const STATUS_HISTORY_DURATIONS = ['100ms', '500ms', '1s', '5s', '10s', '30s'] as const;
/** Bars of the Health Overview chart keep a height between these percentages (spec 2 section 5). */
export const HEALTH_OVERVIEW_BAR_PERCENT = { min: 5, max: 100 } as const;

/**
 * Schedules the health-check form offers (spec 2 section 9, the default set: the short set
 * plus 15m, 6h, 8h, daily and weekly), as canary `schedule` values.
 */
export const CANARY_SCHEDULE_OPTIONS: readonly ScheduleOption[] = SCHEDULE_OPTION_SETS.default;

/** HTTP methods the http check form offers; a body only for POST and PUT (spec 2 section 9). */
export const CHECK_FORM_HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
/** Methods whose form shows a body. */
export const CHECK_FORM_BODY_METHODS: readonly string[] = ['POST', 'PUT'];
/** Response codes the http check form offers (spec 2 section 9). */
export const CHECK_FORM_RESPONSE_CODES = [200, 201, 202, 204, 301, 302, 401, 404, 500, 502, 503] as const;
/** Check types that have a form (spec 2 section 3); the others are edited in YAML. */
export const CHECK_FORM_TYPES = ['http', 'exec', 'redis', 'icmp', 'tcp', 'folder'] as const;
/** One of {@link CHECK_FORM_TYPES}. */
export type CheckFormType = (typeof CHECK_FORM_TYPES)[number];
