import { randomUUID } from 'node:crypto';
import type { Sender } from './channel.js';
import { hostBase, list, need, send, under } from './send-http.js';

/**
 * Push and paging services and self-hosted chat with their own APIs, each in its documented
 * format: ntfy (publish), Pushover (messages.json), Pushbullet (pushes), Opsgenie (alerts v2),
 * Matrix (client-server API: login when a user is given, room message events), Zulip (stream
 * messages) and IFTTT (Maker webhooks, value1..3).
 */

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export const sendNtfy: Sender = async (channel, message, context) => {
  const topic = need(channel, channel.properties.topic, 'topic');
  const headers: Record<string, string> = {
    title: message.title,
    markdown: 'yes',
    'x-lookout-notification-id': message.id,
  };
  if (channel.username && channel.password) headers.authorization = basic(channel.username, channel.password);
  else if (channel.password) headers.authorization = `Bearer ${channel.password}`;
  await send(under(hostBase(channel), encodeURIComponent(topic)), { headers, body: message.body }, channel, context);
};

export const sendPushover: Sender = async (channel, message, context) => {
  await send(
    under(context.bases.pushover, 'messages.json'),
    {
      form: {
        token: need(channel, channel.password, 'API token'),
        user: need(channel, channel.username, 'user key'),
        title: message.title,
        message: message.text,
      },
    },
    channel,
    context,
  );
};

export const sendPushbullet: Sender = async (channel, message, context) => {
  const token = need(channel, channel.password, 'token');
  const targets = (channel.properties.targets ?? '')
    .split('/')
    .map((t) => t.trim())
    .filter(Boolean);
  // No target: every device of the account.
  for (const target of targets.length > 0 ? targets : ['']) {
    const to = target.startsWith('#')
      ? { channel_tag: target.slice(1) }
      : target.includes('@')
        ? { email: target }
        : target
          ? { device_iden: target }
          : {};
    await send(
      under(context.bases.pushbullet, 'pushes'),
      { headers: { 'access-token': token }, json: { type: 'note', title: message.title, body: message.text, ...to } },
      channel,
      context,
    );
  }
};

export const sendOpsgenie: Sender = async (channel, message, context) => {
  const key = need(channel, channel.password, 'API key');
  await send(
    under(hostBase(channel), 'v2/alerts'),
    {
      headers: { authorization: `GenieKey ${key}` },
      // Opsgenie's message holds at most 130 characters; the alias de-duplicates retries.
      json: { message: message.title.slice(0, 130), description: message.text.slice(0, 15_000), alias: message.id },
    },
    channel,
    context,
  );
};

async function matrixRooms(
  channel: Parameters<Sender>[0],
  base: URL,
  token: string,
  context: Parameters<Sender>[2],
): Promise<string[]> {
  const auth = { authorization: `Bearer ${token}` };
  const named = list(channel.properties.rooms);
  if (named.length === 0) {
    const answer = await send(under(base, 'joined_rooms'), { method: 'GET', headers: auth }, channel, context);
    const rooms = (JSON.parse(answer.body) as { joined_rooms?: unknown }).joined_rooms;
    return Array.isArray(rooms) ? rooms.filter((room): room is string => typeof room === 'string') : [];
  }
  const ids: string[] = [];
  for (const room of named) {
    if (!room.startsWith('#')) {
      ids.push(room);
      continue;
    }
    const answer = await send(
      under(base, `directory/room/${encodeURIComponent(room)}`),
      { method: 'GET', headers: auth },
      channel,
      context,
    );
    const id = (JSON.parse(answer.body) as { room_id?: unknown }).room_id;
    if (typeof id !== 'string') throw new Error(`matrix: room ${room} was not found`);
    ids.push(id);
  }
  return ids;
}

export const sendMatrix: Sender = async (channel, message, context) => {
  const secret = need(channel, channel.password, 'password or access token');
  const base = under(hostBase(channel), '_matrix/client/v3/');
  let token = secret;
  const user = channel.username?.trim();
  if (user) {
    const login = await send(
      under(base, 'login'),
      {
        json: {
          type: 'm.login.password',
          identifier: { type: 'm.id.user', user },
          password: secret,
          initial_device_display_name: 'Lookout notifications',
        },
      },
      channel,
      context,
    );
    const issued = (JSON.parse(login.body) as { access_token?: unknown }).access_token;
    if (typeof issued !== 'string') throw new Error('matrix: the login gave no access token');
    token = issued;
  }
  try {
    const rooms = await matrixRooms(channel, base, token, context);
    if (rooms.length === 0) throw new Error('matrix: the account has joined no room to send to');
    for (const room of rooms) {
      await send(
        under(base, `rooms/${encodeURIComponent(room)}/send/m.room.message/${randomUUID()}`),
        {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}` },
          json: {
            msgtype: 'm.text',
            body: `${message.title}\n\n${message.text}`,
            format: 'org.matrix.custom.html',
            formatted_body: `<h4>${message.title.replace(/</g, '&lt;')}</h4>${message.html}`,
          },
        },
        channel,
        context,
      );
    }
  } finally {
    // A session opened for this message is closed again.
    if (user)
      await send(
        under(base, 'logout'),
        { headers: { authorization: `Bearer ${token}` }, json: {} },
        channel,
        context,
      ).catch(() => undefined);
  }
};

export const sendZulip: Sender = async (channel, message, context) => {
  const email = need(channel, channel.username, 'bot email');
  const key = need(channel, channel.password, 'bot key');
  await send(
    under(hostBase(channel), 'api/v1/messages'),
    {
      headers: { authorization: basic(email, key) },
      form: {
        type: 'stream',
        to: need(channel, channel.properties.stream, 'stream'),
        topic: channel.properties.topic || message.title.slice(0, 60),
        content: `**${message.title}**\n\n${message.body}`,
      },
    },
    channel,
    context,
  );
};

export const sendIfttt: Sender = async (channel, message, context) => {
  const key = need(channel, channel.password, 'webhook key');
  const events = list(need(channel, channel.properties.events, 'events'));
  for (const event of events) {
    await send(
      under(context.bases.ifttt, `trigger/${encodeURIComponent(event)}/with/key/${encodeURIComponent(key)}`),
      { json: { value1: message.title, value2: message.text, value3: message.id } },
      channel,
      context,
    );
  }
};
