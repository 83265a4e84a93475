import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { playbookKeys } from './playbook-keys';

/** The kinds of resource a playbook runs on (spec 2 section 2.4), and the table each lives in. */
export const RESOURCE_KINDS = ['config', 'component', 'check'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

const TABLES: Record<ResourceKind, string> = { config: 'config_items', component: 'components', check: 'checks' };
/** Options shown per search: enough to find one by name, few enough for a select. */
export const RESOURCE_SEARCH_LIMIT = 50;

const resourceSchema = z.looseObject({ id: z.string(), name: z.string().nullish(), type: z.string().nullish() });
export type ResourceOption = z.infer<typeof resourceSchema>;

/** PostgREST `ilike` treats `*` as its wildcard; strip characters that would break the filter. */
const searchPattern = (text: string) => `*${text.replace(/[*,()]/g, ' ').trim()}*`;

/**
 * Resources of a kind by name, for the run modal's selector and resource parameters:
 * `GET /api/db/{table}?select=id,name,type&deleted_at=is.null&name=ilike.*text*&order=name.asc`.
 */
export const searchResources = async (kind: ResourceKind, text: string): Promise<ResourceOption[]> => {
  const params: Record<string, string | number> = {
    select: 'id,name,type',
    deleted_at: 'is.null',
    order: 'name.asc',
    limit: RESOURCE_SEARCH_LIMIT,
  };
  if (text.trim()) params.name = `ilike.${searchPattern(text)}`;
  const { data } = await dbApi.get<unknown>(`/${TABLES[kind]}`, { params });
  return z.array(resourceSchema).parse(data);
};

export const useResourceSearch = (kind: ResourceKind, text: string) =>
  useQuery({ queryKey: playbookKeys.resources(kind, text.trim()), queryFn: () => searchResources(kind, text) });

const namedSchema = z.looseObject({ id: z.string(), name: z.string().nullish() });

/**
 * Teams or people for a team / people parameter: `GET /api/db/teams?deleted_at=is.null&order=name.asc`
 * (people have no soft delete).
 */
export const usePeopleOrTeams = (table: 'teams' | 'people') =>
  useQuery({
    queryKey: playbookKeys.resources(table, ''),
    queryFn: async () => {
      const { data } = await dbApi.get<unknown>(`/${table}`, {
        params: { select: 'id,name', order: 'name.asc', ...(table === 'teams' ? { deleted_at: 'is.null' } : {}) },
      });
      return z.array(namedSchema).parse(data);
    },
  });
