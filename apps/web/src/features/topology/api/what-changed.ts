import { TOPOLOGY_WHAT_CHANGED_PATH, type WhatChangedResponse } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, API_BASE_PATH } from '@/lib/api-client';
import { topologyKeys } from './topology-keys';

/** The path relative to the /api client. */
const path = TOPOLOGY_WHAT_CHANGED_PATH.slice(API_BASE_PATH.length);

/**
 * `GET /api/topology/what-changed/{id}`: the ranked config changes and check transitions of the
 * hour before the component turned unhealthy; asked only while the panel is open.
 */
export const useWhatChanged = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: topologyKeys.panel('what-changed', id),
    queryFn: async ({ signal }) =>
      (await api.get<WhatChangedResponse>(`${path}/${encodeURIComponent(id)}`, { signal })).data,
    enabled: enabled && Boolean(id),
    staleTime: 0,
  });
