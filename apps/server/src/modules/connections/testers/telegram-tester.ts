import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceError, under } from './service-api.js';

export const TELEGRAM_API = 'https://api.telegram.org/';

/**
 * Telegram bot: `getMe`, the Bot API's documented call for testing a token, which only
 * describes the bot. A bad token is answered `{ok: false, error_code: 401, description:
 * 'Unauthorized'}`. The token is part of the request path, so no message repeats the URL.
 */
export function createTelegramTester(apiBase = TELEGRAM_API): ConnectionTester {
  return async (connection, { signal }) => {
    const token = required(connection, connection.password, 'bot token');
    const answer = await httpRequest(under(apiBase, `bot${encodeURIComponent(token)}/getMe`), {
      tls: { insecure: connection.insecureTls },
      signal,
    });
    const body = jsonObject(answer);
    if (answer.status === 200 && body.ok === true) return;
    throw serviceError(answer, body.description);
  };
}

export const testTelegramConnection = createTelegramTester();
