import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceError, under } from './service-api.js';

export const SLACK_API = 'https://slack.com/api/';

/**
 * Slack (bot token): `auth.test`, Slack's documented call for checking a token, which reads
 * nothing and posts nothing. Slack answers 200 with `{ok: false, error: 'invalid_auth'}` for a
 * bad token; that error code is the test's answer.
 */
export function createSlackTester(apiBase = SLACK_API): ConnectionTester {
  return async (connection, { signal }) => {
    const token = required(connection, connection.password, 'bot token');
    const answer = await httpRequest(under(apiBase, 'auth.test'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      tls: { insecure: connection.insecureTls },
      signal,
    });
    const body = jsonObject(answer);
    if (answer.status === 200 && body.ok === true) return;
    if (typeof body.error === 'string') throw new Error(`Slack refused the token: ${body.error}`);
    throw serviceError(answer);
  };
}

export const testSlackConnection = createSlackTester();
