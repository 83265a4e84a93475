import type { HttpAnswer } from './http-get.js';
import { jsonOf, statusMessage } from './http-get.js';
import type { ConnectionUnderTest } from './tester.js';

/**
 * Helpers of the notification testers, which each call one API of a chat or push service.
 * A service whose address is fixed (Slack, Discord, Telegram, ...) gets its API base from its
 * tester's factory, so tests point it at a local server speaking the documented format.
 */

/**
 * The base URL of a self-hosted service from its `host` property: `host[:port][/path]`, or a
 * full URL. A bare host gets https, or http when the connection turns TLS off (the form's
 * insecure TLS checkbox becomes `scheme=http` / `disableTLS=true` in the service URLs).
 */
export function serviceBaseUrl(connection: ConnectionUnderTest, fallbackHost?: string): URL {
  const host = connection.properties.host?.trim() || fallbackHost;
  if (!host) throw new Error(`The ${connection.type} connection has no host`);
  const port = connection.properties.port?.trim();
  const withScheme = /^https?:\/\//i.test(host) ? host : `${connection.insecureTls ? 'http' : 'https'}://${host}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error(`The ${connection.type} connection's host '${host}' is not a host name`);
  }
  if (port && !url.port) url.port = port;
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}

/** `path` under a base URL, keeping the base's own path. */
export function under(base: URL | string, path: string): URL {
  const text = String(base);
  return new URL(path.replace(/^\//, ''), text.endsWith('/') ? text : `${text}/`);
}

/** A required credential, or an error naming the form's label for it. */
export function required(connection: ConnectionUnderTest, value: string | undefined, label: string): string {
  const trimmed = value?.trim();
  if (!trimmed) throw new Error(`The ${connection.type} connection has no ${label}`);
  return trimmed;
}

/** The answer's JSON object, or an empty one. */
export function jsonObject(answer: HttpAnswer): Record<string, unknown> {
  const body = jsonOf(answer);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** A failed answer as an Error: the status, then the service's own words when there are some. */
export function serviceError(answer: HttpAnswer, words?: unknown): Error {
  return new Error(statusMessage(answer, typeof words === 'string' && words ? words : undefined));
}
