import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/**
 * `PATCH /api/db/notifications?id=eq.<id>` with `deleted_at` set to now (ui-calls 3.13): a
 * soft delete, so the rule's send history keeps its rule.
 */
export const deleteRule = (id: string): Promise<void> =>
  withServerMessage(async () => {
    await dbApi.patch('/notifications', { deleted_at: new Date().toISOString() }, { params: { id: `eq.${id}` } });
  });

export const useDeleteRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
};
