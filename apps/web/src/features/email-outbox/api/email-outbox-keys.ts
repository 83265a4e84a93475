import type { CourierMessagesQuery } from '@lookout/contracts';

/** Query keys of the email outbox feature. */
export const emailOutboxKeys = {
  all: ['email-outbox'] as const,
  messages: (query: CourierMessagesQuery) => ['email-outbox', 'messages', query] as const,
  message: (id: string) => ['email-outbox', 'message', id] as const,
};
