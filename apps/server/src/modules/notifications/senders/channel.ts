import type { NotificationConnectionType } from '@lookout/contracts';
import type { ResolvedConnection } from '../../connections/connections-service.js';

/**
 * Where one message goes, whatever named it: a connection (its columns and properties, every
 * credential opened) or a shoutrrr-style URL read into the same fields (service-url-fns.ts).
 * The field names are the connection form's (connection-fields.ts), so a sender reads one
 * shape.
 */
export type Channel = {
  type: NotificationConnectionType;
  url?: string;
  username?: string;
  password?: string;
  insecureTls: boolean;
  properties: Readonly<Record<string, string>>;
};

/** A stored connection (credentials opened) as a channel. */
export function channelOfConnection(connection: ResolvedConnection): Channel {
  return {
    type: connection.type as Channel['type'],
    ...(connection.url ? { url: connection.url } : {}),
    ...(connection.username ? { username: connection.username } : {}),
    ...(connection.password ? { password: connection.password } : {}),
    insecureTls: connection.insecureTls,
    properties: connection.properties,
  };
}

/** One rendered message. */
export type OutgoingMessage = {
  /** The history row's id: sent along as an idempotency key where the service takes one. */
  id: string;
  title: string;
  /** Markdown. */
  body: string;
  /** The body as HTML (email) and as plain text (services without formatting). */
  html: string;
  text: string;
  /** The rule's properties (e.g. a webhook's JSON template). */
  properties: Readonly<Record<string, unknown>>;
};

/** Addresses of the services whose address is fixed; tests point them at local receivers. */
export type ServiceBases = {
  slack: string;
  discord: string;
  telegram: string;
  pushover: string;
  pushbullet: string;
  ifttt: string;
  googleChat: string;
};

export const SERVICE_BASES: ServiceBases = {
  slack: 'https://slack.com/api/',
  discord: 'https://discord.com/api/',
  telegram: 'https://api.telegram.org/',
  pushover: 'https://api.pushover.net/1/',
  pushbullet: 'https://api.pushbullet.com/v2/',
  ifttt: 'https://maker.ifttt.com/',
  googleChat: 'https://chat.googleapis.com/',
};

export type SendContext = { signal: AbortSignal; bases: ServiceBases };

/** Delivers one message through one channel; rejects with the service's own words. */
export type Sender = (channel: Channel, message: OutgoingMessage, context: SendContext) => Promise<void>;
