import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { createPushbulletTester } from './pushbullet-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the pushbullet tester against a local server speaking the Pushbullet API', () => {
  const pushbullet = (password: string) =>
    connectionUnderTest('pushbullet', { password, properties: { targets: 'phone' } });

  it('reads the user with users/me and pushes nothing', async () => {
    services.requests.length = 0;
    await createPushbulletTester(`${services.url}/pushbullet`)(pushbullet(GOOD.pushbulletToken), testerContext());
    expect(services.requests).toEqual([{ method: 'GET', path: '/pushbullet/v2/users/me' }]);
  });

  it("answers a wrong token with Pushbullet's message", async () => {
    await expect(
      createPushbulletTester(`${services.url}/pushbullet`)(pushbullet('wrong'), testerContext()),
    ).rejects.toThrow('401 Unauthorized: Access token is missing or invalid.');
  });
});
