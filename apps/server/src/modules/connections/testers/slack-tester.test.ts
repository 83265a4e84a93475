import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { createSlackTester } from './slack-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the slack tester against a local server speaking the Slack Web API', () => {
  const slack = (password: string) => connectionUnderTest('slack', { username: 'C0123456789', password });

  it('checks the bot token with auth.test and posts nothing', async () => {
    services.requests.length = 0;
    await createSlackTester(`${services.url}/slack/api/`)(slack(GOOD.slackToken), testerContext());
    expect(services.requests).toEqual([{ method: 'POST', path: '/slack/api/auth.test' }]);
  });

  it("answers a wrong token with Slack's error code", async () => {
    await expect(createSlackTester(`${services.url}/slack/api/`)(slack('xoxb-wrong'), testerContext())).rejects.toThrow(
      'Slack refused the token: invalid_auth',
    );
  });

  it('calls slack.com by default and wants a token', async () => {
    await expect(createSlackTester()(slack(''), testerContext())).rejects.toThrow(
      'The slack connection has no bot token',
    );
  });
});
