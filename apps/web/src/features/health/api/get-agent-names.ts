import { SLOW_STALE_TIME_MS, agentNamesResponseSchema, type AgentNameRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { healthKeys } from './health-keys';

/**
 * `GET /api/db/agents?select=id,name&id=in.(…)` (ui-calls section 3.3): the names the Agent
 * tabs show. The nil agent (this instance) is a row too, named 'local'.
 */
export const getAgentNames = async (ids: readonly string[]): Promise<AgentNameRow[]> => {
  const { data } = await dbApi.get<unknown>('/agents', { params: { select: 'id,name', id: `in.(${ids.join(',')})` } });
  return agentNamesResponseSchema.parse(data);
};

export const agentNamesQueryOptions = (ids: readonly string[]) =>
  queryOptions({
    queryKey: healthKeys.agents(ids),
    queryFn: () => getAgentNames(ids),
    // Agents are a slowly changing list (spec 1 section 9).
    staleTime: SLOW_STALE_TIME_MS,
  });

/** Agent names, asked only while the tabs are by agent. */
export const useAgentNames = (ids: readonly string[], enabled: boolean) =>
  useQuery({ ...agentNamesQueryOptions(ids), enabled: enabled && ids.length > 0 });
