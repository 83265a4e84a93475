import { courierMessageSchema, type CourierMessage } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { identityAdminApi } from '@/lib/api-client';
import { courierErrorMessage } from '../lib/courier-fns';
import { emailOutboxKeys } from './email-outbox-keys';

/** `GET /api/.ory/admin/courier/messages/{id}`: one message with its body and delivery attempts. */
export const getCourierMessage = async (id: string): Promise<CourierMessage> => {
  try {
    const { data } = await identityAdminApi.get<unknown>(`/courier/messages/${encodeURIComponent(id)}`);
    return courierMessageSchema.parse(data);
  } catch (error) {
    throw new Error(courierErrorMessage(error), { cause: error });
  }
};

export const courierMessageQueryOptions = (id: string) =>
  queryOptions({ queryKey: emailOutboxKeys.message(id), queryFn: () => getCourierMessage(id), staleTime: 0 });

/** The message opened in the dialog; `initialData` shows the list's copy until it is read again. */
export const useCourierMessage = (id: string, initialData?: CourierMessage) =>
  useQuery({ ...courierMessageQueryOptions(id), ...(initialData ? { initialData, initialDataUpdatedAt: 0 } : {}) });
