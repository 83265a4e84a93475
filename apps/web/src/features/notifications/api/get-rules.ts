import { notificationSummaryRowSchema, type NotificationSummaryRow } from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { countExact, dbApi, withTotal } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

export interface RulesPageRequest {
  pageIndex: number;
  pageSize: number;
}

export interface RulesPage {
  rows: NotificationSummaryRow[];
  total: number;
}

const rowsSchema = z.array(notificationSummaryRowSchema);

/**
 * `GET /api/db/notifications_summary?select=*&order=created_at.desc&limit&offset` with
 * `Prefer: count=exact` (spec 3 section 7): the rules with their statistics. The original
 * embeds person, team and creator; here their names come from the recipient lists the page
 * already reads for the form, so the call does not depend on the view's foreign keys.
 */
export const getRules = ({ pageIndex, pageSize }: RulesPageRequest, signal?: AbortSignal): Promise<RulesPage> =>
  withServerMessage(async () => {
    const response = await dbApi.get<unknown>('/notifications_summary', {
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
    return { rows: rowsSchema.parse(data), total };
  });

export const rulesQueryOptions = (page: RulesPageRequest) =>
  queryOptions({
    queryKey: notificationKeys.rules(page),
    queryFn: ({ signal }) => getRules(page, signal),
    // The statistics move with every send.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useRules = (page: RulesPageRequest) => useQuery(rulesQueryOptions(page));
