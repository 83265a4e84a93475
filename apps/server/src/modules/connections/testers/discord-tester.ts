import type { ConnectionTester } from './tester.js';
import { httpRequest } from './http-request.js';
import { jsonObject, required, serviceError, under } from './service-api.js';

export const DISCORD_API = 'https://discord.com/api/';

/**
 * Discord webhook: `GET /webhooks/{id}/{token}`, which returns the webhook's description and
 * posts nothing. Discord answers 401 "Invalid Webhook Token" or 404 "Unknown Webhook".
 */
export function createDiscordTester(apiBase = DISCORD_API): ConnectionTester {
  return async (connection, { signal }) => {
    const id = required(connection, connection.username, 'webhook ID');
    const token = required(connection, connection.password, 'token');
    const url = under(apiBase, `webhooks/${encodeURIComponent(id)}/${encodeURIComponent(token)}`);
    const answer = await httpRequest(url, { tls: { insecure: connection.insecureTls }, signal });
    if (answer.status === 200) return;
    throw serviceError(answer, jsonObject(answer).message);
  };
}

export const testDiscordConnection = createDiscordTester();
