import { updatePersonResponseSchema } from '@lookout/contracts';
import type { UpdatePersonBody, UpdatePersonResponse } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { peopleApi } from '@/lib/api-client';
import { accessKeys } from './access-keys';

/** `POST /api/people/update`: names, email, the form's role and (optionally) the state. */
export const updateUser = async (body: UpdatePersonBody): Promise<UpdatePersonResponse> => {
  const { data } = await peopleApi.post<unknown>('/update', body);
  return updatePersonResponseSchema.parse(data);
};

export const useUpdateUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    // Also refreshes the signed-in user's own roles, in case they edited themselves.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.all }),
  });
};
