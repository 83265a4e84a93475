import { teamRowSchema, type TeamRow } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import type { TeamSpec } from '../lib/team-spec-fns';
import { teamKeys } from './team-keys';
import { expectWrittenRows } from './written-rows';

/** What the form writes: the fields of spec 2 section 3.1 (name, spec, icon). */
export interface TeamFields {
  name: string;
  icon: string | null;
  spec: TeamSpec | null;
}

export type SaveTeamInput =
  | { kind: 'create'; fields: TeamFields; /** The signed-in user. */ createdBy: string }
  | { kind: 'update'; id: string; fields: TeamFields };

/**
 * `POST /api/db/teams` with the fields and `created_by`, or `PATCH /api/db/teams?id=eq.{id}`
 * with the changed fields (ui-calls section 3.10). The server trims the name and refuses an
 * empty or taken one; the written row comes back.
 */
export const saveTeam = async (input: SaveTeamInput): Promise<TeamRow> => {
  const { data } =
    input.kind === 'create'
      ? await dbApi.post<unknown>('/teams', { ...input.fields, created_by: input.createdBy })
      : await dbApi.patch<unknown>('/teams', input.fields, { params: { id: `eq.${input.id}` } });
  const [row] = z.array(teamRowSchema).parse(expectWrittenRows(data, input.fields.name));
  return row!;
};

export const useSaveTeam = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTeam,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
};
