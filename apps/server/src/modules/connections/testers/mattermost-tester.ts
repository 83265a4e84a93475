import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceBaseUrl, serviceError, under } from './service-api.js';

/**
 * Mattermost (incoming webhook): `GET /api/v4/system/ping`, which says the server is up. An
 * incoming webhook's token can only be used by posting to it, so the test reaches the server
 * and checks its TLS but cannot tell whether the token is valid (docs/connections.md says so).
 */
export const testMattermostConnection: ConnectionTester = async (connection, { signal }) => {
  required(connection, connection.password, 'token');
  const base = serviceBaseUrl(connection);
  const answer = await httpRequest(under(base, 'api/v4/system/ping'), { signal });
  const body = jsonObject(answer);
  if (answer.status === 200 && String(body.status).toUpperCase() === 'OK') return;
  throw serviceError(answer, body.message);
};
