import type { Sender } from './channel.js';
import { hostBase, jsonOf, list, need, send, under } from './send-http.js';

/**
 * Chat services that take a message in one request, each in its documented format:
 * Slack (chat.postMessage with a bot token, or an incoming webhook), Microsoft Teams
 * (incoming webhook MessageCard), Discord (webhook), Mattermost and Rocket.Chat (incoming
 * webhooks), Google Chat (space webhook) and Telegram (Bot API sendMessage).
 */

const heading = (title: string, text: string) => (title ? `${title}\n\n${text}` : text);

export const sendSlack: Sender = async (channel, message, context) => {
  const token = need(channel, channel.password, 'bot token');
  const answer = await send(
    under(context.bases.slack, 'chat.postMessage'),
    {
      headers: { authorization: `Bearer ${token}` },
      json: {
        channel: need(channel, channel.username, 'channel'),
        text: heading(`*${message.title}*`, message.body),
        ...(channel.properties.fromName ? { username: channel.properties.fromName } : {}),
      },
    },
    channel,
    context,
  );
  // Slack answers 200 with {ok: false, error} for a refused message.
  const body = jsonOf(answer);
  if (body.ok !== true)
    throw new Error(`slack: ${typeof body.error === 'string' ? body.error : 'the message was refused'}`);
};

export const sendSlackWebhook: Sender = async (channel, message, context) => {
  const url = new URL(need(channel, channel.url, 'webhook URL'));
  await send(url, { json: { text: heading(`*${message.title}*`, message.body) } }, channel, context);
};

export const sendTeams: Sender = async (channel, message, context) => {
  const p = channel.properties;
  const host = need(channel, p.host, 'host');
  const group = p.group ? `${encodeURIComponent(p.group)}@` : '';
  const base = /^https?:\/\//.test(host) ? host : `https://${host}`;
  const url = under(
    base,
    `webhookb2/${group}${encodeURIComponent(need(channel, p.tenant, 'tenant'))}/IncomingWebhook/${encodeURIComponent(need(channel, p.altID, 'alt ID'))}/${encodeURIComponent(need(channel, p.groupOwner, 'group owner'))}`,
  );
  await send(
    url,
    {
      json: {
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        summary: message.title,
        title: message.title,
        text: message.body,
      },
    },
    channel,
    context,
  );
};

export const sendDiscord: Sender = async (channel, message, context) => {
  const id = need(channel, channel.username, 'webhook ID');
  const token = need(channel, channel.password, 'token');
  // Discord's content holds at most 2000 characters.
  const content = heading(`**${message.title}**`, message.body).slice(0, 2000);
  await send(
    under(context.bases.discord, `webhooks/${encodeURIComponent(id)}/${encodeURIComponent(token)}`),
    { json: { content } },
    channel,
    context,
  );
};

export const sendMattermost: Sender = async (channel, message, context) => {
  const token = need(channel, channel.password, 'token');
  await send(
    under(hostBase(channel), `hooks/${encodeURIComponent(token)}`),
    {
      json: {
        text: heading(`#### ${message.title}`, message.body),
        ...(channel.username ? { username: channel.username } : {}),
        ...(channel.properties.channel ? { channel: channel.properties.channel } : {}),
      },
    },
    channel,
    context,
  );
};

export const sendRocketChat: Sender = async (channel, message, context) => {
  const tokenA = need(channel, channel.username, 'token A');
  const tokenB = need(channel, channel.password, 'token B');
  await send(
    under(hostBase(channel), `hooks/${encodeURIComponent(tokenA)}/${encodeURIComponent(tokenB)}`),
    {
      json: {
        text: heading(`*${message.title}*`, message.body),
        ...(channel.properties.channel ? { channel: channel.properties.channel } : {}),
        ...(channel.properties.user ? { username: channel.properties.user } : {}),
      },
    },
    channel,
    context,
  );
};

export const sendGoogleChat: Sender = async (channel, message, context) => {
  const space = need(channel, channel.properties.webhook, 'space');
  const url = under(context.bases.googleChat, `v1/spaces/${encodeURIComponent(space)}/messages`);
  url.searchParams.set('key', need(channel, channel.username, 'key'));
  url.searchParams.set('token', need(channel, channel.password, 'token'));
  await send(url, { json: { text: heading(`*${message.title}*`, message.text) } }, channel, context);
};

export const sendTelegram: Sender = async (channel, message, context) => {
  const token = need(channel, channel.password, 'bot token');
  const chats = list(need(channel, channel.username, 'chats'));
  for (const chat of chats) {
    const answer = await send(
      under(context.bases.telegram, `bot${token}/sendMessage`),
      { json: { chat_id: chat, text: heading(message.title, message.text) } },
      channel,
      context,
    );
    if (jsonOf(answer).ok !== true) throw new Error(`telegram: chat ${chat} refused the message`);
  }
};
