import { CATALOG_LIMITS } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
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
