import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { createTelegramTester } from './telegram-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the telegram tester against a local server speaking the Bot API', () => {
  const telegram = (password: string) => connectionUnderTest('telegram', { username: '@alerts', password });

  it('calls getMe and sends nothing', async () => {
    services.requests.length = 0;
    await createTelegramTester(`${services.url}/telegram/`)(telegram(GOOD.telegramToken), testerContext());
    expect(services.requests).toEqual([
      { method: 'GET', path: `/telegram/bot${encodeURIComponent(GOOD.telegramToken)}/getMe` },
    ]);
  });

  it("answers a wrong token with the Bot API's description, without the token", async () => {
    const failure = createTelegramTester(`${services.url}/telegram/`)(telegram('123:wrong'), testerContext());
    await expect(failure).rejects.toThrow(/^401 Unauthorized: Unauthorized$/);
  });
});
