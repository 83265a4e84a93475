import http from 'node:http';
import https from 'node:https';
import { SERVER_VERSION } from '../../../version.js';
import type { ConnectionUnderTest } from './tester.js';
import { requireUrl } from './tester-fns.js';

/** What a GET answered; the body is cut at {@link MAX_BODY_BYTES}. */
export type HttpAnswer = { status: number; statusText: string; contentType: string; body: string };

const MAX_BODY_BYTES = 64 * 1024;
const MAX_REDIRECTS = 5;

/**
 * The request a connection makes: its url without credentials, and the Authorization header
 * they become. A user (in the url or the username field) means basic auth with the password;
 * a password without a user, or a `bearer`/`token` property, means a bearer token.
 */
export function httpRequestOf(
  connection: ConnectionUnderTest,
  path = '',
): { url: URL; headers: Record<string, string> } {
  const text = requireUrl(connection);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`'${text.replace(/(:\/\/[^:/@]*:)[^@]*@/, '$1***@')}' is not a URL; write https://host/path`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The URL must start with http:// or https://, not ${url.protocol}//`);
  }
  const user = url.username ? decodeURIComponent(url.username) : connection.username;
  const password = url.password ? decodeURIComponent(url.password) : connection.password;
  url.username = '';
  url.password = '';
  if (path) url = new URL(path, url.href.endsWith('/') ? url.href : `${url.href}/`);
  const headers: Record<string, string> = {
    accept: 'application/json, */*;q=0.5',
    'user-agent': `lookout/${SERVER_VERSION}`,
  };
  const token = connection.properties.bearer ?? connection.properties.token;
  if (user) headers.authorization = `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}`;
  else if (password) headers.authorization = `Bearer ${password}`;
  else if (token) headers.authorization = `Bearer ${token}`;
  return { url, headers };
}

/**
 * GETs a URL (following up to 5 redirects on the same origin, so credentials never go to
 * another host), verifying TLS unless `insecureTls`. Rejects only when no answer came.
 */
export async function httpGet(
  start: URL,
  options: { headers: Record<string, string>; insecureTls: boolean; signal: AbortSignal },
): Promise<HttpAnswer> {
  let url = start;
  for (let hop = 0; ; hop += 1) {
    const answer = await getOnce(url, options);
    if (answer.status >= 300 && answer.status < 400 && answer.location && hop < MAX_REDIRECTS) {
      const next = new URL(answer.location, url);
      if (next.origin === start.origin) {
        url = next;
        continue;
      }
    }
    return answer;
  }
}

function getOnce(
  url: URL,
  options: { headers: Record<string, string>; insecureTls: boolean; signal: AbortSignal },
): Promise<HttpAnswer & { location?: string }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        headers: options.headers,
        signal: options.signal,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: !options.insecureTls } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_BODY_BYTES) response.destroy();
        });
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'),
            ...(response.headers.location ? { location: response.headers.location } : {}),
          });
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    request.on('error', (error) => reject(options.signal.aborted ? options.signal.reason : error));
  });
}

/** `401 Unauthorized: <the body's first line>`, for a failed answer. */
export function statusMessage(answer: HttpAnswer, bodyText?: string): string {
  const text = (bodyText ?? answer.body).trim().replace(/\s+/g, ' ');
  const head = `${answer.status} ${answer.statusText}`.trim();
  return text ? `${head}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}` : head;
}

/** The body as JSON, or undefined. */
export function jsonOf(answer: HttpAnswer): unknown {
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return undefined;
  }
}
