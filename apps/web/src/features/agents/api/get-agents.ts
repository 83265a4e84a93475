import { AGENTS_CREATED_BY_SELECT, type AgentSortColumn } from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { countExact, dbApi, withTotal } from '@/lib/api-client';
import { agentKeys } from './agent-keys';
import { agentSummaryRowSchema, type AgentSummaryRow } from './agent-types';

export interface AgentsPageRequest {
  pageIndex: number;
  pageSize: number;
  sortBy: AgentSortColumn;
  desc: boolean;
}

export interface AgentsPage {
  rows: AgentSummaryRow[];
  total: number;
}

const rowsSchema = z.array(agentSummaryRowSchema);

/**
 * `GET /api/db/agents_summary?select=*,created_by(...)&order=<column>.<dir>&limit&offset` with
 * `Prefer: count=exact` (ui-calls 3.8; spec 2 section 7.4: sortBy, sortOrder, page index and
 * size; data and totalEntries). The view lists live agents only. Ties keep a stable order by id.
 */
export async function getAgents(request: AgentsPageRequest, signal?: AbortSignal): Promise<AgentsPage> {
  const direction = request.desc ? 'desc' : 'asc';
  const response = await dbApi.get<unknown>('/agents_summary', {
    ...countExact,
    params: {
      select: `*,${AGENTS_CREATED_BY_SELECT}`,
      order: `${request.sortBy}.${direction}.nullslast,id.${direction}`,
      limit: request.pageSize,
      offset: request.pageIndex * request.pageSize,
    },
    signal,
  });
  const { data, total } = withTotal(response);
  return { rows: rowsSchema.parse(data), total };
}

export const agentsQueryOptions = (request: AgentsPageRequest) =>
  queryOptions({
    queryKey: agentKeys.list(request),
    queryFn: ({ signal }) => getAgents(request, signal),
    // Online/Offline moves with every ping.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useAgents = (request: AgentsPageRequest) => useQuery(agentsQueryOptions(request));

/**
 * `GET /api/db/agents_summary?select=*,created_by(...)&id=eq.<id>` (ui-calls 3.8 reads `select=*`):
 * the edit drawer's agent, with the creator embedded as the list has it, so one row shape serves both.
 */
export async function getAgent(id: string, signal?: AbortSignal): Promise<AgentSummaryRow | null> {
  const response = await dbApi.get<unknown>('/agents_summary', {
    params: { select: `*,${AGENTS_CREATED_BY_SELECT}`, id: `eq.${id}` },
    signal,
  });
  return rowsSchema.parse(response.data)[0] ?? null;
}

export const useAgent = (id: string | undefined) =>
  useQuery({
    queryKey: agentKeys.one(id ?? ''),
    queryFn: ({ signal }) => getAgent(id!, signal),
    enabled: id !== undefined,
  });
