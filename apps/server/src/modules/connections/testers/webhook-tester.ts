import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { httpRequest } from './http-request.js';
import { serviceError } from './service-api.js';

/** Answers that say the address or its credentials are wrong; any other means the server is there. */
const REFUSALS = new Set([401, 403, 407]);

/** The target of a webhook: `url` (webhook) or the `webhookUrl` property (generic webhook). */
export function webhookTarget(connection: ConnectionUnderTest): URL {
  const text = (connection.type === 'generic_webhook' ? connection.properties.webhookUrl : connection.url)?.trim();
  if (!text) throw new Error(`The ${connection.type} connection has no URL`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The ${connection.type} connection's URL is not a URL; write https://host/path`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The ${connection.type} connection's URL must start with http:// or https://`);
  }
  return url;
}

/**
 * Webhook and generic webhook: an `OPTIONS` request to the URL, with the connection's basic
 * auth when it has a user. Calling the hook itself with POST or GET would deliver a message,
 * and even HEAD runs the GET handler on many servers; OPTIONS does neither. So the test proves
 * that the address resolves, the server answers there (TLS checked unless insecure), and that
 * it does not refuse the credentials (401, 403, 407) or fail (5xx). It cannot prove that the
 * hook accepts messages (docs/connections.md).
 */
export const testWebhookConnection: ConnectionTester = async (connection, { signal }) => {
  const url = webhookTarget(connection);
  const user = url.username ? decodeURIComponent(url.username) : connection.username;
  const password = url.password ? decodeURIComponent(url.password) : connection.password;
  url.username = '';
  url.password = '';
  const headers: Record<string, string> = {};
  if (user) headers.authorization = `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}`;
  const answer = await httpRequest(url, {
    method: 'OPTIONS',
    headers,
    tls: { insecure: connection.insecureTls },
    signal,
  });
  if (answer.status >= 500 || REFUSALS.has(answer.status)) throw serviceError(answer);
};
