import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { required, serviceError } from './service-api.js';

/** What Slack answers an incoming webhook that exists when the payload has no text. */
const PAYLOAD_REFUSALS = new Set(['no_text', 'invalid_payload', 'missing_text_or_fallback_or_attachments']);

/**
 * Slack incoming webhook: POSTs an empty JSON object. Slack refuses it (400 `no_text` or
 * `invalid_payload`) without posting anything when the webhook exists, and answers 403
 * `invalid_token`, 404 `no_service` / `no_team` / `channel_not_found` or 410 `channel_is_archived`
 * when it does not; those words are the test's answer.
 */
export const testSlackWebhookConnection: ConnectionTester = async (connection, { signal }) => {
  const target = required(connection, connection.url, 'webhook URL');
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new Error(`The slackwebhook connection's webhook URL is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error("The slackwebhook connection's webhook URL must start with https://");
  }
  const answer = await httpRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    tls: { insecure: connection.insecureTls },
    signal,
  });
  const words = answer.body.trim();
  if (answer.status === 400 && PAYLOAD_REFUSALS.has(words)) return;
  if (answer.status >= 200 && answer.status < 300) return;
  throw serviceError(answer, words);
};
