import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import type { TopologyFields } from './topology-document';

/** A row of `topologies_with_status` (ui-calls 3.10): the topology with its latest run. */
export type TopologyListRow = {
  id: string;
  name: string;
  namespace: string | null;
  labels: Record<string, string> | null;
  source: string;
  created_at: string;
  updated_at: string | null;
  created_by: { id: string; name: string; avatar: string | null } | null;
  agent: { id: string | null; name: string | null } | null;
  last_runtime: string | null;
  job_status: string | null;
  job_last_failed: string | null;
};

/** A `topologies` row as the form edits it. */
export type TopologySettingsRow = TopologyFields & { id: string; source: string; deleted_at: string | null };

const keys = {
  all: ['topology-settings'] as const,
  list: ['topology-settings', 'list'] as const,
  one: (id: string) => ['topology-settings', 'one', id] as const,
};

/** The list, newest first, at most 100 (ui-calls 3.10). */
export function useTopologiesList() {
  return useQuery({
    queryKey: keys.list,
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<TopologyListRow[]>('/topologies_with_status', {
          params: {
            select: '*,created_by(id,name,avatar)',
            deleted_at: 'is.null',
            order: 'created_at.desc',
            limit: '100',
          },
          signal,
        })
      ).data,
    staleTime: 0,
  });
}

/** `GET /api/db/topologies?id=eq.<id>`: the row, or null when absent or deleted. */
export function useTopologySettings(id: string | undefined) {
  return useQuery({
    queryKey: keys.one(id ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<TopologySettingsRow[]>('/topologies', { params: { id: `eq.${id}` }, signal });
      const row = data[0];
      return row && !row.deleted_at ? row : null;
    },
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** Creates (`POST`, with `created_by`) or updates (`PATCH ?id=eq.`) a topology; answers its id. */
export function useSaveTopology() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id?: string; fields: TopologyFields; createdBy: string }) => {
      const { data } = input.id
        ? await dbApi.patch<{ id: string }[]>('/topologies', input.fields, { params: { id: `eq.${input.id}` } })
        : await dbApi.post<{ id: string }[]>('/topologies', { ...input.fields, created_by: input.createdBy });
      const id = data[0]?.id;
      if (!id) throw new Error(`Topology '${input.fields.name}' was not found; it may have been deleted.`);
      return id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Soft delete: `PATCH ?id=eq.` with `deleted_at: "now()"`; its components go with it. */
export function useDeleteTopology() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await dbApi.patch('/topologies', { deleted_at: 'now()' }, { params: { id: `eq.${id}` } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
