import { CANARY_ROW_SELECT, canaryRowsResponseSchema, type CanaryRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { healthKeys } from './health-keys';

/**
 * `GET /api/db/canaries?id=eq.{id}&select=id,name,namespace,labels,spec,source,…` (ui-calls
 * section 3.3): the canary whose spec the form and the YAML editor edit; null when missing.
 */
export const getCanary = async (id: string): Promise<CanaryRow | null> => {
  const { data } = await dbApi.get<unknown>('/canaries', {
    params: { id: `eq.${id}`, deleted_at: 'is.null', select: CANARY_ROW_SELECT },
  });
  return canaryRowsResponseSchema.parse(data)[0] ?? null;
};

export const canaryQueryOptions = (id: string) =>
  queryOptions({ queryKey: healthKeys.canary(id), queryFn: () => getCanary(id) });

export const useCanary = (id: string | undefined) =>
  useQuery({ ...canaryQueryOptions(id ?? ''), enabled: id !== undefined });
