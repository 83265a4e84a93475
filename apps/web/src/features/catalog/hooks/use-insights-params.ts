import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { applyInsightsParams, parseInsightsParams, type InsightsParams } from '../lib/insights-params';

/** The insights filters, page and order from the address, and a setter that merges changes. */
export function useInsightsParams(): [InsightsParams, (update: Partial<InsightsParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parseInsightsParams(search), [search]);
  const update = useCallback(
    (change: Partial<InsightsParams>) =>
      setSearch((current) => applyInsightsParams(current, change), {
        // Paging and sorting replace the history entry; filter changes push one.
        replace: Object.keys(change).every((key) => ['pageIndex', 'pageSize', 'sortBy', 'sortOrder'].includes(key)),
      }),
    [setSearch],
  );
  return [params, update];
}
