import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceError, under } from './service-api.js';

export const PUSHBULLET_API = 'https://api.pushbullet.com/';

/**
 * Pushbullet: `GET /v2/users/me` with the access token, which describes its user and pushes
 * nothing. A bad token is answered 401 with `{error: {message: 'Access token is missing or
 * invalid.'}}`.
 */
export function createPushbulletTester(apiBase = PUSHBULLET_API): ConnectionTester {
  return async (connection, { signal }) => {
    const token = required(connection, connection.password, 'token');
    const answer = await httpRequest(under(apiBase, 'v2/users/me'), {
      headers: { 'access-token': token },
      tls: { insecure: connection.insecureTls },
      signal,
    });
    if (answer.status === 200) return;
    const error = jsonObject(answer).error as { message?: unknown } | undefined;
    throw serviceError(answer, error?.message);
  };
}

export const testPushbulletConnection = createPushbulletTester();
