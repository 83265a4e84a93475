import { NOTIFICATION_DEFAULTS, notificationTraceListSchema, type NotificationTrace } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { notificationApi } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/** Which events to explain: a resource's, narrowed to one event name or one history row's event. */
export interface TraceQuery {
  resourceId: string;
  event?: string | undefined;
  historyId?: string | undefined;
}

/**
 * `GET /api/notification/traces?resource_id=<id>[&event=<name>][&history_id=<id>]&limit=20`: the
 * events of one resource the notification rules saw, newest first, each with what every rule did.
 */
export const getTraces = (
  { resourceId, event, historyId }: TraceQuery,
  signal?: AbortSignal,
): Promise<NotificationTrace[]> =>
  withServerMessage(async () => {
    const { data } = await notificationApi.get<unknown>('/traces', {
      params: {
        resource_id: resourceId,
        ...(event ? { event } : {}),
        ...(historyId ? { history_id: historyId } : {}),
        limit: NOTIFICATION_DEFAULTS.tracesPageSize,
      },
      signal,
    });
    return notificationTraceListSchema.parse(data).traces;
  });

export const useTraces = (query: TraceQuery | undefined) =>
  useQuery({
    queryKey: notificationKeys.traces(query ?? {}),
    queryFn: ({ signal }) => getTraces(query ?? { resourceId: '' }, signal),
    enabled: query !== undefined,
    staleTime: 0,
  });
