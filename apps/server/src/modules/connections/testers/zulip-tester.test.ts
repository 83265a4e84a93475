import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testZulipConnection } from './zulip-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the zulip tester against a local server speaking the Zulip API', () => {
  const zulip = (password: string) =>
    connectionUnderTest('zulip_chat', {
      username: GOOD.zulipEmail,
      password,
      properties: { host: `${services.url}/zulip` },
    });

  it('reads the bot with users/me and sends nothing', async () => {
    services.requests.length = 0;
    await testZulipConnection(zulip(GOOD.zulipKey), testerContext());
    expect(services.requests).toEqual([{ method: 'GET', path: '/zulip/api/v1/users/me' }]);
  });

  it("answers a wrong key with Zulip's msg", async () => {
    await expect(testZulipConnection(zulip('wrong'), testerContext())).rejects.toThrow(
      '401 Unauthorized: Invalid API key',
    );
  });
});
