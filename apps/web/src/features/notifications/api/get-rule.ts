import { notificationRuleSchema, type NotificationRule } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/** `GET /api/db/notifications?id=eq.<id>&select=*` (spec 3 section 7): the edit form's rule. */
export const getRule = (id: string, signal?: AbortSignal): Promise<NotificationRule | null> =>
  withServerMessage(async () => {
    const { data } = await dbApi.get<unknown>('/notifications', { params: { id: `eq.${id}`, select: '*' }, signal });
    return z.array(notificationRuleSchema).parse(data)[0] ?? null;
  });

/** Read afresh each time the dialog opens, as the original does (no cache). */
export const useRule = (id: string | undefined) =>
  useQuery({
    queryKey: notificationKeys.rule(id ?? ''),
    queryFn: ({ signal }) => getRule(id ?? '', signal),
    enabled: id !== undefined,
    staleTime: 0,
    gcTime: 0,
  });
