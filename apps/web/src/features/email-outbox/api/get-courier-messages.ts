import {
  courierMessagesResponseSchema,
  EMAIL_DELIVERY_HEADER,
  type CourierMessage,
  type CourierMessagesQuery,
  type EmailDelivery,
} from '@lookout/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { identityAdminApi } from '@/lib/api-client';
import { courierErrorMessage, deliveryOf, totalOf } from '../lib/courier-fns';
import { emailOutboxKeys } from './email-outbox-keys';

/** One answer of the message list: the messages, how many match, and how mail leaves. */
export interface CourierMessagesPage {
  messages: CourierMessage[];
  /** `X-Total-Count`: every message matching the filters; the page may hold fewer. */
  total: number;
  /** `X-Lookout-Email-Delivery`: absent when an external Kratos answers. */
  delivery: EmailDelivery | undefined;
}

/**
 * `GET /api/.ory/admin/courier/messages`: the email outbox, newest first, filtered by status
 * and exact recipient, `page_size` messages at most (admins only).
 */
export const getCourierMessages = async (query: CourierMessagesQuery): Promise<CourierMessagesPage> => {
  try {
    const response = await identityAdminApi.get<unknown>('/courier/messages', { params: query });
    const messages = courierMessagesResponseSchema.parse(response.data);
    return {
      messages,
      total: totalOf(response.headers['x-total-count']) ?? messages.length,
      delivery: deliveryOf(response.headers[EMAIL_DELIVERY_HEADER]),
    };
  } catch (error) {
    throw new Error(courierErrorMessage(error), { cause: error });
  }
};

/** Read fresh on every visit; the previous page stays on screen while a new filter loads. */
export const courierMessagesQueryOptions = (query: CourierMessagesQuery) =>
  queryOptions({
    queryKey: emailOutboxKeys.messages(query),
    queryFn: () => getCourierMessages(query),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useCourierMessages = (query: CourierMessagesQuery) => useQuery(courierMessagesQueryOptions(query));
