import { notificationSendHistoryRowSchema, type NotificationSendHistoryRow } from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { countExact, dbApi, withTotal } from '@/lib/api-client';
import { sendHistoryQueryParams, type SendHistoryFilters } from '../lib/send-history-params';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

export interface SendHistoryPage {
  rows: NotificationSendHistoryRow[];
  total: number;
}

const rowsSchema = z.array(notificationSendHistoryRowSchema);

/**
 * `GET /api/db/notification_send_history_summary?select=*&order=created_at.desc&limit&offset`
 * with `resource_type.filter` and `status.filter` and `Prefer: count=exact` (ui-calls 3.13).
 */
export const getSendHistory = (filters: SendHistoryFilters, signal?: AbortSignal): Promise<SendHistoryPage> =>
  withServerMessage(async () => {
    const response = await dbApi.get<unknown>('/notification_send_history_summary', {
      ...countExact,
      params: sendHistoryQueryParams(filters),
      signal,
    });
    const { data, total } = withTotal(response);
    return { rows: rowsSchema.parse(data), total };
  });

export const sendHistoryQueryOptions = (filters: SendHistoryFilters) =>
  queryOptions({
    queryKey: notificationKeys.history(filters),
    queryFn: ({ signal }) => getSendHistory(filters, signal),
    // Sends are written all the time: read afresh, keep the last page on screen meanwhile.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useSendHistory = (filters: SendHistoryFilters) => useQuery(sendHistoryQueryOptions(filters));

/** `GET /api/db/notification_send_history_summary?id=eq.<id>`: the details modal's row, or null. */
export const getSendHistoryRow = (id: string, signal?: AbortSignal): Promise<NotificationSendHistoryRow | null> =>
  withServerMessage(async () => {
    const { data } = await dbApi.get<unknown>('/notification_send_history_summary', {
      params: { id: `eq.${id}` },
      signal,
    });
    return rowsSchema.parse(data)[0] ?? null;
  });

export const useSendHistoryRow = (id: string | undefined) =>
  useQuery({
    queryKey: notificationKeys.historyRow(id ?? ''),
    queryFn: ({ signal }) => getSendHistoryRow(id ?? '', signal),
    enabled: id !== undefined,
  });
