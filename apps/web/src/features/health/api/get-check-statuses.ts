import {
  CHECK_STATUS_SELECT,
  STATUS_HISTORY_STALE_MS,
  checkStatusesResponseSchema,
  type CheckStatusRow,
} from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TimeRange } from '@/components/ui/time-range-picker';
import { countExact, dbApi, withTotal } from '@/lib/api-client';
import { healthKeys } from './health-keys';
import { timeColumnFilter } from './status-time-filter';
import { summaryRangeKey } from './summary-range';

export interface CheckStatusesFilters {
  checkId: string;
  range: TimeRange;
  /** true: only passing runs (Healthy, status 1); false: only failing ones; undefined: all. */
  status?: boolean | undefined;
  /** Only runs that took at least this long. */
  minDurationMs?: number | undefined;
  pageIndex: number;
  pageSize: number;
}

/** A page of a check's runs and how many there are in all. */
export interface CheckStatusesPage {
  rows: CheckStatusRow[];
  total: number;
}

/**
 * `GET /api/db/check_statuses?check_id=eq.{id}&time=gt.{t}&order=time.desc[&status=eq.1|eq.0]
 * [&duration=gte.{ms}]&limit&offset` with `Prefer: count=exact` (spec 2 section 7.2): one page
 * of the status history, newest first, and the total from Content-Range.
 */
export const getCheckStatuses = async (
  { checkId, range, status, minDurationMs, pageIndex, pageSize }: CheckStatusesFilters,
  signal?: AbortSignal,
): Promise<CheckStatusesPage> => {
  const params: Record<string, string | number> = {
    check_id: `eq.${checkId}`,
    select: CHECK_STATUS_SELECT,
    ...timeColumnFilter('time', range, new Date()),
    order: 'time.desc',
    limit: pageSize,
    offset: pageIndex * pageSize,
  };
  if (status !== undefined) params.status = `eq.${status ? 1 : 0}`;
  if (minDurationMs !== undefined) params.duration = `gte.${minDurationMs}`;
  const response = await dbApi.get<unknown>('/check_statuses', { ...countExact, params, signal });
  const { data, total } = withTotal(response);
  return { rows: checkStatusesResponseSchema.parse(data), total };
};

export const checkStatusesQueryOptions = (filters: CheckStatusesFilters, refetchInterval: number | false = false) =>
  queryOptions({
    queryKey: healthKeys.statusPage(filters.checkId, { ...filters, range: summaryRangeKey(filters.range) }),
    queryFn: ({ signal }) => getCheckStatuses(filters, signal),
    // Spec 2 section 9: status history is cached 10 s.
    staleTime: STATUS_HISTORY_STALE_MS,
    placeholderData: keepPreviousData,
    refetchInterval,
  });

export const useCheckStatuses = (filters: CheckStatusesFilters, refetchInterval: number | false = false) =>
  useQuery(checkStatusesQueryOptions(filters, refetchInterval));
