import { DEFAULT_PAGE_SIZE, PAGE_SIZES, TRISTATE, type TristateValue } from '@lookout/contracts';

/**
 * The dashboard's state as URL query parameters (spec 2 section 2.2: timeRange, labels, query,
 * layout, checkId, sortBy, sortDesc, groupBy, pivotBy, pivotLabel, pivotCellType, pageIndex,
 * pageSize; and, as the original console kept them, hidePassing, tabBy and the selected tab),
 * so a link or a reload shows the same view. The time range is read by the shared picker's
 * `useTimeRangeParams`.
 */

/** Built-in Group By values; any other value is a label key. */
export const GROUP_BY_BUILT_INS = ['no-group', 'canary_name', 'name', 'description', 'type'] as const;
/** Built-in Tab By values; any other value is a label key. */
export const TAB_BY_BUILT_INS = ['namespace', 'agent_id'] as const;

export const DEFAULT_GROUP_BY = 'canary_name';
export const DEFAULT_TAB_BY = 'namespace';
export const NO_GROUPING = 'no-group';
export const TAB_BY_AGENT = 'agent_id';
/** The value of the 'All' tab in the `tab` parameter (the parameter is then left out). */
export const ALL_TAB = '';

export const HEALTH_LAYOUTS = ['table', 'card'] as const;
export type HealthLayout = (typeof HEALTH_LAYOUTS)[number];

/** Columns the table sorts by; the ids follow the original console's, so old links keep working. */
export const HEALTH_SORT_COLUMNS = ['name', 'status', 'uptime', 'latency', 'last_transition_time'] as const;
export type HealthSortColumn = (typeof HEALTH_SORT_COLUMNS)[number];

/** Pivot options of the original's pivot layout, kept so shared links round-trip. */
export const PIVOT_BY_VALUES = ['none', 'labels', 'namespace'] as const;
export const PIVOT_CELL_TYPES = ['uptime', 'checkStatuses', 'latency'] as const;

/** A label filter: label id (`canary:{key}:{value}`) to 1 include or -1 exclude. */
export type LabelFilterState = Readonly<Record<string, Exclude<TristateValue, 0>>>;

export interface HealthParams {
  query: string;
  labels: LabelFilterState;
  hidePassing: boolean;
  groupBy: string;
  tabBy: string;
  /** The selected tab's value; '' is 'All'. */
  tab: string;
  layout: HealthLayout;
  checkId: string | undefined;
  sortBy: HealthSortColumn | undefined;
  sortDesc: boolean;
  pageIndex: number;
  pageSize: number;
  pivotBy: string | undefined;
  pivotLabel: string | undefined;
  pivotCellType: string | undefined;
}

/** Parameter names, as written in the address. */
export const HEALTH_PARAM = {
  query: 'query',
  labels: 'labels',
  hidePassing: 'hidePassing',
  groupBy: 'groupBy',
  tabBy: 'tabBy',
  tab: 'tab',
  layout: 'layout',
  checkId: 'checkId',
  sortBy: 'sortBy',
  sortDesc: 'sortDesc',
  pageIndex: 'pageIndex',
  pageSize: 'pageSize',
  pivotBy: 'pivotBy',
  pivotLabel: 'pivotLabel',
  pivotCellType: 'pivotCellType',
} as const satisfies Record<keyof HealthParams, string>;

/** The label id the filters use: `canary:{key}:{value}` (as the original console's links). */
export function labelId(key: string, value: string): string {
  return `canary:${key}:${value}`;
}

/**
 * Reads `labels` (JSON of label id to 1, -1 or 0). Zeros and anything malformed are dropped,
 * so a hand-edited link degrades to fewer filters instead of an error.
 */
export function parseLabelFilter(raw: string | null): LabelFilterState {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const state: Record<string, Exclude<TristateValue, 0>> = {};
  for (const [id, value] of Object.entries(parsed)) {
    const number = Number(value);
    if (number === TRISTATE.include || number === TRISTATE.exclude) state[id] = number;
  }
  return state;
}

/** The `labels` parameter for a state; undefined (parameter removed) when empty. */
export function serializeLabelFilter(state: LabelFilterState): string | undefined {
  return Object.keys(state).length === 0 ? undefined : JSON.stringify(state);
}

function nonNegativeInt(raw: string | null, fallback: number): number {
  if (raw === null || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | undefined {
  return raw !== null && (values as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

/** The dashboard state from the address, with the spec's defaults for what is missing. */
export function parseHealthParams(params: URLSearchParams): HealthParams {
  const pageSize = nonNegativeInt(params.get(HEALTH_PARAM.pageSize), DEFAULT_PAGE_SIZE);
  return {
    query: params.get(HEALTH_PARAM.query) ?? '',
    labels: parseLabelFilter(params.get(HEALTH_PARAM.labels)),
    // Default true (spec 2 section 2.2): only an explicit 'false' shows passing checks.
    hidePassing: params.get(HEALTH_PARAM.hidePassing) !== 'false',
    groupBy: params.get(HEALTH_PARAM.groupBy) || DEFAULT_GROUP_BY,
    tabBy: params.get(HEALTH_PARAM.tabBy) || DEFAULT_TAB_BY,
    tab: params.get(HEALTH_PARAM.tab) ?? ALL_TAB,
    layout: oneOf(HEALTH_LAYOUTS, params.get(HEALTH_PARAM.layout)) ?? 'table',
    checkId: params.get(HEALTH_PARAM.checkId) || undefined,
    sortBy: oneOf(HEALTH_SORT_COLUMNS, params.get(HEALTH_PARAM.sortBy)),
    sortDesc: params.get(HEALTH_PARAM.sortDesc) === 'true',
    pageIndex: nonNegativeInt(params.get(HEALTH_PARAM.pageIndex), 0),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
    pivotBy: oneOf(PIVOT_BY_VALUES, params.get(HEALTH_PARAM.pivotBy)),
    pivotLabel: params.get(HEALTH_PARAM.pivotLabel) || undefined,
    pivotCellType: oneOf(PIVOT_CELL_TYPES, params.get(HEALTH_PARAM.pivotCellType)),
  };
}

/** A change to the dashboard state; `undefined` values fall back to their defaults. */
export type HealthParamsUpdate = { [K in keyof HealthParams]?: HealthParams[K] | undefined };

/** Default of each parameter; a value equal to its default is left out of the address. */
const DEFAULTS: { [K in keyof HealthParams]?: string } = {
  hidePassing: 'true',
  groupBy: DEFAULT_GROUP_BY,
  tabBy: DEFAULT_TAB_BY,
  tab: ALL_TAB,
  layout: 'table',
  sortDesc: 'false',
  pageIndex: '0',
  pageSize: String(DEFAULT_PAGE_SIZE),
};

function encode<K extends keyof HealthParams>(key: K, value: HealthParams[K] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (key === 'labels') return serializeLabelFilter(value as LabelFilterState);
  const text = String(value);
  return text === '' || text === DEFAULTS[key] ? undefined : text;
}

/**
 * A copy of `params` with the changes applied: defaults and empty values are removed so
 * addresses stay short. Filters that change which rows exist send the table back to page 1.
 */
export function applyHealthParams(params: URLSearchParams, update: HealthParamsUpdate): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of Object.keys(update) as (keyof HealthParams)[]) {
    const name = HEALTH_PARAM[key];
    const value = encode(key, update[key]);
    if (value === undefined) next.delete(name);
    else next.set(name, value);
  }
  const changesRows = (['query', 'labels', 'hidePassing', 'groupBy', 'tabBy', 'tab'] as const).some(
    (key) => key in update,
  );
  if (changesRows && !('pageIndex' in update)) next.delete(HEALTH_PARAM.pageIndex);
  return next;
}
