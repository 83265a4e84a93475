import { integrationRowsSchema, type IntegrationRow } from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { countExact, dbApi, withTotal } from '@/lib/api-client';

/** Query keys of the integrations feature. */
export const integrationKeys = {
  all: ['integrations'] as const,
  list: (page: IntegrationsPageRequest) => ['integrations', 'list', page] as const,
};

/** Which page of the list to read. */
export interface IntegrationsPageRequest {
  pageIndex: number;
  pageSize: number;
}

/** A page of integrations and how many there are in all. */
export interface IntegrationsPage {
  rows: IntegrationRow[];
  total: number;
}

/**
 * `GET /api/db/integrations_with_status` (spec 2 section 7.6, ui-calls 3.10): the live
 * integrations newest first, one page by limit and offset, the total from Content-Range.
 */
export const getIntegrations = async (
  { pageIndex, pageSize }: IntegrationsPageRequest,
  signal?: AbortSignal,
): Promise<IntegrationsPage> => {
  const response = await dbApi.get<unknown>('/integrations_with_status', {
    ...countExact,
    params: {
      order: 'created_at.desc',
      select: '*',
      deleted_at: 'is.null',
      limit: String(pageSize),
      offset: String(pageIndex * pageSize),
    },
    signal,
  });
  const { data, total } = withTotal(response);
  return { rows: integrationRowsSchema.parse(data), total };
};

export const integrationsQueryOptions = (page: IntegrationsPageRequest) =>
  queryOptions({
    queryKey: integrationKeys.list(page),
    queryFn: ({ signal }) => getIntegrations(page, signal),
    // Runs change the job columns all the time: read afresh on every visit, and keep the last
    // page on screen while the next one loads.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useIntegrations = (page: IntegrationsPageRequest) => useQuery(integrationsQueryOptions(page));
