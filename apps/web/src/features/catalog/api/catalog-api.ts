import { CATALOG_LIMITS, catalogSummaryResponseSchema, type CatalogSummaryRow } from '@lookout/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { catalogApi, dbApi } from '@/lib/api-client';
import { configsQuery, summaryBody, type CatalogParams } from '../lib/catalog-params';

/** A row of `GET /api/db/configs` with the console's select (ui-calls 3.5). */
export type ConfigRow = {
  id: string;
  name: string | null;
  type: string | null;
  config_class: string | null;
  status: string | null;
  health: string | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
  cost_total_1d: number | null;
  cost_total_30d: number | null;
  changes: { change_type: string; severity: string | null; total: number }[] | null;
  analysis: Record<string, number> | null;
  agent: { id: string; name: string } | null;
};

/** A row of `config_detail` with its scraper (the item page). */
export type ConfigDetail = ConfigRow & {
  description: string | null;
  config: unknown;
  properties: { name?: string; text?: string; value?: unknown; headline?: boolean }[] | null;
  last_scraped_time: string | null;
  summary: { changes: number; analysis: number; relationships: number; playbook_runs: number; checks: number } | null;
  config_scrapers: { id: string; name: string } | null;
};

export const catalogKeys = {
  all: ['catalog'] as const,
  summary: (body: object) => ['catalog', 'summary', body] as const,
  configs: (query: [string, string][]) => ['catalog', 'configs', query] as const,
  lookup: (name: string) => ['catalog', 'lookup', name] as const,
  detail: (id: string) => ['catalog', 'detail', id] as const,
  changes: (body: object) => ['catalog', 'changes', body] as const,
  change: (id: string) => ['catalog', 'change', id] as const,
  insights: (id: string) => ['catalog', 'insights', id] as const,
};

const toParams = (query: [string, string][]) => new URLSearchParams(query);

/** `POST /api/catalog/summary`: used while neither a type nor a search is set. */
export function useCatalogSummary(params: CatalogParams, hideDeleted: boolean, enabled: boolean) {
  const body = summaryBody(params, hideDeleted);
  return useQuery({
    queryKey: catalogKeys.summary(body),
    queryFn: async ({ signal }): Promise<CatalogSummaryRow[]> => {
      const { data } = await catalogApi.post<unknown>('/summary', body, { signal });
      return catalogSummaryResponseSchema.parse(data);
    },
    enabled,
    staleTime: CATALOG_LIMITS.staleTimeMs,
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/db/configs` with a type or a search (no paging). */
export function useConfigs(params: CatalogParams, hideDeleted: boolean, enabled: boolean) {
  const query = configsQuery(params, hideDeleted);
  return useQuery({
    queryKey: catalogKeys.configs(query),
    queryFn: async ({ signal }) => (await dbApi.get<ConfigRow[]>('/configs', { params: toParams(query), signal })).data,
    enabled,
    staleTime: CATALOG_LIMITS.staleTimeMs,
    placeholderData: keepPreviousData,
  });
}

/** The filter option lists: config_types, config_statuses, config_labels, config_tags. */
export function useCatalogLookups() {
  const lookup = <T>(name: string) =>
    // eslint-disable-next-line react-hooks/rules-of-hooks -- a fixed list of calls, always in this order
    useQuery({
      queryKey: catalogKeys.lookup(name),
      queryFn: async ({ signal }) => (await dbApi.get<T[]>(`/${name}`, { signal })).data,
      staleTime: 60_000,
    });
  return {
    types: lookup<{ type: string }>('config_types'),
    statuses: lookup<{ status: string }>('config_statuses'),
    labels: lookup<{ key: string; value: string }>('config_labels'),
    tags: lookup<{ key: string; value: string }>('config_tags'),
  };
}
