import { CATALOG_LIMITS, catalogSummaryResponseSchema, type CatalogSummaryRow } from '@lookout/contracts';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { catalogApi, countExact, dbApi, withTotal } from '@/lib/api-client';
import { configsQuery, summaryBody, type CatalogParams } from '../lib/catalog-params';
import { configsPageQuery, nextConfigsOffset, type ConfigsPage } from '../lib/configs-paging';

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

/** A row of the item table: the narrow select of `CONFIGS_SELECT`. */
export type ConfigTableRow = Pick<
  ConfigRow,
  | 'id'
  | 'name'
  | 'type'
  | 'status'
  | 'health'
  | 'tags'
  | 'created_at'
  | 'updated_at'
  | 'deleted_at'
  | 'cost_total_1d'
  | 'cost_total_30d'
  | 'changes'
  | 'analysis'
>;

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

/**
 * `GET /api/db/configs` with a type or a search, a page at a time (`limit`/`offset`, ordered by
 * the server). The first page asks for the exact total (`Prefer: count=exact`); later pages load
 * as the table's scroller reaches the last loaded row.
 */
export function useConfigPages(params: CatalogParams, hideDeleted: boolean, enabled: boolean) {
  const query = configsQuery(params, hideDeleted);
  return useInfiniteQuery({
    queryKey: catalogKeys.configs(query),
    queryFn: async ({ pageParam, signal }): Promise<ConfigsPage<ConfigTableRow>> => {
      const response = await dbApi.get<ConfigTableRow[]>('/configs', {
        params: toParams(configsPageQuery(params, hideDeleted, pageParam)),
        signal,
        ...(pageParam === 0 ? countExact : {}),
      });
      const { data, total } = withTotal(response);
      return { rows: data, offset: pageParam, total: pageParam === 0 ? total : undefined };
    },
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextConfigsOffset(pages),
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
