import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testWebhookConnection } from './webhook-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the webhook tester against a local HTTP server', () => {
  it('asks the hook for its OPTIONS, with basic auth when the connection has a user, and calls nothing', async () => {
    services.requests.length = 0;
    await testWebhookConnection(
      connectionUnderTest('generic_webhook', {
        properties: { webhookUrl: `${services.url}/hooks/open`, requestMethod: 'POST' },
      }),
      testerContext(),
    );
    await testWebhookConnection(
      connectionUnderTest('webhook', {
        url: `${services.url}/hooks/private`,
        username: GOOD.webhookUser,
        password: GOOD.webhookPassword,
        properties: { method: 'GET' },
      }),
      testerContext(),
    );
    expect(services.requests).toEqual([
      { method: 'OPTIONS', path: '/hooks/open' },
      { method: 'OPTIONS', path: '/hooks/private' },
    ]);
  });

  it("answers refused credentials and a failing server with the server's answer", async () => {
    await expect(
      testWebhookConnection(
        connectionUnderTest('webhook', {
          url: `${services.url}/hooks/private`,
          username: GOOD.webhookUser,
          password: 'wrong',
        }),
        testerContext(),
      ),
    ).rejects.toThrow('401 Unauthorized: Unauthorized');
    await expect(
      testWebhookConnection(connectionUnderTest('webhook', { url: `${services.url}/hooks/broken` }), testerContext()),
    ).rejects.toThrow('502 Bad Gateway: upstream hook service is down');
  });

  it('wants an http(s) URL', async () => {
    await expect(
      testWebhookConnection(connectionUnderTest('webhook', { url: 'mailto:x@example.org' }), testerContext()),
    ).rejects.toThrow("The webhook connection's URL must start with http:// or https://");
    await expect(testWebhookConnection(connectionUnderTest('generic_webhook'), testerContext())).rejects.toThrow(
      'The generic_webhook connection has no URL',
    );
  });
});
