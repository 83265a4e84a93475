import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testOpsgenieConnection } from './opsgenie-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the opsgenie tester against a local server speaking the Opsgenie alert API', () => {
  const opsgenie = (password: string) =>
    connectionUnderTest('opsgenie', { password, properties: { host: `${services.url}/opsgenie` } });

  it('counts alerts and creates none', async () => {
    services.requests.length = 0;
    await testOpsgenieConnection(opsgenie(GOOD.opsgenieKey), testerContext());
    expect(services.requests).toEqual([{ method: 'GET', path: '/opsgenie/v2/alerts/count' }]);
  });

  it("answers a wrong key with Opsgenie's message", async () => {
    await expect(testOpsgenieConnection(opsgenie('wrong'), testerContext())).rejects.toThrow(
      '401 Unauthorized: Could not authenticate',
    );
  });
});
