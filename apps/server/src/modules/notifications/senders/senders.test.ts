import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../../test/notification-helpers.js';
import type { Channel, OutgoingMessage, SendContext } from './channel.js';
import { SENDERS } from './registry.js';

/*
 * Each sender against a local HTTP receiver, checking the request each service documents:
 * method, path, auth header and body. These services were tested against their documented
 * format only, not the real service (docs/notifications.md).
 */

let receiver: Receiver;
let context: SendContext;
const host = () => receiver.url.replace('http://', '');

const message: OutgoingMessage = {
  id: '0190a4b2-0000-7000-8000-0000000000aa',
  title: 'Check api has failed',
  body: '**api** is down',
  html: '<p><strong>api</strong> is down</p>',
  text: 'api is down',
  properties: {},
};

const channel = (type: Channel['type'], fields: Partial<Channel>): Channel => ({
  type,
  insecureTls: true,
  properties: {},
  ...fields,
});
const only = () => {
  expect(receiver.requests).toHaveLength(1);
  const request = receiver.requests[0]!;
  return { ...request, json: () => JSON.parse(request.body) as Record<string, unknown> };
};

beforeAll(async () => {
  receiver = await startReceiver((request) => {
    if (request.url.includes('/login')) return { status: 200, body: '{"access_token":"session-token"}' };
    if (request.url.includes('/directory/room/')) return { status: 200, body: '{"room_id":"!resolved:matrix.test"}' };
    return undefined;
  });
  const base = receiver.url;
  context = {
    signal: new AbortController().signal,
    bases: {
      slack: `${base}/slack/api/`,
      discord: `${base}/discord/api/`,
      telegram: `${base}/telegram/`,
      pushover: `${base}/pushover/1/`,
      pushbullet: `${base}/pushbullet/v2/`,
      ifttt: `${base}/ifttt/`,
      googleChat: `${base}/chat/`,
    },
  };
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.requests.length = 0;
});

describe('chat services', () => {
  it('Slack: chat.postMessage with the bot token', async () => {
    await SENDERS.slack(
      channel('slack', { username: 'C0001', password: 'xoxb-1', properties: { fromName: 'Lookout' } }),
      message,
      context,
    );
    const request = only();
    expect(request).toMatchObject({ method: 'POST', url: '/slack/api/chat.postMessage' });
    expect(request.headers.authorization).toBe('Bearer xoxb-1');
    expect(request.json()).toEqual({
      channel: 'C0001',
      text: '*Check api has failed*\n\n**api** is down',
      username: 'Lookout',
    });
  });

  it('Slack: a refused message ({ok: false}) is an error', async () => {
    receiver.answers.push({ status: 200, body: '{"ok":false,"error":"channel_not_found"}' });
    await expect(SENDERS.slack(channel('slack', { username: 'C0', password: 'x' }), message, context)).rejects.toThrow(
      'slack: channel_not_found',
    );
  });

  it('Slack incoming webhook: {text}', async () => {
    await SENDERS.slackwebhook(channel('slackwebhook', { url: `${receiver.url}/services/T/B/C` }), message, context);
    expect(only()).toMatchObject({ method: 'POST', url: '/services/T/B/C' });
    expect(only().json()).toEqual({ text: '*Check api has failed*\n\n**api** is down' });
  });

  it('Microsoft Teams: a MessageCard to the incoming webhook', async () => {
    await SENDERS.teams(
      channel('teams', { properties: { host: receiver.url, group: 'g', tenant: 't', altID: 'a', groupOwner: 'o' } }),
      message,
      context,
    );
    expect(only().url).toBe('/webhookb2/g@t/IncomingWebhook/a/o');
    expect(only().json()).toEqual({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: message.title,
      title: message.title,
      text: message.body,
    });
  });

  it('Discord: the webhook with content', async () => {
    await SENDERS.discord(channel('discord', { username: '112233', password: 'tok' }), message, context);
    expect(only().url).toBe('/discord/api/webhooks/112233/tok');
    expect(only().json()).toEqual({ content: '**Check api has failed**\n\n**api** is down' });
  });

  it('Mattermost: the incoming webhook with channel and username', async () => {
    await SENDERS.mattermost(
      channel('mattermost', {
        password: 'hooktoken',
        username: 'bot',
        properties: { host: host(), channel: 'alerts' },
      }),
      message,
      context,
    );
    expect(only().url).toBe('/hooks/hooktoken');
    expect(only().json()).toEqual({
      text: '#### Check api has failed\n\n**api** is down',
      username: 'bot',
      channel: 'alerts',
    });
  });

  it('Rocket.Chat: the incoming webhook with its two tokens', async () => {
    await SENDERS.rocketchat(
      channel('rocketchat', { username: 'A', password: 'B', properties: { host: host(), channel: '#ops' } }),
      message,
      context,
    );
    expect(only().url).toBe('/hooks/A/B');
    expect(only().json()).toEqual({ text: '*Check api has failed*\n\n**api** is down', channel: '#ops' });
  });

  it('Google Chat: the space webhook with key and token', async () => {
    await SENDERS.google_chat(
      channel('google_chat', { username: 'k', password: 't', properties: { webhook: 'AAA' } }),
      message,
      context,
    );
    expect(only().url).toBe('/chat/v1/spaces/AAA/messages?key=k&token=t');
    expect(only().json()).toEqual({ text: '*Check api has failed*\n\napi is down' });
  });

  it('Telegram: sendMessage per chat', async () => {
    await SENDERS.telegram(channel('telegram', { password: '123:abc', username: '@ops, 42' }), message, context);
    expect(receiver.requests.map((r) => r.url)).toEqual([
      '/telegram/bot123:abc/sendMessage',
      '/telegram/bot123:abc/sendMessage',
    ]);
    expect(receiver.requests.map((r) => JSON.parse(r.body).chat_id)).toEqual(['@ops', '42']);
  });
});

describe('push and paging services', () => {
  it('ntfy: a publish to the topic with title and basic auth', async () => {
    await SENDERS.ntfy(
      channel('ntfy', { username: 'phil', password: 'pw', properties: { host: host(), topic: 'alerts' } }),
      message,
      context,
    );
    const request = only();
    expect(request).toMatchObject({ method: 'POST', url: '/alerts', body: '**api** is down' });
    expect(request.headers).toMatchObject({
      title: message.title,
      markdown: 'yes',
      authorization: `Basic ${Buffer.from('phil:pw').toString('base64')}`,
    });
  });

  it('Pushover: messages.json, form encoded', async () => {
    await SENDERS.pushover(channel('pushover', { username: 'user', password: 'app' }), message, context);
    expect(only().url).toBe('/pushover/1/messages.json');
    expect(only().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(only().body))).toEqual({
      token: 'app',
      user: 'user',
      title: message.title,
      message: 'api is down',
    });
  });

  it('Pushbullet: a note per target', async () => {
    await SENDERS.pushbullet(
      channel('pushbullet', { password: 'o.tok', properties: { targets: 'dev1/#chan/a@x.test' } }),
      message,
      context,
    );
    expect(receiver.requests.map((r) => r.url)).toEqual([
      '/pushbullet/v2/pushes',
      '/pushbullet/v2/pushes',
      '/pushbullet/v2/pushes',
    ]);
    expect(receiver.requests[0]?.headers['access-token']).toBe('o.tok');
    expect(receiver.requests.map((r) => JSON.parse(r.body))).toEqual([
      { type: 'note', title: message.title, body: 'api is down', device_iden: 'dev1' },
      { type: 'note', title: message.title, body: 'api is down', channel_tag: 'chan' },
      { type: 'note', title: message.title, body: 'api is down', email: 'a@x.test' },
    ]);
  });

  it('Opsgenie: an alert with the GenieKey', async () => {
    await SENDERS.opsgenie(channel('opsgenie', { password: 'key', properties: { host: host() } }), message, context);
    expect(only().url).toBe('/v2/alerts');
    expect(only().headers.authorization).toBe('GenieKey key');
    expect(only().json()).toEqual({ message: message.title, description: 'api is down', alias: message.id });
  });

  it('Matrix: login, alias lookup, a message event per room, logout', async () => {
    await SENDERS.matrix(
      channel('matrix', {
        username: 'bot',
        password: 'pw',
        properties: { host: host(), rooms: '!a:matrix.test,#ops:matrix.test' },
      }),
      message,
      context,
    );
    const urls = receiver.requests.map((r) => `${r.method} ${r.url.replace(/\/[0-9a-f-]{36}$/, '/<txn>')}`);
    expect(urls).toEqual([
      'POST /_matrix/client/v3/login',
      'GET /_matrix/client/v3/directory/room/%23ops%3Amatrix.test',
      'PUT /_matrix/client/v3/rooms/!a%3Amatrix.test/send/m.room.message/<txn>',
      'PUT /_matrix/client/v3/rooms/!resolved%3Amatrix.test/send/m.room.message/<txn>',
      'POST /_matrix/client/v3/logout',
    ]);
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: 'bot' },
      password: 'pw',
    });
    expect(receiver.requests[2]?.headers.authorization).toBe('Bearer session-token');
    expect(JSON.parse(receiver.requests[2]!.body)).toMatchObject({
      msgtype: 'm.text',
      body: `${message.title}\n\napi is down`,
    });
  });

  it('Zulip: a stream message with basic auth', async () => {
    await SENDERS.zulip_chat(
      channel('zulip_chat', {
        username: 'bot@z.test',
        password: 'key',
        properties: { host: host(), stream: 'ops', topic: 'alerts' },
      }),
      message,
      context,
    );
    expect(only().url).toBe('/api/v1/messages');
    expect(only().headers.authorization).toBe(`Basic ${Buffer.from('bot@z.test:key').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(only().body))).toEqual({
      type: 'stream',
      to: 'ops',
      topic: 'alerts',
      content: `**${message.title}**\n\n**api** is down`,
    });
  });

  it('IFTTT: a Maker trigger per event with value1..3', async () => {
    await SENDERS.ifttt(channel('ifttt', { password: 'key', properties: { events: 'down,page' } }), message, context);
    expect(receiver.requests.map((r) => r.url)).toEqual([
      '/ifttt/trigger/down/with/key/key',
      '/ifttt/trigger/page/with/key/key',
    ]);
    expect(JSON.parse(receiver.requests[0]!.body)).toEqual({
      value1: message.title,
      value2: 'api is down',
      value3: message.id,
    });
  });
});

describe('webhooks and the folder', () => {
  it('webhook: POST JSON with basic auth, headers and the idempotency header', async () => {
    await SENDERS.webhook(
      channel('webhook', {
        url: `${receiver.url}/hook?x=1`,
        username: 'u',
        password: 'p',
        properties: { method: 'POST', headers: '{"X-Team":"ops"}', 'header.X-Env': 'prod' },
      }),
      message,
      context,
    );
    const request = only();
    expect(request).toMatchObject({ method: 'POST', url: '/hook?x=1' });
    expect(request.headers).toMatchObject({
      'x-team': 'ops',
      'x-env': 'prod',
      'x-lookout-notification-id': message.id,
      'content-type': 'application/json',
    });
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(request.json()).toEqual({ title: message.title, message: message.body, id: message.id });
  });

  it('webhook: GET with the message in the query', async () => {
    await SENDERS.webhook(
      channel('webhook', { url: `${receiver.url}/get`, properties: { method: 'GET' } }),
      message,
      context,
    );
    const url = new URL(only().url, receiver.url);
    expect(only().method).toBe('GET');
    expect(Object.fromEntries(url.searchParams)).toEqual({ title: message.title, message: 'api is down' });
  });

  it('generic webhook: its keys, and a JSON template', async () => {
    await SENDERS.generic_webhook(
      channel('generic_webhook', {
        properties: { webhookUrl: `${receiver.url}/generic`, key: 'msg', titleKey: 'subject', requestMethod: 'POST' },
      }),
      message,
      context,
    );
    expect(only().json()).toEqual({ subject: message.title, msg: message.body, id: message.id });
    receiver.requests.length = 0;
    await SENDERS.generic_webhook(
      channel('generic_webhook', {
        properties: {
          webhookUrl: `${receiver.url}/generic`,
          template: '{"alert": {{title}}, "text": "Lookout: {{text}}", "ref": {{id}}}',
        },
      }),
      { ...message, title: 'say "hi"' },
      context,
    );
    expect(only().json()).toEqual({ alert: 'say "hi"', text: 'Lookout: api is down', ref: message.id });
  });

  it('a non-2xx answer is an error with the status and the service’s words', async () => {
    receiver.answers.push({ status: 500, body: 'boom' });
    await expect(SENDERS.webhook(channel('webhook', { url: `${receiver.url}/x` }), message, context)).rejects.toThrow(
      'webhook: 500 Internal Server Error: boom',
    );
  });

  it('folder: one file per message, named by its id', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'lookout-folder-'));
    try {
      const target = path.join(folder, 'out');
      await SENDERS.folder(channel('folder', { properties: { path: target } }), message, context);
      await SENDERS.folder(channel('folder', { properties: { path: target } }), message, context);
      expect(await readdir(target)).toEqual([`${message.id}.md`]);
      expect(await readFile(path.join(target, `${message.id}.md`), 'utf8')).toBe(
        `# ${message.title}\n\n**api** is down\n`,
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
