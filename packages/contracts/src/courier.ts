import { z } from 'zod';

/**
 * The identity service's courier: the outbox of every email Lookout sends (recovery and
 * verification codes, invitations), as Ory Kratos's admin courier API gives it
 * (`GET /api/.ory/admin/courier/messages`, `GET /api/.ory/admin/courier/messages/{id}`), and
 * the texts of the console's Email outbox page. With an external Kratos the same paths are
 * that Kratos's courier, so these schemas accept what Kratos answers too.
 */

/** A message's status, in Kratos's words: waiting, being sent, delivered, given up. */
export const COURIER_MESSAGE_STATUSES = ['queued', 'processing', 'sent', 'abandoned'] as const;
export type CourierMessageStatus = (typeof COURIER_MESSAGE_STATUSES)[number];

/** Kratos's page sizes for the message list: 10 unless asked, at most 1000. */
export const COURIER_PAGE_SIZE = { default: 10, max: 1000 } as const;

/**
 * Response header of Lookout's own message list: `smtp` when an SMTP server delivers the
 * outbox (LOOKOUT_SMTP_URL), `outbox` when messages stay in it unsent. Kratos sends no such
 * header, so its absence means "someone else's courier" (an external Kratos).
 */
export const EMAIL_DELIVERY_HEADER = 'x-lookout-email-delivery';
export const EMAIL_DELIVERIES = ['smtp', 'outbox'] as const;
export type EmailDelivery = (typeof EMAIL_DELIVERIES)[number];

const isoDate = z.string().max(64);

/** One delivery attempt (Kratos's `messageDispatch`); `error.reason` says why it failed. */
export const courierMessageDispatchSchema = z.object({
  id: z.uuid(),
  message_id: z.uuid(),
  status: z.enum(['failed', 'success']),
  error: z
    .object({ reason: z.string().max(2000).optional() })
    .loose()
    .nullable()
    .optional(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type CourierMessageDispatch = z.infer<typeof courierMessageDispatchSchema>;

/**
 * A courier message (Kratos's `message`). `body` carries the code or link the email sends:
 * only admins may read it. `template_type` is one of Kratos's template names, or `invite`
 * (Lookout's invitation, which Kratos does not have).
 */
export const courierMessageSchema = z.object({
  id: z.uuid(),
  status: z.enum(COURIER_MESSAGE_STATUSES),
  type: z.string().max(20),
  // Kratos sends null for a message without a channel, and may leave dispatches out or null.
  channel: z.string().max(50).nullable().optional(),
  recipient: z.string().max(320),
  subject: z.string().max(1000),
  body: z.string().max(100_000),
  template_type: z.string().max(100),
  send_count: z.number().int().min(0),
  created_at: isoDate,
  updated_at: isoDate,
  dispatches: z.array(courierMessageDispatchSchema).max(1000).nullable().optional(),
});
export type CourierMessage = z.infer<typeof courierMessageSchema>;

/** The list answer: a JSON array (paging is in the `Link` and `X-Total-Count` headers). */
export const courierMessagesResponseSchema = z.array(courierMessageSchema).max(COURIER_PAGE_SIZE.max);

/**
 * Query of `GET /api/.ory/admin/courier/messages`, with Kratos's parameter names: filters
 * `status` and `recipient` (exact address), keyset paging `page_size` and `page_token` (the
 * `rel="next"` link of the previous page).
 */
export const courierMessagesQuerySchema = z.object({
  status: z
    .enum(COURIER_MESSAGE_STATUSES, { message: `must be one of ${COURIER_MESSAGE_STATUSES.join(', ')}` })
    .optional(),
  recipient: z.string().trim().min(1, { message: 'must not be empty' }).max(320).optional(),
  page_size: z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(COURIER_PAGE_SIZE.max, { message: `must be at most ${COURIER_PAGE_SIZE.max}` })
    .optional(),
  page_token: z.string().min(1).max(200).optional(),
});
export type CourierMessagesQuery = z.infer<typeof courierMessagesQuerySchema>;

/** `{id}` of `GET /api/.ory/admin/courier/messages/{id}`. */
export const courierMessageParamsSchema = z.object({ id: z.uuid({ message: 'must be a message id (UUID)' }) });

/** Texts of the Email outbox page (Settings, admins only). */
export const EMAIL_OUTBOX_TEXTS = {
  title: 'Email outbox',
  columns: {
    recipient: 'Recipient',
    subject: 'Subject',
    status: 'Status',
    attempts: 'Attempts',
    createdAt: 'Created',
    lastError: 'Last error',
  },
  statuses: { queued: 'Queued', processing: 'Sending', sent: 'Sent', abandoned: 'Abandoned' },
  statusFilter: 'Status',
  allStatuses: 'All statuses',
  recipientFilter: 'Recipient',
  recipientPlaceholder: 'Exact email address',
  empty: 'No messages',
  showMore: 'Show more',
  total: (shown: number, total: number) =>
    shown < total ? `${shown} of ${total} messages` : `${total} ${total === 1 ? 'message' : 'messages'}`,
  smtpMissing:
    'No email server is configured (LOOKOUT_SMTP_URL), so these messages are not sent: they stay here. Hand the code or link to its recipient yourself, or set LOOKOUT_SMTP_URL and restart Lookout to deliver what is still queued.',
  smtpConfigured: 'Messages are delivered through the SMTP server of LOOKOUT_SMTP_URL; failed deliveries are retried.',
  message: {
    recipient: 'To',
    template: 'Template',
    status: 'Status',
    attempts: 'Attempts',
    createdAt: 'Created',
    updatedAt: 'Updated',
    body: 'Message',
    copyBody: 'Copy message',
    dispatches: 'Delivery attempts',
    noDispatches: 'Not tried yet.',
    dispatchSucceeded: 'Delivered',
    dispatchFailed: 'Failed',
    close: 'Done',
    secret:
      'This message holds a one-time code or link that signs its recipient in. Hand it only to them, over a channel you trust.',
  },
} as const;

/**
 * Logged once at start when no SMTP server is configured: codes and links are never logged,
 * so this says where they are.
 */
export const EMAIL_OUTBOX_STARTUP_WARNING = `No SMTP server is configured (LOOKOUT_SMTP_URL): recovery and verification codes and invitation links are not emailed and never logged; they are kept in the email outbox, which admins read in the console at Settings → ${EMAIL_OUTBOX_TEXTS.title}.`;

/**
 * The same warning with an external Ory Kratos, whose courier sends its own recovery and
 * verification emails: Lookout only mails invitations there.
 */
export const EMAIL_OUTBOX_STARTUP_WARNING_EXTERNAL_KRATOS =
  'No SMTP server is configured (LOOKOUT_SMTP_URL): invitation emails are not sent and never logged; the Invite User dialog shows each invitation link to hand over.';
