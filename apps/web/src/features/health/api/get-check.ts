import { CHECK_DETAIL_SELECT, checkDetailResponseSchema, type CheckDetailRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { healthKeys } from './health-keys';

/**
 * `GET /api/db/checks?id=eq.{id}&select=*,canaries!checks_canary_id_fkey(…),agents!…`: one
 * check with its spec, canary and agent (ui-calls section 3.3); null when it is gone (React Query
 * keeps no `undefined` results).
 */
export const getCheck = async (id: string): Promise<CheckDetailRow | null> => {
  const { data } = await dbApi.get<unknown>('/checks', { params: { id: `eq.${id}`, select: CHECK_DETAIL_SELECT } });
  return checkDetailResponseSchema.parse(data)[0] ?? null;
};

export const checkQueryOptions = (id: string, refetchInterval: number | false = false) =>
  queryOptions({ queryKey: healthKeys.check(id), queryFn: () => getCheck(id), refetchInterval });

/** The check; refetched at the dashboard's refresh rate while its drawer is open. */
export const useCheck = (id: string, refetchInterval: number | false = false) =>
  useQuery(checkQueryOptions(id, refetchInterval));
