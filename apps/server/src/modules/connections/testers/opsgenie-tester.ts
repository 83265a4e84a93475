import { CONNECTION_DEFAULTS } from '@lookout/contracts';
import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceBaseUrl, serviceError, under } from './service-api.js';

/**
 * Opsgenie: `GET /v2/alerts/count` with the API key (`Authorization: GenieKey …`), which
 * counts alerts and creates none. Opsgenie refuses a bad key with 401 "Could not
 * authenticate"; a key without read access is refused with 403 and Opsgenie's message.
 */
export const testOpsgenieConnection: ConnectionTester = async (connection, { signal }) => {
  const key = required(connection, connection.password, 'API key');
  const base = serviceBaseUrl(connection, CONNECTION_DEFAULTS.opsgenieHost);
  const answer = await httpRequest(under(base, 'v2/alerts/count'), {
    headers: { authorization: `GenieKey ${key}`, accept: 'application/json' },
    signal,
  });
  const body = jsonObject(answer);
  if (answer.status === 200) return;
  throw serviceError(answer, body.message);
};
