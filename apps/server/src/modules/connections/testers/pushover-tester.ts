import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceError, under } from './service-api.js';

export const PUSHOVER_API = 'https://api.pushover.net/';

/**
 * Pushover: `POST /1/users/validate.json` with the API token and the user key, Pushover's
 * documented check of both, which sends no notification. A bad token or user is answered
 * `{status: 0, errors: ['application token is invalid']}`.
 */
export function createPushoverTester(apiBase = PUSHOVER_API): ConnectionTester {
  return async (connection, { signal }) => {
    const user = required(connection, connection.username, 'user key');
    const token = required(connection, connection.password, 'API token');
    const answer = await httpRequest(under(apiBase, '1/users/validate.json'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, user }).toString(),
      tls: { insecure: connection.insecureTls },
      signal,
    });
    const body = jsonObject(answer);
    if (answer.status === 200 && body.status === 1) return;
    const errors = Array.isArray(body.errors) ? body.errors.filter((e) => typeof e === 'string').join('; ') : undefined;
    throw serviceError(answer, errors);
  };
}

export const testPushoverConnection = createPushoverTester();
