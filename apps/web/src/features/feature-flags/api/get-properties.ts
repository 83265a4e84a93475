import { propertiesResponseSchema } from '@lookout/contracts';
import type { Property } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { featureFlagKeys } from './feature-flag-keys';

/**
 * `GET /api/properties`: the configuration's properties (source `local`, read-only) then the
 * database's, each with description, author and timestamps. Feature flags are the
 * `{feature}.disable` entries among them.
 */
export const getProperties = async (): Promise<Property[]> => {
  const { data } = await api.get<unknown>('/properties');
  return propertiesResponseSchema.parse(data);
};

/**
 * Flags load once at start and are refreshed on purpose (spec 1, section 4): after a change on
 * the Feature Flags page, or with its refresh button. Never stale by themselves, so the route
 * table and menus do not shift under the user while they work.
 */
export const propertiesQueryOptions = () =>
  queryOptions({
    queryKey: featureFlagKeys.properties(),
    queryFn: getProperties,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

export const useProperties = () => useQuery(propertiesQueryOptions());
