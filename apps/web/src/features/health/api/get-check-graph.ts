import {
  CHECK_GRAPH_COUNT,
  CHECK_STATUS_BUCKET_SELECT,
  CHECK_STATUS_POINT_SELECT,
  checkStatusBucketsResponseSchema,
  checkStatusPointsResponseSchema,
} from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { timeRangeToBounds, type TimeRange } from '@/components/ui/time-range-picker';
import { dbApi } from '@/lib/api-client';
import { healthKeys } from './health-keys';
import { timeColumnFilter } from './status-time-filter';
import { summaryRangeKey } from './summary-range';

/** One bar of the Health Overview chart: a run, or an hour or a day of runs. */
export interface CheckGraphPoint {
  time: string;
  passed: number;
  failed: number;
  /** Duration of the run, or the mean of the bucket's, in milliseconds. */
  durationMs: number | null;
}

const HOUR_MS = 3_600_000;
/** Up to this long the chart shows single runs; longer, hourly buckets; beyond a month, daily ones. */
const RAW_UP_TO_MS = 4 * HOUR_MS;
const HOURLY_UP_TO_MS = 31 * 24 * HOUR_MS;

/**
 * The Health Overview chart's data (spec 2 section 2.3), at most {@link CHECK_GRAPH_COUNT}
 * points, oldest first: single runs from `GET /api/db/check_statuses` for ranges up to four
 * hours, else the hourly (`check_statuses_1h`) or daily (`check_statuses_1d`) roll-ups, so a
 * long range costs as little as a short one.
 */
export const getCheckGraph = async (
  checkId: string,
  range: TimeRange,
  signal?: AbortSignal,
): Promise<CheckGraphPoint[]> => {
  const now = new Date();
  const bounds = timeRangeToBounds(range, now);
  const span = bounds ? bounds.to.getTime() - bounds.from.getTime() : HOUR_MS;
  if (span <= RAW_UP_TO_MS) {
    const { data } = await dbApi.get<unknown>('/check_statuses', {
      params: {
        check_id: `eq.${checkId}`,
        select: CHECK_STATUS_POINT_SELECT,
        ...timeColumnFilter('time', range, now),
        order: 'time.desc',
        limit: CHECK_GRAPH_COUNT,
      },
      signal,
    });
    return checkStatusPointsResponseSchema
      .parse(data)
      .map((row) => ({
        time: row.time,
        passed: row.status ? 1 : 0,
        failed: row.status ? 0 : 1,
        durationMs: row.duration,
      }))
      .reverse();
  }
  const relation = span <= HOURLY_UP_TO_MS ? '/check_statuses_1h' : '/check_statuses_1d';
  const { data } = await dbApi.get<unknown>(relation, {
    params: {
      check_id: `eq.${checkId}`,
      select: CHECK_STATUS_BUCKET_SELECT,
      ...timeColumnFilter('created_at', range, now),
      order: 'created_at.desc',
      limit: CHECK_GRAPH_COUNT,
    },
    signal,
  });
  return checkStatusBucketsResponseSchema
    .parse(data)
    .map((bucket) => ({
      time: bucket.created_at,
      passed: bucket.passed,
      failed: bucket.failed,
      durationMs: bucket.total > 0 ? bucket.duration / bucket.total : null,
    }))
    .reverse();
};

export const checkGraphQueryOptions = (checkId: string, range: TimeRange, refetchInterval: number | false = false) =>
  queryOptions({
    queryKey: healthKeys.graph(checkId, summaryRangeKey(range)),
    queryFn: ({ signal }) => getCheckGraph(checkId, range, signal),
    placeholderData: keepPreviousData,
    refetchInterval,
  });

export const useCheckGraph = (checkId: string, range: TimeRange, refetchInterval: number | false = false) =>
  useQuery(checkGraphQueryOptions(checkId, range, refetchInterval));
