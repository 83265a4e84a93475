import {
  JOB_HISTORY_DEFAULT_SORT,
  JOB_HISTORY_DEFAULT_STATUS_FILTER,
  JOB_HISTORY_PAGE_SIZE,
  JOB_HISTORY_SORT_COLUMNS,
  PAGE_SIZES,
  type JobHistorySortColumn,
} from '@lookout/contracts';
import { parseTristate, serializeTristate, type TristateSelection } from '@/components/ui/tristate-fns';

/**
 * The job history's state as URL query parameters (spec 2 sections 2.7 and 9, ui-calls 3.9),
 * so a link or a reload shows the same list: job names and statuses as tristate selections
 * (`value:1` / `value:-1`), the resource type, the minimum duration, the page and the order.
 * The time range is kept by the shared picker's parameters (`useTimeRangeParams`).
 */

export interface JobHistoryParams {
  /** Job names included (1) or excluded (-1). */
  name: TristateSelection;
  /** One resource type, or every type. */
  resourceType: string | undefined;
  /** Statuses included or excluded; without a `status` parameter, everything but SUCCESS. */
  status: TristateSelection;
  /** Minimum duration as typed ('500ms', '2s'); '' is All. */
  duration: string;
  pageIndex: number;
  pageSize: number;
  sortBy: JobHistorySortColumn;
  sortDesc: boolean;
}

/** Parameter names, as written in the address. */
export const JOB_HISTORY_PARAM = {
  name: 'name',
  resourceType: 'resourceType',
  status: 'status',
  duration: 'duration',
  pageIndex: 'pageIndex',
  pageSize: 'pageSize',
  sortBy: 'sortBy',
  sortDesc: 'sortOrder',
} as const satisfies Record<keyof JobHistoryParams, string>;

export type JobHistoryParamsUpdate = Partial<JobHistoryParams>;

function nonNegativeInt(raw: string | null, fallback: number): number {
  if (raw === null || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

const isSortColumn = (raw: string | null): raw is JobHistorySortColumn =>
  raw !== null && (JOB_HISTORY_SORT_COLUMNS as readonly string[]).includes(raw);

const isPageSize = (value: number): boolean => (PAGE_SIZES as readonly number[]).includes(value);

/** The state from the address, with the spec's defaults for what is missing or malformed. */
export function parseJobHistoryParams(params: URLSearchParams): JobHistoryParams {
  const status = params.get(JOB_HISTORY_PARAM.status);
  const pageSize = nonNegativeInt(params.get(JOB_HISTORY_PARAM.pageSize), JOB_HISTORY_PAGE_SIZE);
  const sortBy = params.get(JOB_HISTORY_PARAM.sortBy);
  const sortOrder = params.get(JOB_HISTORY_PARAM.sortDesc);
  return {
    name: parseTristate(params.get(JOB_HISTORY_PARAM.name)),
    resourceType: params.get(JOB_HISTORY_PARAM.resourceType)?.trim() || undefined,
    // An empty `status=` is a choice (every status); no parameter at all is the default.
    status: parseTristate(status ?? JOB_HISTORY_DEFAULT_STATUS_FILTER),
    duration: params.get(JOB_HISTORY_PARAM.duration)?.trim() ?? '',
    pageIndex: nonNegativeInt(params.get(JOB_HISTORY_PARAM.pageIndex), 0),
    pageSize: isPageSize(pageSize) ? pageSize : JOB_HISTORY_PAGE_SIZE,
    sortBy: isSortColumn(sortBy) ? sortBy : JOB_HISTORY_DEFAULT_SORT.column,
    sortDesc: sortOrder === 'asc' ? false : sortOrder === 'desc' ? true : JOB_HISTORY_DEFAULT_SORT.desc,
  };
}

/**
 * A copy of `params` with `update` written into it. Values equal to their default are left
 * out, so the address stays short; changing a filter or the order goes back to the first page.
 */
export function applyJobHistoryParams(params: URLSearchParams, update: JobHistoryParamsUpdate): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string | undefined) => {
    if (value === undefined || value === '') next.delete(name);
    else next.set(name, value);
  };
  if (update.name !== undefined) set(JOB_HISTORY_PARAM.name, serializeTristate(update.name));
  if ('resourceType' in update) set(JOB_HISTORY_PARAM.resourceType, update.resourceType);
  if (update.status !== undefined) {
    const value = serializeTristate(update.status);
    // The default is the absence of the parameter; every status is an empty one.
    if (value === JOB_HISTORY_DEFAULT_STATUS_FILTER) next.delete(JOB_HISTORY_PARAM.status);
    else next.set(JOB_HISTORY_PARAM.status, value);
  }
  if (update.duration !== undefined) set(JOB_HISTORY_PARAM.duration, update.duration);
  if (update.sortBy !== undefined || update.sortDesc !== undefined) {
    const sortBy = update.sortBy ?? JOB_HISTORY_DEFAULT_SORT.column;
    const sortDesc = update.sortDesc ?? JOB_HISTORY_DEFAULT_SORT.desc;
    const isDefault = sortBy === JOB_HISTORY_DEFAULT_SORT.column && sortDesc === JOB_HISTORY_DEFAULT_SORT.desc;
    set(JOB_HISTORY_PARAM.sortBy, isDefault ? undefined : sortBy);
    set(JOB_HISTORY_PARAM.sortDesc, isDefault ? undefined : sortDesc ? 'desc' : 'asc');
  }
  if (update.pageSize !== undefined) {
    set(JOB_HISTORY_PARAM.pageSize, update.pageSize === JOB_HISTORY_PAGE_SIZE ? undefined : String(update.pageSize));
  }
  const filtersChanged = (
    ['name', 'resourceType', 'status', 'duration', 'sortBy', 'sortDesc', 'pageSize'] as const
  ).some((key) => key in update);
  if (update.pageIndex !== undefined)
    set(JOB_HISTORY_PARAM.pageIndex, update.pageIndex ? String(update.pageIndex) : undefined);
  else if (filtersChanged) next.delete(JOB_HISTORY_PARAM.pageIndex);
  return next;
}
