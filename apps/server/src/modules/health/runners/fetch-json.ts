import { SERVER_VERSION } from '../../../version.js';
import { displayUrl } from './http-fns.js';
import { CheckFailure } from './runner-harness.js';
import { describeNetworkError, errorText, truncate } from './runner-fns.js';

/** A JSON answer: the services put their own error text in the body of error statuses. */
export type JsonAnswer = { ok: boolean; status: number; body: unknown };

/**
 * GETs JSON from a monitoring API (Prometheus, Alertmanager). Unreachable services and answers
 * that are not JSON become a {@link CheckFailure} that names the service; error statuses with a
 * JSON body are returned, so the caller can quote the service's own explanation.
 */
export async function fetchJson(
  service: string,
  base: string,
  pathAndQuery: string,
  signal: AbortSignal,
): Promise<JsonAnswer> {
  const url = new URL(pathAndQuery, base.endsWith('/') ? base : `${base}/`);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `lookout/${SERVER_VERSION}` };
  // fetch refuses URLs with credentials, so user:password@ in the URL becomes basic auth.
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { headers, signal, redirect: 'follow' });
    text = await response.text();
  } catch (error) {
    throw new CheckFailure(`could not reach ${service} at ${displayUrl(url)}: ${describeNetworkError(error)}`, {
      error: errorText(error),
    });
  }
  try {
    return { ok: response.ok, status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    const what = response.ok ? 'did not answer with JSON' : `answered ${response.status}`;
    throw new CheckFailure(
      `${service} at ${displayUrl(url)} ${what}: ${truncate(text.trim(), 300) || 'an empty body'}`,
    );
  }
}
