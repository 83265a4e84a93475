import { jobHistoryRowsSchema, type JobHistoryRow } from '@lookout/contracts';
import { isAxiosError } from 'axios';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { timeRangeKey, timeRangeToBounds, type TimeRange } from '@/components/ui/time-range-picker';
import { countExact, dbApi, getErrorMessage, withTotal } from '@/lib/api-client';
import { jobHistoryQueryParams, type JobHistoryQuery } from '../lib/job-history-query-fns';
import { jobHistoryKeys } from './job-history-keys';

/** The filters of one page; the range is resolved to instants when the request is made. */
export type JobHistoryFilters = Omit<JobHistoryQuery, 'window'> & { range: TimeRange | undefined };

/** A page of runs and how many match in all. */
export interface JobHistoryPage {
  rows: JobHistoryRow[];
  total: number;
}

/**
 * `GET /api/db/job_histories` with `Prefer: count=exact` (spec 2 section 7.6, ui-calls 3.9):
 * one page of runs and the total from Content-Range. A relative range such as `now-2d` is
 * sent as absolute ISO times, worked out now, so a refresh shows the runs up to this moment.
 */
export const getJobHistories = async (
  { range, ...filters }: JobHistoryFilters,
  signal?: AbortSignal,
): Promise<JobHistoryPage> => {
  const window = range ? timeRangeToBounds(range, new Date()) : undefined;
  const params = jobHistoryQueryParams({ ...filters, window });
  try {
    const response = await dbApi.get<unknown>('/job_histories', { ...countExact, params, signal });
    const { data, total } = withTotal(response);
    return { rows: jobHistoryRowsSchema.parse(data), total };
  } catch (error) {
    // The error panel shows what the server answered, not axios's "status code 500";
    // cancellations and parse errors go through as they are.
    if (isAxiosError(error) && error.response) throw new Error(getErrorMessage(error), { cause: error });
    throw error;
  }
};

export const jobHistoriesQueryOptions = (filters: JobHistoryFilters) =>
  queryOptions({
    queryKey: jobHistoryKeys.list({ ...filters, range: filters.range ? timeRangeKey(filters.range) : null }),
    queryFn: ({ signal }) => getJobHistories(filters, signal),
    // Runs are written all the time: read afresh on every visit, keep the last page on screen
    // while the next one loads.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useJobHistories = (filters: JobHistoryFilters) => useQuery(jobHistoriesQueryOptions(filters));
