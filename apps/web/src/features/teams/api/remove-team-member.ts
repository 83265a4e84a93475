import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { teamKeys } from './team-keys';

export interface RemoveTeamMemberInput {
  teamId: string;
  personId: string;
}

/**
 * `DELETE /api/db/team_members?team_id=eq.{team}&person_id=eq.{person}`. The original sends
 * only `person_id=eq.{person}`, which takes the person out of every team; naming the team
 * too removes them from this one alone (docs/teams.md). The server still answers the
 * original's call.
 */
export const removeTeamMember = async ({ teamId, personId }: RemoveTeamMemberInput): Promise<void> => {
  // No row removed means someone else already did: the person is not a member, as asked.
  await dbApi.delete('/team_members', { params: { team_id: `eq.${teamId}`, person_id: `eq.${personId}` } });
};

export const useRemoveTeamMember = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTeamMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
};
