import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceBaseUrl, serviceError, under } from './service-api.js';

/**
 * Zulip: `GET /api/v1/users/me` as the bot (basic auth with its email and API key), which
 * describes the bot and sends nothing. Zulip refuses with `{"result": "error", "msg":
 * "Invalid API key", "code": "INVALID_API_KEY"}`.
 */
export const testZulipConnection: ConnectionTester = async (connection, { signal }) => {
  const email = required(connection, connection.username, 'bot email');
  const key = required(connection, connection.password, 'bot key');
  const base = serviceBaseUrl(connection);
  const answer = await httpRequest(under(base, 'api/v1/users/me'), {
    headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
    signal,
  });
  const body = jsonObject(answer);
  if (answer.status === 200 && body.result === 'success') return;
  throw serviceError(answer, body.msg);
};
