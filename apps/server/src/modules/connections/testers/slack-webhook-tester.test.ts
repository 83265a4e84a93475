import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testSlackWebhookConnection } from './slack-webhook-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the slack webhook tester against a local server speaking Slack incoming webhooks', () => {
  it('posts an empty payload, which the webhook refuses with no_text without posting', async () => {
    services.requests.length = 0;
    await testSlackWebhookConnection(
      connectionUnderTest('slackwebhook', { url: `${services.url}${GOOD.slackHookPath}` }),
      testerContext(),
    );
    expect(services.requests).toEqual([{ method: 'POST', path: GOOD.slackHookPath }]);
  });

  it("answers a webhook that does not exist with Slack's words", async () => {
    await expect(
      testSlackWebhookConnection(
        connectionUnderTest('slackwebhook', { url: `${services.url}/slack/hooks/services/T000/B000/wrong` }),
        testerContext(),
      ),
    ).rejects.toThrow('403 Forbidden: invalid_token');
  });

  it('wants an http(s) URL', async () => {
    await expect(
      testSlackWebhookConnection(
        connectionUnderTest('slackwebhook', { url: 'ftp://hooks.slack.com/x' }),
        testerContext(),
      ),
    ).rejects.toThrow("The slackwebhook connection's webhook URL must start with https://");
  });
});
