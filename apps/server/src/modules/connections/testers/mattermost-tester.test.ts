import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testMattermostConnection } from './mattermost-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the mattermost tester against a local server speaking the Mattermost API', () => {
  it('pings the server and posts nothing', async () => {
    services.requests.length = 0;
    await testMattermostConnection(
      connectionUnderTest('mattermost', { password: 'hook-token', properties: { host: `${services.url}/mattermost` } }),
      testerContext(),
    );
    expect(services.requests).toEqual([{ method: 'GET', path: '/mattermost/api/v4/system/ping' }]);
  });

  it('says when the address is not a Mattermost server', async () => {
    await expect(
      testMattermostConnection(
        connectionUnderTest('mattermost', {
          password: 'hook-token',
          properties: { host: `${services.url}/elsewhere` },
        }),
        testerContext(),
      ),
    ).rejects.toThrow('404 Not Found: not found');
  });
});
