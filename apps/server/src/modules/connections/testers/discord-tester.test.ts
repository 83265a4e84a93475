import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { createDiscordTester } from './discord-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the discord tester against a local server speaking the Discord webhook API', () => {
  const discord = (username: string, password: string) => connectionUnderTest('discord', { username, password });

  it('reads the webhook with GET and posts nothing', async () => {
    services.requests.length = 0;
    await createDiscordTester(`${services.url}/discord/api`)(
      discord(GOOD.discordId, GOOD.discordToken),
      testerContext(),
    );
    expect(services.requests).toEqual([
      { method: 'GET', path: `/discord/api/webhooks/${GOOD.discordId}/${GOOD.discordToken}` },
    ]);
  });

  it("answers a wrong token or webhook ID with Discord's message", async () => {
    const tester = createDiscordTester(`${services.url}/discord/api`);
    await expect(tester(discord(GOOD.discordId, 'wrong'), testerContext())).rejects.toThrow(
      '401 Unauthorized: Invalid Webhook Token',
    );
    await expect(tester(discord('999', GOOD.discordToken), testerContext())).rejects.toThrow(
      '404 Not Found: Unknown Webhook',
    );
  });
});
