import { notificationSilenceSchema, type NotificationSilence } from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { countExact, dbApi, withTotal } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

export interface SilencesPageRequest {
  pageIndex: number;
  pageSize: number;
}

export interface SilencesPage {
  rows: NotificationSilence[];
  total: number;
}

/**
 * `GET /api/db/notification_silences?select=*&deleted_at=is.null&order=created_at.desc&limit&offset`
 * with `Prefer: count=exact` (ui-calls 3.13). The resources' names are read by id afterwards
 * (`get-resource-names.ts`).
 */
export const getSilences = (
  { pageIndex, pageSize }: SilencesPageRequest,
  signal?: AbortSignal,
): Promise<SilencesPage> =>
  withServerMessage(async () => {
    const response = await dbApi.get<unknown>('/notification_silences', {
      ...countExact,
      params: {
        select: '*',
        deleted_at: 'is.null',
        order: 'created_at.desc',
        limit: pageSize,
        offset: pageIndex * pageSize,
      },
      signal,
    });
    const { data, total } = withTotal(response);
    return { rows: z.array(notificationSilenceSchema).parse(data), total };
  });

export const silencesQueryOptions = (page: SilencesPageRequest) =>
  queryOptions({
    queryKey: notificationKeys.silences(page),
    queryFn: ({ signal }) => getSilences(page, signal),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useSilences = (page: SilencesPageRequest) => useQuery(silencesQueryOptions(page));
