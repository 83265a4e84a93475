import {
  EMAIL_DELIVERIES,
  EMAIL_OUTBOX_TEXTS,
  type CourierMessage,
  type CourierMessageStatus,
  type EmailDelivery,
} from '@lookout/contracts';
import { isAxiosError } from 'axios';

/** The reason of the latest failed attempt, or undefined when none failed since the last success. */
export function lastError(message: Pick<CourierMessage, 'dispatches'>): string | undefined {
  const latest = message.dispatches?.at(-1);
  if (!latest || latest.status !== 'failed') return undefined;
  return latest.error?.reason ?? 'Failed';
}

export const statusLabel = (status: CourierMessageStatus): string => EMAIL_OUTBOX_TEXTS.statuses[status];

/** `X-Lookout-Email-Delivery` as sent, or undefined (an external Kratos sends none). */
export function deliveryOf(header: unknown): EmailDelivery | undefined {
  return EMAIL_DELIVERIES.find((delivery) => delivery === header);
}

/** `X-Total-Count`, or undefined when it is missing or not a count. */
export function totalOf(header: unknown): number | undefined {
  const total = Number(header);
  return typeof header === 'string' && header.trim() !== '' && Number.isInteger(total) && total >= 0
    ? total
    : undefined;
}

/**
 * What a failed call to the Kratos admin API said: Kratos's `error.reason` (or `message`),
 * or Lookout's envelope `error.message`, else the transport's message.
 */
export function courierErrorMessage(error: unknown): string {
  if (isAxiosError(error)) {
    const body: unknown = error.response?.data;
    if (typeof body === 'object' && body !== null && 'error' in body) {
      const inner = (body as { error: unknown }).error;
      if (typeof inner === 'object' && inner !== null) {
        const { reason, message } = inner as { reason?: unknown; message?: unknown };
        if (typeof reason === 'string' && reason.trim()) return reason;
        if (typeof message === 'string' && message.trim()) return message;
      }
    }
  }
  return error instanceof Error ? error.message : String(error);
}
