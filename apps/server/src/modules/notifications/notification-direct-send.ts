import type { ResolvedConnection } from '../connections/connections-service.js';
import { markdownToHtml, markdownToText } from './notification-template-fns.js';
import { channelOfConnection, SERVICE_BASES, type Channel } from './senders/channel.js';
import { SENDERS } from './senders/registry.js';
import { parseServiceUrl } from './senders/service-url-fns.js';

/** Where a direct message goes: a notification connection or a shoutrrr-style service URL. */
export type DirectTarget = {
  connection?: string | undefined;
  url?: string | undefined;
  properties?: Record<string, string> | undefined;
};

export type DirectMessage = { title: string; body: string };

/**
 * Sends one message straight through the senders, outside rules and send history: what other
 * modules use to notify (playbooks' `notification` action, incidents' team responders). Answers
 * the service type used; rejects with the service's own words. `secrets` receives the
 * credentials it opened, so the caller can mask them in what it stores.
 */
export function createDirectSender(deps: {
  resolveConnection: (reference: string) => Promise<ResolvedConnection>;
  bases?: typeof SERVICE_BASES | undefined;
}) {
  return async (
    target: DirectTarget,
    message: DirectMessage,
    signal: AbortSignal,
    secrets?: Set<string>,
  ): Promise<string> => {
    let channel: Channel;
    if (target.connection) channel = channelOfConnection(await deps.resolveConnection(target.connection));
    else {
      const parsed = parseServiceUrl(target.url ?? '');
      if (!parsed.ok) throw new Error(parsed.error);
      channel = parsed.channel;
    }
    if (channel.password) secrets?.add(channel.password);
    channel = { ...channel, properties: { ...channel.properties, ...(target.properties ?? {}) } };
    const sender = SENDERS[channel.type];
    if (!sender) throw new Error(`no sender for ${String(channel.type)}`);
    await sender(
      channel,
      {
        id: crypto.randomUUID(),
        title: message.title,
        body: message.body,
        html: markdownToHtml(message.body),
        text: markdownToText(message.body),
        properties: target.properties ?? {},
      },
      { signal, bases: deps.bases ?? SERVICE_BASES },
    );
    return channel.type;
  };
}

export type DirectSender = ReturnType<typeof createDirectSender>;
