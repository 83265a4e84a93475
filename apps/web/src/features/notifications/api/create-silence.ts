import type { SilenceRequest } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationApi } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/**
 * `POST /api/notification/silence` with one resource id, `recursive`, `from`, `until` and the
 * reason as `description` (spec 3 section 7); relative choices go as `now` and `now+<dur>`.
 */
export const createSilence = (request: SilenceRequest): Promise<void> =>
  withServerMessage(async () => {
    await notificationApi.post('/silence', request);
  });

export const useCreateSilence = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSilence,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
};
