import { runCheckResponseSchema, type RunCheckResponse } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { canaryApi } from '@/lib/api-client';
import { healthKeys } from './health-keys';

/**
 * `POST /api/canary/run/check/{id}` (spec 2 section 7.2): runs the check now and answers with
 * its stored result. Roles admin, editor, responder and commander (RUN_CHECK_ROLES).
 */
export const runCheck = async (id: string): Promise<RunCheckResponse> => {
  const { data } = await canaryApi.post<unknown>(`/run/check/${encodeURIComponent(id)}`);
  return runCheckResponseSchema.parse(data);
};

/** Runs a check; afterwards the summary, the check, its history and chart are read again. */
export const useRunCheck = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runCheck,
    onSuccess: (_result, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: healthKeys.summaries() }),
        queryClient.invalidateQueries({ queryKey: healthKeys.check(id) }),
        queryClient.invalidateQueries({ queryKey: healthKeys.statuses(id) }),
      ]),
  });
};
