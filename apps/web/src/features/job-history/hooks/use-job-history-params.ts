import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { applyTimeRangeToParams, type TimeRange } from '@/components/ui/time-range-picker';
import {
  applyJobHistoryParams,
  parseJobHistoryParams,
  type JobHistoryParams,
  type JobHistoryParamsUpdate,
} from '../lib/job-history-params';

/** A change of the filters, page or order, and of the time range (its own parameters). */
export type JobHistoryUpdate = JobHistoryParamsUpdate & { range?: TimeRange };

const QUIET_KEYS: ReadonlySet<string> = new Set(['pageIndex', 'pageSize', 'sortBy', 'sortDesc']);

/**
 * The job history's filters, page and order from the address, and a setter that merges
 * changes (the time range too, kept in the shared picker's parameters). Filter changes push
 * a history entry (Back undoes them) and go back to the first page; paging and sorting
 * replace the current entry.
 */
export function useJobHistoryParams(): [JobHistoryParams, (update: JobHistoryUpdate) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parseJobHistoryParams(searchParams), [searchParams]);
  // Several updates can come in one event (a new order, then the table's page reset); each
  // must build on the one before, not on the address of the last render, or it undoes it.
  const pending = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [searchParams]);
  const update = useCallback(
    ({ range, ...change }: JobHistoryUpdate) => {
      const base = pending.current ?? searchParams;
      const next =
        range === undefined
          ? applyJobHistoryParams(base, change)
          : applyJobHistoryParams(applyTimeRangeToParams(base, range), { ...change, pageIndex: 0 });
      pending.current = next;
      const quiet = range === undefined && Object.keys(change).every((key) => QUIET_KEYS.has(key));
      setSearchParams(next, { replace: quiet });
    },
    [searchParams, setSearchParams],
  );
  return [params, update];
}
