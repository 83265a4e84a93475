import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { connectionKeys } from './connection-keys';
import { expectWrittenRow } from './written-row';

export interface DeleteConnectionInput {
  id: string;
  name: string;
}

/** Soft delete: `PATCH /api/db/connections?id=eq.<id>` with `{deleted_at: "now()"}` (ui-calls 3.12). */
export const deleteConnection = async ({ id, name }: DeleteConnectionInput): Promise<void> => {
  const { data } = await dbApi.patch<unknown>('/connections', { deleted_at: 'now()' }, { params: { id: `eq.${id}` } });
  expectWrittenRow(data, name);
};

export const useDeleteConnection = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConnection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
  });
};
