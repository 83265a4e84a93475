import { NOTIFICATION_DEFAULTS, notificationTraceListSchema, type NotificationTrace } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { notificationApi } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/**
 * `GET /api/notification/traces?resource_id=<id>[&event=<name>]&limit=20`: the events of one
 * resource the notification rules saw, newest first, each with what every rule did with it.
 */
export const getTraces = (
  resourceId: string,
  event: string | undefined,
  signal?: AbortSignal,
): Promise<NotificationTrace[]> =>
  withServerMessage(async () => {
    const { data } = await notificationApi.get<unknown>('/traces', {
      params: { resource_id: resourceId, ...(event ? { event } : {}), limit: NOTIFICATION_DEFAULTS.tracesPageSize },
      signal,
    });
    return notificationTraceListSchema.parse(data).traces;
  });

export const useTraces = (resourceId: string | undefined, event: string | undefined) =>
  useQuery({
    queryKey: notificationKeys.traces(resourceId ?? '', event),
    queryFn: ({ signal }) => getTraces(resourceId ?? '', event, signal),
    enabled: resourceId !== undefined,
    staleTime: 0,
  });
