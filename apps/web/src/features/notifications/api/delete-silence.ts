import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/** `PATCH /api/db/notification_silences?id=eq.<id>` with `deleted_at` now (spec 3 section 4: soft). */
export const deleteSilence = (id: string): Promise<void> =>
  withServerMessage(async () => {
    await dbApi.patch(
      '/notification_silences',
      { deleted_at: new Date().toISOString() },
      { params: { id: `eq.${id}` } },
    );
  });

export const useDeleteSilence = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSilence,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
};
