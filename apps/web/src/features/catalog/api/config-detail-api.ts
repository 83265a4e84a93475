import { CATALOG_LIMITS, catalogChangesResponseSchema } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { catalogApi, dbApi } from '@/lib/api-client';
import { catalogKeys, type ConfigDetail } from './catalog-api';

/** `GET /api/db/config_detail?id=eq.<id>&select=*,config_scrapers(id,name)`; null when missing. */
export function useConfigDetail(id: string) {
  return useQuery({
    queryKey: catalogKeys.detail(id),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<ConfigDetail[]>('/config_detail', {
        params: { id: `eq.${id}`, select: '*,config_scrapers(id,name)' },
        signal,
      });
      return data[0] ?? null;
    },
    staleTime: CATALOG_LIMITS.staleTimeMs,
  });
}

/** The item's changes: `POST /api/catalog/changes` with its id (the Changes tab). */
export function useConfigChanges(id: string, enabled: boolean) {
  const body = { id, recursive: 'none', from: 'now-30d', page: 1, page_size: 200, sort_by: '-created_at' };
  return useQuery({
    queryKey: catalogKeys.changes(body),
    queryFn: async ({ signal }) =>
      catalogChangesResponseSchema.parse((await catalogApi.post<unknown>('/changes', body, { signal })).data),
    enabled,
  });
}

/** One change with its diff, patches and details (the change dialog). */
export type ConfigChangeDetail = {
  id: string;
  config_id: string;
  change_type: string;
  severity: string | null;
  created_at: string;
  external_created_by: string | null;
  source: string | null;
  summary: string | null;
  diff: string | null;
  details: unknown;
  patches: unknown;
  created_by: string | null;
  config: { id: string; name: string; type: string; config_class: string } | null;
};

export function useConfigChange(configId: string, id: string | null) {
  return useQuery({
    queryKey: catalogKeys.change(id ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<ConfigChangeDetail[]>('/config_changes', {
        params: {
          config_id: `eq.${configId}`,
          id: `eq.${id}`,
          select:
            'id,config_id,change_type,created_at,external_created_by,source,summary,severity,diff,details,patches,created_by,config:configs(id,name,type,config_class)',
        },
        signal,
      });
      return data[0] ?? null;
    },
    enabled: id !== null,
  });
}

/** An open or past insight of the item (the Insights tab). */
export type ConfigInsight = {
  id: string;
  analyzer: string;
  analysis_type: string;
  severity: string | null;
  status: string | null;
  message: string | null;
  first_observed: string | null;
  last_observed: string | null;
};

export function useConfigInsights(id: string, enabled: boolean) {
  return useQuery({
    queryKey: catalogKeys.insights(id),
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<ConfigInsight[]>('/config_analysis_items', {
          params: { config_id: `eq.${id}`, order: 'first_observed.desc', limit: '50' },
          signal,
        })
      ).data,
    enabled,
  });
}
