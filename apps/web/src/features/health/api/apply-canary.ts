import { applyCanaryResponseSchema, type ApplyCanaryResponse, type CanaryDocument } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { canaryApi } from '@/lib/api-client';
import { healthKeys } from './health-keys';

/**
 * `POST /api/canary/apply?source=UI` with the whole canary document as JSON: creates the
 * canary, or updates the one with this namespace and name; its checks are derived at once.
 * The route validates with the same `parseCanaryDocument` the editor runs, then with what the
 * runners need (the schedule's minimum interval, CEL expressions that compile), and 409s when a
 * canary of another source has the name; the editor shows its message, which names the field. Used instead of `/api/db/canaries` because it finds
 * the canary by namespace and name, which are what the editor keeps fixed.
 */
export const applyCanary = async (document: CanaryDocument): Promise<ApplyCanaryResponse> => {
  const { data } = await canaryApi.post<unknown>('/apply', document, { params: { source: 'UI' } });
  return applyCanaryResponseSchema.parse(data);
};

export const useApplyCanary = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyCanary,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: healthKeys.all }),
  });
};
