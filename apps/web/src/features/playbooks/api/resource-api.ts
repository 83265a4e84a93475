import type { PlaybookSelector } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { searchPicker, type ResourceSearchKind, type ResourceSearchSelector } from '@/lib/resource-search';
import { playbookKeys } from './playbook-keys';

/** The kinds of resource a playbook runs on (spec 2 section 2.4). */
export const RESOURCE_KINDS = ['config', 'component', 'check'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The key of each kind in a playbook spec and in the resource search's body alike. */
export const SEARCH_KINDS: Record<ResourceKind, ResourceSearchKind> = {
  config: 'configs',
  component: 'components',
  check: 'checks',
};
/** Options shown per search: enough to find one by name, few enough for a select. */
export const RESOURCE_SEARCH_LIMIT = 50;

export interface ResourceOption {
  id: string;
  name: string | null;
  type: string | null;
}

/**
 * A playbook selector as a search selector: `type` joins `types`; `tagSelector` has no search
 * field, so it is left out and the server's run check still refuses a resource it excludes.
 */
export function toSearchSelector(selector: PlaybookSelector): ResourceSearchSelector {
  const { type, tagSelector: _tags, types, ...rest } = selector;
  const allTypes = [...(types ?? []), ...(type ? [type] : [])];
  return { ...rest, ...(allTypes.length > 0 ? { types: allTypes } : {}) };
}

/**
 * Resources of a kind for the run modal's selector and resource parameters, through
 * `POST /api/resources/search` with the playbook's selectors for that kind (or a parameter's
 * `properties.filter`) and the typed text as `search`.
 */
export const searchResources = async (
  kind: ResourceKind,
  text: string,
  selectors?: readonly PlaybookSelector[],
  signal?: AbortSignal,
): Promise<ResourceOption[]> => {
  const rows = await searchPicker(SEARCH_KINDS[kind], text, {
    selectors: selectors?.map(toSearchSelector),
    limit: RESOURCE_SEARCH_LIMIT,
    ...(signal ? { signal } : {}),
  });
  return rows.map(({ id, name, type }) => ({ id, name, type }));
};

export const useResourceSearch = (kind: ResourceKind, text: string, selectors?: readonly PlaybookSelector[]) =>
  useQuery({
    queryKey: [...playbookKeys.resources(kind, text.trim()), selectors ?? null],
    queryFn: ({ signal }) => searchResources(kind, text, selectors, signal),
  });

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
