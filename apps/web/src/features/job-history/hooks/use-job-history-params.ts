import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  applyJobHistoryParams,
  parseJobHistoryParams,
  type JobHistoryParams,
  type JobHistoryParamsUpdate,
} from '../lib/job-history-params';

/**
 * The job history's filters, page and order from the address, and a setter that merges
 * changes. Filter changes push a history entry (Back undoes them); paging and sorting replace
 * the current one.
 */
export function useJobHistoryParams(): [JobHistoryParams, (update: JobHistoryParamsUpdate) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parseJobHistoryParams(searchParams), [searchParams]);
  const update = useCallback(
    (change: JobHistoryParamsUpdate) => {
      const replace = Object.keys(change).every((key) => ['pageIndex', 'pageSize', 'sortBy', 'sortDesc'].includes(key));
      setSearchParams((previous) => applyJobHistoryParams(previous, change), { replace });
    },
    [setSearchParams],
  );
  return [params, update];
}
