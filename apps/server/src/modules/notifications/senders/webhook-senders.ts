import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Channel, OutgoingMessage, Sender } from './channel.js';
import { need, send } from './send-http.js';

/**
 * Webhooks and the folder. A webhook (`webhook`: url, method, basic auth; `generic_webhook`:
 * shoutrrr's generic service with its message and title keys) POSTs JSON or GETs with the
 * message in the query. Extra headers come from the `headers` property (a JSON object) and
 * `header.<Name>` properties; a `template` property is the JSON body, with `{{title}}`,
 * `{{body}}`, `{{text}}` and `{{id}}` replaced by the message's parts as JSON strings. Each
 * request carries `X-Lookout-Notification-Id`, so a receiver can drop a repeat delivery.
 */

function headersOf(channel: Channel): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = channel.properties.headers;
  if (raw) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new Error(`${channel.type}: the headers property is not a JSON object`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error(`${channel.type}: the headers property is not a JSON object`);
    for (const [name, value] of Object.entries(parsed)) headers[name.toLowerCase()] = String(value);
  }
  for (const [key, value] of Object.entries(channel.properties)) {
    if (key.startsWith('header.')) headers[key.slice('header.'.length).toLowerCase()] = value;
  }
  return headers;
}

/** The body of a JSON template with the message's parts in place. */
export function fillJsonTemplate(template: string, message: OutgoingMessage): string {
  const parts: Record<string, string> = {
    title: message.title,
    body: message.body,
    text: message.text,
    id: message.id,
  };
  // Inside a JSON string ("…{{title}}…") the part is escaped without its quotes; elsewhere it is a whole JSON string.
  return template.replace(
    /("?)\{\{\s*(title|body|text|id)\s*\}\}("?)/g,
    (_all, open: string, key: string, close: string) => {
      const json = JSON.stringify(parts[key] ?? '');
      return open && close ? json : `${open}${open || close ? json.slice(1, -1) : json}${close}`;
    },
  );
}

async function callWebhook(
  channel: Channel,
  message: OutgoingMessage,
  context: Parameters<Sender>[2],
  target: { url: string; method: string; messageKey: string; titleKey: string; contentType: string },
): Promise<void> {
  const url = new URL(target.url);
  const headers: Record<string, string> = { ...headersOf(channel), 'x-lookout-notification-id': message.id };
  if (channel.username || channel.password) {
    headers.authorization = `Basic ${Buffer.from(`${channel.username ?? ''}:${channel.password ?? ''}`).toString('base64')}`;
  }
  const method = target.method.toUpperCase() === 'GET' ? 'GET' : 'POST';
  if (method === 'GET') {
    url.searchParams.set(target.titleKey, message.title);
    url.searchParams.set(target.messageKey, message.text);
    await send(url, { method, headers }, channel, context);
    return;
  }
  const template = channel.properties.template;
  const body = template
    ? fillJsonTemplate(template, message)
    : JSON.stringify({ [target.titleKey]: message.title, [target.messageKey]: message.body, id: message.id });
  if (template) {
    try {
      JSON.parse(body);
    } catch {
      throw new Error(`${channel.type}: the template is not JSON once filled in`);
    }
  }
  await send(url, { method, headers: { 'content-type': target.contentType, ...headers }, body }, channel, context);
}

export const sendWebhook: Sender = (channel, message, context) =>
  callWebhook(channel, message, context, {
    url: need(channel, channel.url, 'URL'),
    method: channel.properties.method ?? 'POST',
    messageKey: 'message',
    titleKey: 'title',
    contentType: 'application/json',
  });

export const sendGenericWebhook: Sender = (channel, message, context) =>
  callWebhook(channel, message, context, {
    url: need(channel, channel.properties.webhookUrl ?? channel.url, 'URL'),
    method: channel.properties.requestMethod ?? 'POST',
    messageKey: channel.properties.key || 'message',
    titleKey: channel.properties.titleKey || 'title',
    contentType: channel.properties.contentType || 'application/json',
  });

/**
 * A file per message in the folder: `<id>.md` (the history row's id, so a repeat delivery
 * rewrites the same file), written to a temporary name and renamed, so a reader never sees
 * half a message.
 */
export const sendToFolder: Sender = async (channel, message) => {
  const folder = need(channel, channel.properties.path, 'path');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${message.id}.md`);
  const partial = `${file}.partial`;
  await writeFile(partial, `# ${message.title}\n\n${message.body}\n`, 'utf8');
  await rename(partial, file);
};
