import { PLAYBOOK_DETAIL_SELECT, PLAYBOOK_NAMES_SELECT, type PlaybookSpec } from '@lookout/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { playbookKeys } from './playbook-keys';

const playbookNameSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  title: z.string().nullish(),
  icon: z.string().nullish(),
  category: z.string().nullish(),
  description: z.string().nullish(),
});
export type PlaybookNameRow = z.infer<typeof playbookNameSchema>;

const playbookRowSchema = playbookNameSchema.extend({
  source: z.string().nullish(),
  spec: z.record(z.string(), z.unknown()).nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});
export type PlaybookRow = z.infer<typeof playbookRowSchema>;

/** `GET /api/db/playbook_names?select=id,name,title,icon,category&order=title.asc` (ui-calls 3.7). */
export const getPlaybookNames = async (): Promise<PlaybookNameRow[]> => {
  const { data } = await dbApi.get<unknown>('/playbook_names', {
    params: { select: PLAYBOOK_NAMES_SELECT, order: 'title.asc' },
  });
  return z.array(playbookNameSchema).parse(data);
};

export const playbookNamesQueryOptions = () =>
  queryOptions({ queryKey: playbookKeys.names(), queryFn: getPlaybookNames });

/** The playbooks' cards and the run list's playbook filter. */
export const usePlaybookNames = () => useQuery(playbookNamesQueryOptions());

/** `GET /api/db/playbooks?id=eq.{id}&select=*,created_by(...)`: the spec editor's row; null when gone. */
export const getPlaybook = async (id: string): Promise<PlaybookRow | null> => {
  const { data } = await dbApi.get<unknown>('/playbooks', {
    params: { id: `eq.${id}`, select: PLAYBOOK_DETAIL_SELECT },
  });
  return z.array(playbookRowSchema).parse(data)[0] ?? null;
};

export const usePlaybook = (id: string | undefined) =>
  useQuery({
    queryKey: playbookKeys.detail(id ?? ''),
    queryFn: () => getPlaybook(id ?? ''),
    enabled: id !== undefined,
    // The editor must start from what is stored, not a copy from minutes ago.
    staleTime: 0,
  });

/** What the playbook form writes. */
export interface PlaybookInput {
  title: string;
  spec: PlaybookSpec;
}

/**
 * The row's columns besides the spec, as the original writes them: category, description and
 * icon copied from the spec, so the cards show what the spec says.
 */
function columnsOf({ title, spec }: PlaybookInput) {
  return {
    title,
    spec,
    category: spec.category ?? null,
    description: spec.description ?? null,
    icon: spec.icon ?? null,
  };
}

/**
 * `POST /api/db/playbooks` `{title, name (= title), source: 'UI', spec, ...}` or
 * `PATCH /api/db/playbooks?id=eq.{id}` (ui-calls 3.7).
 */
export const savePlaybook = async ({ id, input }: { id: string | undefined; input: PlaybookInput }) => {
  if (id === undefined) {
    await dbApi.post('/playbooks', { ...columnsOf(input), name: input.title, source: 'UI' });
  } else {
    await dbApi.patch('/playbooks', { ...columnsOf(input), id }, { params: { id: `eq.${id}` } });
  }
};

/** `PATCH /api/db/playbooks?id=eq.{id}` `{deleted_at: 'now()'}`: a soft delete. */
export const deletePlaybook = async (id: string) => {
  await dbApi.patch('/playbooks', { deleted_at: 'now()' }, { params: { id: `eq.${id}` } });
};

export const useSavePlaybook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePlaybook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: playbookKeys.all }),
  });
};

export const useDeletePlaybook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlaybook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: playbookKeys.all }),
  });
};
