import { messageResponseSchema } from '@lookout/contracts';
import type { MessageResponse } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { peopleApi } from '@/lib/api-client';
import { accessKeys } from './access-keys';

/** `DELETE /api/people/{id}`: removes the user with their credentials, sessions and roles. */
export const deleteUser = async (id: string): Promise<MessageResponse> => {
  const { data } = await peopleApi.delete<unknown>(`/${encodeURIComponent(id)}`);
  return messageResponseSchema.parse(data);
};

export const useDeleteUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.all }),
  });
};
