import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { HISTORY_PARAMS, parseSendHistoryParams, type SendHistoryFilters } from '../lib/send-history-params';

export type SendHistoryUpdate = Partial<SendHistoryFilters> & { id?: string | null };

/**
 * The send history's filters, page and opened row (`id`, spec 3 section 2.10) from the
 * address. A filter change goes back to the first page and adds a history entry; paging and
 * opening or closing a row replace the current one.
 */
export function useSendHistoryParams(): [
  SendHistoryFilters & { id: string | undefined },
  (u: SendHistoryUpdate) => void,
] {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(
    () => ({ ...parseSendHistoryParams(searchParams), id: searchParams.get(HISTORY_PARAMS.id) ?? undefined }),
    [searchParams],
  );
  const update = useCallback(
    (change: SendHistoryUpdate) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | number | null | undefined) => {
            if (value === undefined) return;
            if (value === null || value === '') next.delete(key);
            else next.set(key, String(value));
          };
          const filterChanged = change.status !== undefined || change.resourceType !== undefined;
          set(HISTORY_PARAMS.status, change.status);
          set(HISTORY_PARAMS.resourceType, change.resourceType);
          set(HISTORY_PARAMS.pageSize, change.pageSize);
          set(HISTORY_PARAMS.pageIndex, filterChanged ? null : change.pageIndex === 0 ? null : change.pageIndex);
          set(HISTORY_PARAMS.id, change.id);
          return next;
        },
        { replace: change.status === undefined && change.resourceType === undefined },
      );
    },
    [setSearchParams],
  );
  return [params, update];
}
