import { teamPersonSchema, type TeamPerson } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { teamKeys } from './team-keys';

/**
 * `GET /api/db/people?select=id,name,email,avatar&deleted_at=is.null&type=is.null&order=name.asc`:
 * the users who can join a team. The original asks for every person (`select=*`); agents,
 * API tokens, the system person and removed users are left out here, as none of them can
 * answer for a team.
 */
export const getPeople = async (): Promise<TeamPerson[]> => {
  const { data } = await dbApi.get<unknown>('/people', {
    params: { select: 'id,name,email,avatar', deleted_at: 'is.null', type: 'is.null', order: 'name.asc' },
  });
  return z.array(teamPersonSchema).parse(data);
};

export const peopleQueryOptions = () => queryOptions({ queryKey: teamKeys.people(), queryFn: getPeople });

export const usePeople = (enabled: boolean) => useQuery({ ...peopleQueryOptions(), enabled });
