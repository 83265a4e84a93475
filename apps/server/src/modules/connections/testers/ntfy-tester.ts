import { CONNECTION_DEFAULTS } from '@lookout/contracts';
import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceBaseUrl, serviceError, under } from './service-api.js';

/**
 * ntfy: `GET /<topic>/auth`, the server's check that the credentials (basic auth for a user
 * and password, a bearer token for a password or token alone, or none) may use the topic; it
 * publishes nothing. A refusal is ntfy's JSON error (`{"http": 401, "error": "unauthorized"}`,
 * or 403 "forbidden").
 */
export const testNtfyConnection: ConnectionTester = async (connection, { signal }) => {
  const topic = required(connection, connection.properties.topic, 'topic');
  const base = serviceBaseUrl(connection, CONNECTION_DEFAULTS.ntfyHost);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (connection.username) {
    headers.authorization = `Basic ${Buffer.from(`${connection.username}:${connection.password ?? ''}`).toString('base64')}`;
  } else if (connection.password) {
    headers.authorization = `Bearer ${connection.password}`;
  }
  // Certificates are always checked: the insecure choice means plain HTTP for ntfy.
  const answer = await httpRequest(under(base, `${encodeURIComponent(topic)}/auth`), { headers, signal });
  const body = jsonObject(answer);
  if (answer.status === 200 && body.success === true) return;
  throw serviceError(answer, body.error);
};
