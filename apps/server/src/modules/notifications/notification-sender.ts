import { NOTIFICATION_DEFAULTS } from '@lookout/contracts';
import type { Logger } from 'pino';
import type { FailedEvent, QueuedEvent } from '../../events/events.js';
import type { ResolvedConnection } from '../connections/connections-service.js';
import { markdownToHtml, markdownToText } from './notification-template-fns.js';
import { teamChannels, type Recipient } from './notification-match-fns.js';
import type { NotificationsRepository, SendableRow } from './notifications-repository.js';
import {
  channelOfConnection,
  SERVICE_BASES,
  type Channel,
  type OutgoingMessage,
  type ServiceBases,
} from './senders/channel.js';
import { SENDERS } from './senders/registry.js';
import { parseServiceUrl } from './senders/service-url-fns.js';
import { sendSystemEmail } from './senders/smtp-sender.js';

/**
 * The second half of the flow: the async consumer of `notification.send`. Each event names a
 * `pending` history row; the sender works out the channel (the person's email through the
 * system SMTP server, the team's channels or members, a custom connection or service URL),
 * delivers, and writes the outcome with its duration. A failure is returned to the queue,
 * which retries with back-off (four tries in all); the row shows `error` and its retries.
 *
 * Delivery is at least once, with the window for a repeat kept to milliseconds: the outcome is
 * written on its own connection the moment the service answers, before the queue's claim
 * commits, and a redelivered event whose row is no longer pending or in error is dropped.
 * Receivers that can, de-duplicate on the row id sent along (header, alias, file name).
 */

export type SenderDeps = {
  repository: NotificationsRepository;
  resolveConnection: (reference: string) => Promise<ResolvedConnection>;
  /** LOOKOUT_SMTP_URL and its from address: email to people and team members. */
  systemSmtp?: { url: string; from: string };
  bases?: Partial<ServiceBases>;
  logger: Pick<Logger, 'warn' | 'debug'>;
  timeoutMs?: number;
};

type Delivery =
  { kind: 'channel'; channel: Channel } | { kind: 'system-email'; to: string[] } | { kind: 'cancel'; reason: string };

/** A custom service or team channel entry: a connection (its properties win over nothing) or a URL. */
async function channelOfEntry(entry: unknown, resolve: SenderDeps['resolveConnection']): Promise<Channel | string> {
  const service = (entry ?? {}) as { connection?: unknown; url?: unknown; properties?: unknown };
  const extra =
    service.properties && typeof service.properties === 'object' ? (service.properties as Record<string, string>) : {};
  if (typeof service.connection === 'string') {
    const channel = channelOfConnection(await resolve(service.connection));
    return { ...channel, properties: { ...channel.properties, ...extra } };
  }
  if (typeof service.url === 'string') {
    const parsed = parseServiceUrl(service.url);
    if (!parsed.ok) return parsed.error;
    return { ...parsed.channel, properties: { ...parsed.channel.properties, ...extra } };
  }
  return 'the service names neither a connection nor a url';
}

async function deliveryOf(row: SendableRow, deps: SenderDeps): Promise<Delivery> {
  const recipient = row.payload as Recipient | null;
  if (!recipient) return { kind: 'cancel', reason: 'the message has no recipient' };
  if (recipient.kind === 'person') {
    const email = await deps.repository.personEmail(recipient.personId);
    return email
      ? { kind: 'system-email', to: [email] }
      : { kind: 'cancel', reason: 'the person has no email address' };
  }
  if (recipient.kind === 'team-members') {
    const emails = await deps.repository.teamMemberEmails(recipient.teamId);
    return emails.length > 0
      ? { kind: 'system-email', to: emails }
      : { kind: 'cancel', reason: 'no member of the team has an email address' };
  }
  const entry =
    recipient.kind === 'team'
      ? teamChannels(await deps.repository.teamSpecNow(recipient.teamId))[recipient.index]
      : (row.custom_services ?? [])[recipient.index];
  if (!entry) return { kind: 'cancel', reason: 'the recipient was removed from the rule or team' };
  const channel = await channelOfEntry(entry, deps.resolveConnection);
  return typeof channel === 'string' ? { kind: 'cancel', reason: channel } : { kind: 'channel', channel };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createNotificationSender(deps: SenderDeps) {
  const bases: ServiceBases = { ...SERVICE_BASES, ...deps.bases };
  const timeoutMs = deps.timeoutMs ?? NOTIFICATION_DEFAULTS.sendTimeoutMs;

  async function deliver(row: SendableRow, signal: AbortSignal): Promise<void> {
    const delivery = await deliveryOf(row, deps);
    if (delivery.kind === 'cancel') {
      await deps.repository.markCancelled(row.id, delivery.reason);
      return;
    }
    const body = row.body;
    const message: OutgoingMessage = {
      id: row.id,
      title: row.title ?? '',
      body,
      html: markdownToHtml(body),
      text: markdownToText(body),
      properties: row.properties ?? {},
    };
    const started = performance.now();
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    try {
      if (delivery.kind === 'system-email') {
        if (!deps.systemSmtp) throw new Error('no SMTP server is set for email to people (LOOKOUT_SMTP_URL)');
        await sendSystemEmail(deps.systemSmtp.url, deps.systemSmtp.from, delivery.to.join(', '), message);
      } else {
        await SENDERS[delivery.channel.type](delivery.channel, message, { signal: both, bases });
      }
    } catch (error) {
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : errorText(error);
      await deps.repository.markFailed(row.id, reason, performance.now() - started);
      throw new Error(reason);
    }
    await deps.repository.markSent(row.id, performance.now() - started);
  }

  return {
    /** The async consumer's handler: the events it could not deliver go back to the queue. */
    async handle(batch: QueuedEvent[], { signal }: { signal: AbortSignal }): Promise<FailedEvent[]> {
      const failed: FailedEvent[] = [];
      const rows = await deps.repository.sendable(batch.flatMap((event) => (event.eventId ? [event.eventId] : [])));
      await Promise.all(
        batch.map(async (event) => {
          const row = event.eventId ? rows.get(event.eventId) : undefined;
          // Gone, or already decided (a repeat delivery after a crash): nothing to send.
          if (!row || (row.status !== 'pending' && row.status !== 'error')) return;
          try {
            await deliver(row, signal);
          } catch (error) {
            deps.logger.warn(
              { notification: row.notification_id, history: row.id, err: errorText(error) },
              'Notification not delivered',
            );
            failed.push({ event, error });
          }
        }),
      );
      return failed;
    },
  };
}
