import { teamMemberRowSchema, type TeamPerson } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { teamKeys } from './team-keys';

/**
 * `GET /api/db/team_members?team_id=eq.{id}&select=*,person_id(*)` (spec 2 section 7.1): the
 * team's members as people, by name. People removed from Lookout keep their membership row
 * but are no longer shown (the list counts them out too).
 */
export const getTeamMembers = async (teamId: string): Promise<TeamPerson[]> => {
  const { data } = await dbApi.get<unknown>('/team_members', {
    params: { team_id: `eq.${teamId}`, select: '*,person_id(*)' },
  });
  return z
    .array(teamMemberRowSchema)
    .parse(data)
    .map((member) => member.person_id)
    .filter((person) => !person.deleted_at)
    .sort((a, b) => a.name.localeCompare(b.name));
};

export const teamMembersQueryOptions = (teamId: string) =>
  queryOptions({ queryKey: teamKeys.members(teamId), queryFn: () => getTeamMembers(teamId) });

export const useTeamMembers = (teamId: string) => useQuery(teamMembersQueryOptions(teamId));
