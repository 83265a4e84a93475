import { checkSummaryResponseSchema, type CheckSummaryResponse } from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TimeRange } from '@/components/ui/time-range-picker';
import { canaryApi } from '@/lib/api-client';
import { healthKeys } from './health-keys';
import { summaryRangeKey, summaryRangeParams } from './summary-range';

export interface CheckSummaryOptions {
  range: TimeRange;
  /** Only this check (the drawer's figures for its own time range). */
  checkId?: string | undefined;
}

/**
 * `GET /api/canary/api/summary`: every live check with its status, uptime and latency over the
 * range (spec 2 section 7.2). The request is abortable: React Query's signal cancels it when
 * the range changes or the page goes away.
 */
export const getCheckSummary = async (
  { range, checkId }: CheckSummaryOptions,
  signal?: AbortSignal,
): Promise<CheckSummaryResponse> => {
  const params = { ...summaryRangeParams(range, new Date()), ...(checkId ? { check_id: checkId } : {}) };
  const { data } = await canaryApi.get<unknown>('/api/summary', { params, signal });
  return checkSummaryResponseSchema.parse(data);
};

export const checkSummaryQueryOptions = (options: CheckSummaryOptions, refetchInterval: number | false = false) =>
  queryOptions({
    queryKey: healthKeys.summary(summaryRangeKey(options.range), options.checkId),
    queryFn: ({ signal }) => getCheckSummary(options, signal),
    // A new range keeps the old rows on screen until its answer arrives, instead of a skeleton.
    placeholderData: keepPreviousData,
    refetchInterval,
    // The dashboard is live: a refetch on focus shows what happened while away.
    staleTime: 0,
  });

export const useCheckSummary = (options: CheckSummaryOptions, refetchInterval: number | false = false) =>
  useQuery(checkSummaryQueryOptions(options, refetchInterval));
