import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import type { RulePayload } from '../lib/rule-form-fns';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

export type SaveRuleInput =
  | { kind: 'create'; payload: RulePayload; /** The signed-in user. */ createdBy: string }
  | { kind: 'update'; id: string; payload: RulePayload };

/**
 * `POST /api/db/notifications` with the rule, `source: 'UI'` and `created_by`, or
 * `PATCH /api/db/notifications?id=eq.<id>` with the rule, where the recipients not chosen are
 * sent as null so only one remains (ui-calls 3.13).
 */
export const saveRule = (input: SaveRuleInput): Promise<void> =>
  withServerMessage(async () => {
    if (input.kind === 'create') {
      await dbApi.post('/notifications', { ...input.payload, source: 'UI', created_by: input.createdBy });
    } else {
      await dbApi.patch('/notifications', input.payload, { params: { id: `eq.${input.id}` } });
    }
  });

export const useSaveRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
};
