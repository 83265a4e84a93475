import type { CourierMessage, CourierMessageDispatch } from '@lookout/contracts';
import type { CourierDispatchRow, CourierMessageRow } from './identity-courier-repository.js';

/** Pure parts of the courier: retry schedule, page tokens, the Kratos view of a message. */

export type RetryPolicy = {
  /** Attempts before a message is abandoned. */
  maxAttempts: number;
  /** Wait after the first failed attempt; each further failure doubles it. */
  baseDelayMs: number;
  /** Longest wait between two attempts. */
  maxDelayMs: number;
};

/**
 * When to try again after attempt number `attempt` (1 for the first) failed, or undefined to
 * give up: exponential backoff, capped.
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const exponent = Math.max(attempt - 1, 0);
  // 2^30 is far past any cap; bounding the exponent keeps the arithmetic finite.
  return Math.min(policy.baseDelayMs * 2 ** Math.min(exponent, 30), policy.maxDelayMs);
}

/**
 * A failure's reason fit to store and show: the error's message (an SMTP reply or a socket
 * error, never the message body, which the transport does not quote), on one line, bounded.
 */
export function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const text = `${typeof code === 'string' && !message.includes(code) ? `${code}: ` : ''}${message}`;
  return text.replace(/\s+/g, ' ').trim().slice(0, 1000) || 'Unknown error';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque `page_token` of the page after the message `lastId` (lists are newest first). */
export function encodePageToken(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url');
}

/** The id a `page_token` continues after, or undefined when it is not one of ours. */
export function decodePageToken(token: string): string | undefined {
  const decoded = Buffer.from(token, 'base64url').toString('utf8');
  return UUID.test(decoded) ? decoded.toLowerCase() : undefined;
}

function dispatchView(row: CourierDispatchRow): CourierMessageDispatch {
  return {
    id: row.id,
    message_id: row.message_id,
    status: row.status,
    error: row.error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A message as Kratos's admin API shows it, with its body already opened. */
export function messageView(
  row: CourierMessageRow,
  body: string,
  dispatches: readonly CourierDispatchRow[],
): CourierMessage {
  return {
    id: row.id,
    status: row.status,
    type: row.type,
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject,
    body,
    template_type: row.template_type,
    send_count: row.send_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    dispatches: dispatches.map(dispatchView),
  };
}
