import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceBaseUrl, serviceError, under } from './service-api.js';

/**
 * Rocket.Chat (incoming webhook): `GET /api/info`, which answers `{success: true}` with the
 * server's version. The webhook's two tokens can only be used by posting to it, so the test
 * reaches the server and checks its TLS but cannot tell whether the tokens are valid.
 */
export const testRocketChatConnection: ConnectionTester = async (connection, { signal }) => {
  required(connection, connection.username, 'token A');
  required(connection, connection.password, 'token B');
  const base = serviceBaseUrl(connection);
  const answer = await httpRequest(under(base, 'api/info'), { signal });
  const body = jsonObject(answer);
  if (answer.status === 200 && body.success === true) return;
  throw serviceError(answer, body.error);
};
