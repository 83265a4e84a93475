import type { ConnectionTester } from './tester.js';
import type { HttpAnswer } from './http-get.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceBaseUrl, serviceError, under } from './service-api.js';

/** A Matrix error answer as `M_CODE: text`, the homeserver's own words. */
function matrixError(answer: HttpAnswer): Error {
  const body = jsonObject(answer);
  const words = [body.errcode, body.error].filter((part) => typeof part === 'string' && part).join(': ');
  return serviceError(answer, words);
}

/**
 * Matrix. With an access token (no user): `GET /_matrix/client/v3/account/whoami`, which names
 * the token's user. With a user and password: `POST /login`, then `POST /logout` with the
 * access token it gave, so the test leaves no session behind. Nothing is sent to a room.
 */
export const testMatrixConnection: ConnectionTester = async (connection, { signal }) => {
  const secret = required(connection, connection.password, 'password or access token');
  const base = under(serviceBaseUrl(connection), '_matrix/client/v3/');
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const user = connection.username?.trim();
  if (!user) {
    const answer = await httpRequest(under(base, 'account/whoami'), {
      headers: { ...json, authorization: `Bearer ${secret}` },
      signal,
    });
    if (answer.status === 200 && typeof jsonObject(answer).user_id === 'string') return;
    throw matrixError(answer);
  }
  const login = await httpRequest(under(base, 'login'), {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user },
      password: secret,
      initial_device_display_name: 'Lookout connection test',
    }),
    signal,
  });
  const token = jsonObject(login).access_token;
  if (login.status !== 200 || typeof token !== 'string') throw matrixError(login);
  const logout = await httpRequest(under(base, 'logout'), {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: '{}',
    signal,
  });
  if (logout.status !== 200) throw matrixError(logout);
};
