import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { teamKeys } from './team-keys';
import { expectWrittenRows } from './written-rows';

/**
 * Soft delete (spec 2 section 4): `PATCH /api/db/teams?id=eq.{id}` with `deleted_at: "now()"`.
 * The team leaves the lists; its membership rows stay for the record.
 */
export const deleteTeam = async ({ id, name }: { id: string; name: string }): Promise<void> => {
  const { data } = await dbApi.patch<unknown>('/teams', { deleted_at: 'now()' }, { params: { id: `eq.${id}` } });
  expectWrittenRows(data, name);
};

export const useDeleteTeam = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTeam,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
};
