import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { applyCatalogParams, parseCatalogParams, type CatalogParams } from '../lib/catalog-params';

/** The catalog list's filters and order from the address, and a setter that merges changes. */
export function useCatalogParams(): [CatalogParams, (update: Partial<CatalogParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parseCatalogParams(search), [search]);
  const update = useCallback(
    (change: Partial<CatalogParams>) => setSearch((current) => applyCatalogParams(current, change)),
    [setSearch],
  );
  return [params, update];
}
