import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testNtfyConnection } from './ntfy-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the ntfy tester against a local server speaking the ntfy API', () => {
  // The form's insecure TLS choice means plain http for ntfy (the service URL's scheme=http).
  const ntfy = (topic: string, fields = {}) =>
    connectionUnderTest('ntfy', { insecureTls: true, properties: { host: `${services.host}/ntfy`, topic }, ...fields });

  it('checks access to the topic with a user and password, a token, or none, and publishes nothing', async () => {
    services.requests.length = 0;
    await testNtfyConnection(ntfy('alerts', { username: GOOD.ntfyUser, password: GOOD.ntfyPassword }), testerContext());
    await testNtfyConnection(ntfy('alerts', { password: GOOD.ntfyToken }), testerContext());
    await testNtfyConnection(ntfy('public'), testerContext());
    expect(services.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /ntfy/alerts/auth',
      'GET /ntfy/alerts/auth',
      'GET /ntfy/public/auth',
    ]);
  });

  it("answers wrong credentials and a closed topic with ntfy's error", async () => {
    await expect(
      testNtfyConnection(ntfy('alerts', { username: GOOD.ntfyUser, password: 'wrong' }), testerContext()),
    ).rejects.toThrow('401 Unauthorized: unauthorized');
    await expect(testNtfyConnection(ntfy('alerts'), testerContext())).rejects.toThrow('403 Forbidden: forbidden');
  });

  it('wants a topic', async () => {
    await expect(testNtfyConnection(connectionUnderTest('ntfy'), testerContext())).rejects.toThrow(
      'The ntfy connection has no topic',
    );
  });
});
