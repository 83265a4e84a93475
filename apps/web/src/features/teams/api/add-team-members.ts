import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { teamKeys } from './team-keys';

export interface AddTeamMembersInput {
  teamId: string;
  personIds: readonly string[];
}

/**
 * `POST /api/db/team_members` with a JSON array `[{team_id, person_id}, ...]` (spec 2 section
 * 7.1): one statement, so either every chosen user joins or, when one cannot (removed
 * meanwhile, already a member), none does and the server says why.
 */
export const addTeamMembers = async ({ teamId, personIds }: AddTeamMembersInput): Promise<void> => {
  await dbApi.post(
    '/team_members',
    personIds.map((personId) => ({ team_id: teamId, person_id: personId })),
  );
};

export const useAddTeamMembers = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addTeamMembers,
    // The members and the list's member count.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
};
