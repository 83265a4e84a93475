import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { applyHealthParams, parseHealthParams, type HealthParams, type HealthParamsUpdate } from '../lib/health-params';

/**
 * The dashboard's state in the address (spec 2 section 2.2) and a setter that merges changes.
 * Filter changes push a history entry (Back undoes them); `replace` is for changes that are
 * not places to come back to (paging, sorting, closing the drawer).
 */
export function useHealthParams(): [
  HealthParams,
  (update: HealthParamsUpdate, options?: { replace?: boolean }) => void,
] {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parseHealthParams(searchParams), [searchParams]);
  const update = useCallback(
    (change: HealthParamsUpdate, options?: { replace?: boolean }) =>
      setSearchParams((previous) => applyHealthParams(previous, change), { replace: options?.replace ?? false }),
    [setSearchParams],
  );
  return [params, update];
}
