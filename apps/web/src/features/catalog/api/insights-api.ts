import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { countExact, dbApi, withTotal } from '@/lib/api-client';
import {
  componentInsightsPage,
  insightsQuery,
  type ComponentInsightRow,
  type InsightRow,
  type InsightsParams,
} from '../lib/insights-params';

export const insightKeys = {
  list: (params: InsightsParams, configId: string | undefined) =>
    ['catalog', 'insights-list', params, configId] as const,
  one: (id: string) => ['catalog', 'insight', id] as const,
  analyzers: () => ['catalog', 'lookup', 'config_analysis_analyzers'] as const,
  components: () => ['catalog', 'lookup', 'components'] as const,
};

export type InsightsPage = { rows: InsightRow[]; total: number };

/**
 * One page of insights (ui-calls 3.5): `GET /api/db/config_analysis_items` with the filters and
 * `Prefer: count=exact`; with a component chosen, `rpc/lookup_analysis_by_component` filtered
 * and paged here, as the original did.
 */
export function useInsights(params: InsightsParams, configId?: string) {
  return useQuery({
    queryKey: insightKeys.list(params, configId),
    queryFn: async ({ signal }): Promise<InsightsPage> => {
      if (params.component) {
        const { data } = await dbApi.get<ComponentInsightRow[]>('/rpc/lookup_analysis_by_component', {
          params: { id: params.component },
          signal,
        });
        return componentInsightsPage(data, params, configId);
      }
      const response = await dbApi.get<InsightRow[]>('/config_analysis_items', {
        ...countExact,
        params: new URLSearchParams(insightsQuery(params, configId)),
        signal,
      });
      const { data, total } = withTotal(response);
      return { rows: data, total };
    },
    placeholderData: keepPreviousData,
  });
}

/** One insight with its message, source and analysis (the detail panel). */
export type InsightDetail = InsightRow & { source: string | null; analysis: unknown };

export function useInsight(id: string | null) {
  return useQuery({
    queryKey: insightKeys.one(id ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<InsightDetail[]>('/config_analysis', {
        params: {
          select:
            'id,source,analyzer,analysis_type,message,severity,status,analysis,first_observed,last_observed,config:configs(id,name,config_class,type)',
          id: `eq.${id}`,
        },
        signal,
      });
      return data[0] ?? null;
    },
    enabled: id !== null,
  });
}

/** Analyzer options: `GET /api/db/config_analysis_analyzers?order=analyzer.asc`. */
export function useAnalyzers() {
  return useQuery({
    queryKey: insightKeys.analyzers(),
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<{ analyzer: string }[]>('/config_analysis_analyzers', {
          params: { order: 'analyzer.asc' },
          signal,
        })
      ).data.map((row) => row.analyzer),
    staleTime: 60_000,
  });
}

/**
 * Component options (live components by name). Reading components needs read on topologies;
 * without it the call fails and the Component filter is left out.
 */
export function useComponentOptions() {
  return useQuery({
    queryKey: insightKeys.components(),
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<{ id: string; name: string }[]>('/components', {
          params: { select: 'id,name', deleted_at: 'is.null', order: 'name.asc', limit: '500' },
          signal,
        })
      ).data,
    staleTime: 60_000,
    retry: false,
  });
}
