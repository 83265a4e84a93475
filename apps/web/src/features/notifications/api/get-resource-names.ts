import type { SilenceResourceKind } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { searchPicker, type ResourceSearchKind } from '@/lib/resource-search';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/** A resource a silence can name, as the pages show it. */
export interface ResourceChoice {
  id: string;
  name: string;
  type: string | null;
}

/** Where each kind of resource is read (the relations of DATA_API_RELATIONS). */
const RELATIONS: Record<SilenceResourceKind, string> = {
  check: 'checks',
  canary: 'canaries',
  component: 'components',
  config: 'config_items',
};

/** The columns each relation has for a label: canaries have no type column. */
const SELECT: Record<SilenceResourceKind, string> = {
  check: 'id,name,type',
  canary: 'id,name',
  component: 'id,name,type',
  config: 'id,name,type',
};

const rowSchema = z.object({ id: z.string(), name: z.string().nullable(), type: z.string().nullable().optional() });

const toChoice = (row: { id: string; name: string | null; type?: string | null | undefined }): ResourceChoice => ({
  id: row.id,
  name: row.name ?? row.id,
  type: row.type ?? null,
});

/** How many resources the add form lists per kind. */
export const RESOURCE_CHOICES_LIMIT = 500;

/** The resource search's key for each kind it covers; canaries are not among its kinds. */
const SEARCH_KINDS: Partial<Record<SilenceResourceKind, ResourceSearchKind>> = {
  check: 'checks',
  component: 'components',
  config: 'configs',
};

/**
 * The resources of one kind a silence can be about, by name: checks, components and config
 * items through the resource search every picker uses (ui-calls section 3.16); canaries, which
 * it does not cover, through `GET /api/db/canaries?select=id,name&deleted_at=is.null&order=name.asc&limit=500`.
 */
export const getResourceChoices = (kind: SilenceResourceKind, signal?: AbortSignal): Promise<ResourceChoice[]> =>
  withServerMessage(async () => {
    const searchKind = SEARCH_KINDS[kind];
    if (searchKind) {
      const rows = await searchPicker(searchKind, '', { limit: RESOURCE_CHOICES_LIMIT, ...(signal ? { signal } : {}) });
      return rows.map(toChoice);
    }
    const { data } = await dbApi.get<unknown>(`/${RELATIONS[kind]}`, {
      params: { select: SELECT[kind], deleted_at: 'is.null', order: 'name.asc', limit: RESOURCE_CHOICES_LIMIT },
      signal,
    });
    return z.array(rowSchema).parse(data).map(toChoice);
  });

export const useResourceChoices = (kind: SilenceResourceKind) =>
  useQuery(
    queryOptions({
      queryKey: notificationKeys.resourceChoices(kind),
      queryFn: ({ signal }) => getResourceChoices(kind, signal),
      staleTime: 60_000,
    }),
  );

/**
 * `GET /api/db/<relation>?select=…&id=in.(…)`: the names of the resources a page of silences
 * names, deleted ones included (a silence can outlive its resource).
 */
export const getResourceNames = (
  kind: SilenceResourceKind,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<ResourceChoice[]> =>
  withServerMessage(async () => {
    if (ids.length === 0) return [];
    const { data } = await dbApi.get<unknown>(`/${RELATIONS[kind]}`, {
      params: { select: SELECT[kind], id: `in.(${ids.join(',')})` },
      signal,
    });
    return z.array(rowSchema).parse(data).map(toChoice);
  });

// Module level, so the query keeps its selected Map between renders (an inline function would
// give a new Map, and new table columns, on every render).
const byId = (rows: ResourceChoice[]) => new Map(rows.map((row) => [row.id, row]));

/** The names of `ids`, by id; unreadable (no access, a removed area) leaves them unnamed. */
export const useResourceNames = (kind: SilenceResourceKind, ids: readonly string[]) =>
  useQuery({
    queryKey: notificationKeys.resources(kind, ids),
    queryFn: ({ signal }) => getResourceNames(kind, ids, signal),
    enabled: ids.length > 0,
    staleTime: 60_000,
    retry: false,
    select: byId,
  });
