import { teamRowSchema, type TeamRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { teamKeys } from './team-keys';

/**
 * `GET /api/db/teams?id=eq.{id}` (spec 2 section 7.1): the team the form edits, or null when
 * no team has that id. A soft-deleted team is not found either: it is gone from the console.
 */
export const getTeam = async (id: string): Promise<TeamRow | null> => {
  const { data } = await dbApi.get<unknown>('/teams', { params: { id: `eq.${id}` } });
  const [row] = z.array(teamRowSchema).parse(data);
  return row && row.deleted_at === null ? row : null;
};

export const teamQueryOptions = (id: string) =>
  queryOptions({ queryKey: teamKeys.detail(id), queryFn: () => getTeam(id) });

export const useTeam = (id: string | undefined) =>
  useQuery({ ...teamQueryOptions(id ?? ''), enabled: id !== undefined });
