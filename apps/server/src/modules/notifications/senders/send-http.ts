import { httpRequest, type HttpAnswer } from './http-client.js';
import type { Channel, SendContext } from './channel.js';

/** `path` under a base URL, keeping the base's own path. */
export function under(base: string | URL, path: string): URL {
  const text = String(base);
  // './' keeps a first segment with a colon (Telegram's bot<token>) from reading as a scheme.
  return new URL(`./${path.replace(/^\//, '')}`, text.endsWith('/') ? text : `${text}/`);
}

/** A self-hosted service's base URL from its `host` (and `port`) property. */
export function hostBase(channel: Channel): URL {
  const host = channel.properties.host?.trim();
  if (!host) throw new Error(`The ${channel.type} channel has no host`);
  const withScheme = /^https?:\/\//i.test(host) ? host : `${channel.insecureTls ? 'http' : 'https'}://${host}`;
  const url = new URL(withScheme);
  const port = channel.properties.port?.trim();
  if (port && !url.port) url.port = port;
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}

/** A credential the channel must have, or an error naming it. */
export function need(channel: Channel, value: string | undefined, label: string): string {
  const trimmed = value?.trim();
  if (!trimmed) throw new Error(`The ${channel.type} channel has no ${label}`);
  return trimmed;
}

export type Request = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  json?: unknown;
  form?: Record<string, string>;
};

/** One request; resolves with a 2xx answer, rejects with the status and the service's words. */
export async function send(url: URL, request: Request, channel: Channel, context: SendContext): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...request.headers };
  let body = request.body;
  if (request.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  const answer = await httpRequest(url, {
    method: request.method ?? 'POST',
    headers,
    ...(body !== undefined ? { body } : {}),
    insecureTls: channel.insecureTls,
    signal: context.signal,
  });
  if (answer.status < 200 || answer.status >= 300) {
    const words = answer.body.trim().slice(0, 300);
    throw new Error(`${channel.type}: ${answer.status} ${answer.statusText}${words ? `: ${words}` : ''}`);
  }
  return answer;
}

/** The answer's JSON object, or an empty one. */
export function jsonOf(answer: HttpAnswer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(answer.body);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
