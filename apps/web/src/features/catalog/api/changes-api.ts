import { catalogChangesResponseSchema, type CatalogChangesRequest } from '@lookout/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { catalogApi, dbApi } from '@/lib/api-client';
import { catalogKeys } from './catalog-api';

/**
 * A page of changes: `POST /api/catalog/changes` (ui-calls 3.5), sorted and paged by the
 * server. The previous page stays on screen while the next one loads.
 */
export function useCatalogChanges(body: CatalogChangesRequest, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.changes(body),
    queryFn: async ({ signal }) =>
      catalogChangesResponseSchema.parse((await catalogApi.post<unknown>('/changes', body, { signal })).data),
    enabled,
    // Relative windows ('now-7d') move: read afresh on each visit.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** The option lists of the change filters: change_types, config_types, config_tags. */
export function useChangeLookups() {
  const lookup = <T>(name: string) =>
    // eslint-disable-next-line react-hooks/rules-of-hooks -- a fixed list of calls, always in this order
    useQuery({
      queryKey: catalogKeys.lookup(name),
      queryFn: async ({ signal }) => (await dbApi.get<T[]>(`/${name}`, { signal })).data,
      staleTime: 60_000,
    });
  return {
    changeTypes: lookup<{ change_type: string }>('change_types'),
    configTypes: lookup<{ type: string }>('config_types'),
    tags: lookup<{ key: string; value: string }>('config_tags'),
  };
}
