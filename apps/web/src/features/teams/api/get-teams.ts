import { TEAM_CREATED_BY_SELECT, teamListRowSchema, type TeamListRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { teamKeys } from './team-keys';

/** spec 2 section 9: the generic settings lists read at most 100 rows. */
export const TEAMS_LIST_LIMIT = 100;

/**
 * `GET /api/db/teams_with_status?select=*,created_by(id,name,avatar,email)&deleted_at=is.null
 * &order=created_at.desc&limit=100` (spec 2 section 7.5, ui-calls section 3.10): the live
 * teams, newest first, with their author and number of members.
 */
export const getTeams = async (): Promise<TeamListRow[]> => {
  const { data } = await dbApi.get<unknown>('/teams_with_status', {
    params: {
      select: `*,${TEAM_CREATED_BY_SELECT}`,
      deleted_at: 'is.null',
      order: 'created_at.desc',
      limit: TEAMS_LIST_LIMIT,
    },
  });
  return z.array(teamListRowSchema).parse(data);
};

export const teamsQueryOptions = () => queryOptions({ queryKey: teamKeys.list(), queryFn: getTeams });

export const useTeams = () => useQuery(teamsQueryOptions());
