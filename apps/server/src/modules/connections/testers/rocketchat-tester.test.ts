import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testRocketChatConnection } from './rocketchat-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the rocket.chat tester against a local server speaking the Rocket.Chat API', () => {
  const rocketchat = (host: string) =>
    connectionUnderTest('rocketchat', {
      username: 'tokenA',
      password: 'tokenB',
      properties: { host, channel: '#ops' },
    });

  it('reads the server info and posts nothing', async () => {
    services.requests.length = 0;
    await testRocketChatConnection(rocketchat(`${services.url}/rocketchat`), testerContext());
    expect(services.requests).toEqual([{ method: 'GET', path: '/rocketchat/api/info' }]);
  });

  it('says when the address is not a Rocket.Chat server', async () => {
    await expect(testRocketChatConnection(rocketchat(`${services.url}/elsewhere`), testerContext())).rejects.toThrow(
      '404 Not Found: not found',
    );
  });
});
