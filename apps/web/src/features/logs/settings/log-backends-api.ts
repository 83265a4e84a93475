import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';

/** A `logging_backends` row (spec 2 section 3: id, name, labels, spec, source). */
export type LogBackendRow = {
  id: string;
  name: string;
  labels: Record<string, string> | null;
  spec: Record<string, unknown>;
  source: string;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
  created_by: { id: string; name: string; avatar: string | null } | null;
};

export type LogBackendFields = { name: string; labels: Record<string, string>; spec: Record<string, unknown> };

const keys = {
  all: ['log-backends'] as const,
  list: ['log-backends', 'list'] as const,
  one: (id: string) => ['log-backends', 'one', id] as const,
};

/** The live backends, newest first (ui-calls 3.10, generic settings resource). */
export function useLogBackends() {
  return useQuery({
    queryKey: keys.list,
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<LogBackendRow[]>('/logging_backends', {
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

/** One backend, or null when absent or deleted. */
export function useLogBackend(id: string | undefined) {
  return useQuery({
    queryKey: keys.one(id ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<LogBackendRow[]>('/logging_backends', {
        params: { id: `eq.${id}`, select: '*,created_by(id,name,avatar)' },
        signal,
      });
      const row = data[0];
      return row && !row.deleted_at ? row : null;
    },
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** Add (`POST` with `created_by`) or Update (`PATCH ?id=eq.`). */
export function useSaveLogBackend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id?: string; fields: LogBackendFields; createdBy: string }) => {
      const { data } = input.id
        ? await dbApi.patch<{ id: string }[]>('/logging_backends', input.fields, { params: { id: `eq.${input.id}` } })
        : await dbApi.post<{ id: string }[]>('/logging_backends', { ...input.fields, created_by: input.createdBy });
      const id = data[0]?.id;
      if (!id) throw new Error(`Log backend '${input.fields.name}' was not found; it may have been deleted.`);
      return id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Soft delete: `deleted_at: "now()"`. */
export function useDeleteLogBackend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await dbApi.patch('/logging_backends', { deleted_at: 'now()' }, { params: { id: `eq.${id}` } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
