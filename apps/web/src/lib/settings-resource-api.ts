import { SETTINGS_CREATED_BY_SELECT, SETTINGS_LIST_LIMIT } from '@lookout/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';

/**
 * The calls of one generic settings resource (ui-calls 3.10): the live rows newest first (at
 * most 100) from its list relation, one row by id, create with `created_by` or update by id,
 * and soft delete with `deleted_at: now()`. Each settings page that edits such a table gets its
 * hooks from here rather than writing the same four calls again.
 */
export function settingsResourceApi<
  ListRow,
  Row extends { deleted_at: string | null },
  Fields extends { name: string },
>(options: {
  /** Query-key root; one per resource. */
  key: string;
  /** The table written and read by id, e.g. `topologies`. */
  table: string;
  /** The relation the list reads, e.g. `topologies_with_status`; the table when absent. */
  listRelation?: string;
  /** `select` of the list; the row with its author when absent. */
  listSelect?: string;
  /** `select` of the single-row read; every column when absent. */
  rowSelect?: string;
  /** Names the resource in the error when a write matched no row, e.g. `Topology`. */
  label: string;
}) {
  const keys = {
    all: [options.key] as const,
    list: [options.key, 'list'] as const,
    one: (id: string) => [options.key, 'one', id] as const,
  };

  function useList() {
    return useQuery({
      queryKey: keys.list,
      queryFn: async ({ signal }) =>
        (
          await dbApi.get<ListRow[]>(`/${options.listRelation ?? options.table}`, {
            params: {
              select: options.listSelect ?? `*,${SETTINGS_CREATED_BY_SELECT}`,
              deleted_at: 'is.null',
              order: 'created_at.desc',
              limit: String(SETTINGS_LIST_LIMIT),
            },
            signal,
          })
        ).data,
      staleTime: 0,
    });
  }

  /** One row, or null when absent or deleted. */
  function useOne(id: string | undefined) {
    return useQuery({
      queryKey: keys.one(id ?? ''),
      queryFn: async ({ signal }) => {
        const params: Record<string, string> = { id: `eq.${id}` };
        if (options.rowSelect) params.select = options.rowSelect;
        const { data } = await dbApi.get<Row[]>(`/${options.table}`, { params, signal });
        const row = data[0];
        return row && !row.deleted_at ? row : null;
      },
      enabled: id !== undefined,
      staleTime: 0,
    });
  }

  /** Create (`POST` with `created_by`) or update (`PATCH ?id=eq.`); answers the row's id. */
  function useSave() {
    const queryClient = useQueryClient();
    return useMutation({
      mutationFn: async (input: { id?: string; fields: Fields; createdBy: string }) => {
        const path = `/${options.table}`;
        const { data } = input.id
          ? await dbApi.patch<{ id: string }[]>(path, input.fields, { params: { id: `eq.${input.id}` } })
          : await dbApi.post<{ id: string }[]>(path, { ...input.fields, created_by: input.createdBy });
        const id = data[0]?.id;
        if (!id) throw new Error(`${options.label} '${input.fields.name}' was not found; it may have been deleted.`);
        return id;
      },
      onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
    });
  }

  /** Soft delete: `PATCH ?id=eq.` with `deleted_at: "now()"`. */
  function useDelete() {
    const queryClient = useQueryClient();
    return useMutation({
      mutationFn: async (id: string) => {
        await dbApi.patch(`/${options.table}`, { deleted_at: 'now()' }, { params: { id: `eq.${id}` } });
      },
      onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
    });
  }

  return { keys, useList, useOne, useSave, useDelete };
}
