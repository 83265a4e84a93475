import type { ConnectionUnderTest } from './tester.js';

/** Pure helpers the testers share. */

/** The connection's url, or a clear error when it has none. */
export function requireUrl(connection: ConnectionUnderTest, what = 'URL'): string {
  const url = connection.url?.trim();
  if (!url) throw new Error(`The ${connection.type} connection has no ${what}`);
  return url;
}

/**
 * A database URL with the connection's username and password set, unless the url already
 * carries its own. Values are percent-encoded as URLs need.
 */
export function urlWithCredentials(text: string, connection: Pick<ConnectionUnderTest, 'username' | 'password'>): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`'${redactedText(text)}' is not a URL`);
  }
  if (!url.username && connection.username) url.username = encodeURIComponent(connection.username);
  if (!url.password && connection.password) url.password = encodeURIComponent(connection.password);
  return url;
}

/** A text that may be a URL, without its password, for messages. */
export function redactedText(text: string): string {
  return text.replace(/(:\/\/[^:/@\s]*:)[^@\s]*@/, '$1***@');
}

/** `host:port` (and the path) of a URL, for messages; never the credentials. */
export function where(url: URL): string {
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** An error's own words, or the thrown value as text. */
export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** A promise that rejects with the signal's reason when it fires. */
export function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const fire = () => reject(signal.reason instanceof Error ? signal.reason : new Error('The test was cancelled'));
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}
