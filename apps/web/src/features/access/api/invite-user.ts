import { inviteUserResponseSchema } from '@lookout/contracts';
import type { InviteUserBody, InviteUserResponse } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authApi } from '@/lib/api-client';
import { accessKeys } from './access-keys';

/**
 * `POST /api/auth/invite_user`: creates the user with the role and answers with a one-time
 * link to set a password (also emailed, or kept in the email outbox without SMTP); for an
 * email that already has a user it sets that user's role instead (`invited: false`).
 */
export const inviteUser = async (body: InviteUserBody): Promise<InviteUserResponse> => {
  const { data } = await authApi.post<unknown>('/invite_user', body);
  return inviteUserResponseSchema.parse(data);
};

export const useInviteUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.all }),
  });
};
