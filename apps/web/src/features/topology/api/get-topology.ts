import { SLOW_STALE_TIME_MS } from '@lookout/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { canaryApi, dbApi } from '@/lib/api-client';
import type { TopologyResponse } from '../lib/topology-types';
import { topologyKeys } from './topology-keys';

/** `GET /api/canary/api/topology` (ui-calls 3.4). */
export async function getTopology(query: Record<string, string>, signal?: AbortSignal): Promise<TopologyResponse> {
  const { data } = await canaryApi.get<TopologyResponse>('/api/topology', { params: query, signal });
  return data;
}

/**
 * The cards of a page. `refetchMs` is the page's refresh rate, so a health change shows
 * without a reload; the previous answer stays on screen while a filter change loads.
 */
export function useTopology(query: Record<string, string>, refetchMs?: number) {
  return useQuery({
    queryKey: topologyKeys.fetch(query),
    queryFn: ({ signal }) => getTopology(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: refetchMs ?? false,
    // The spec's five minutes for topology (spec 1 section 9); live health comes from the
    // refresh rate and the refresh button.
    staleTime: SLOW_STALE_TIME_MS,
  });
}

/** One component (the single-card and public views): the first of the fetch by id, or null. */
export function useComponent(id: string) {
  return useQuery({
    queryKey: topologyKeys.fetch({ id }),
    queryFn: ({ signal }) => getTopology({ id }, signal),
    select: (data) => data.components[0] ?? null,
    staleTime: 0,
  });
}

/** A row of `component_names`: the breadcrumb and link names. */
export type ComponentName = { id: string; name: string; icon: string | null; type: string | null; path: string | null };

/** `GET /api/db/component_names?id=eq.<id>`. */
export function useComponentName(id: string | undefined) {
  return useQuery({
    queryKey: topologyKeys.name(id ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<ComponentName[]>('/component_names', { params: { id: `eq.${id}` }, signal });
      return data[0] ?? null;
    },
    enabled: Boolean(id),
    staleTime: SLOW_STALE_TIME_MS,
  });
}

/** `GET /api/db/component_labels`: the label filter's options. */
export function useComponentLabels() {
  return useQuery({
    queryKey: topologyKeys.labels(),
    queryFn: async ({ signal }) =>
      (await dbApi.get<{ key: string; value: string }[]>('/component_labels', { signal })).data,
    staleTime: SLOW_STALE_TIME_MS,
  });
}

/** `GET /api/db/agents?select=id,name`: the agent filter's options. */
export function useAgentOptions() {
  return useQuery({
    queryKey: topologyKeys.agents(),
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<{ id: string; name: string }[]>('/agents', {
          params: { select: 'id,name', deleted_at: 'is.null', order: 'name.asc' },
          signal,
        })
      ).data,
    staleTime: SLOW_STALE_TIME_MS,
  });
}
