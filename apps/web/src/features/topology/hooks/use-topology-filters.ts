import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readFilters, writeFilters, type TopologyFilters } from '../lib/topology-params';

/** The filter bar's state in the address; a change replaces the history entry. */
export function useTopologyFilters(): [TopologyFilters, (update: Partial<TopologyFilters>) => void] {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => readFilters(search), [search]);
  const update = useCallback(
    (change: Partial<TopologyFilters>) => setSearch((previous) => writeFilters(previous, change), { replace: true }),
    [setSearch],
  );
  return [filters, update];
}
