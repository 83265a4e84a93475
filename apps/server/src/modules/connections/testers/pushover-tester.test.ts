import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { createPushoverTester } from './pushover-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the pushover tester against a local server speaking the Pushover API', () => {
  const pushover = (username: string, password: string) => connectionUnderTest('pushover', { username, password });

  it('validates the user and token with users/validate.json and sends nothing', async () => {
    services.requests.length = 0;
    await createPushoverTester(`${services.url}/pushover/`)(
      pushover(GOOD.pushoverUser, GOOD.pushoverToken),
      testerContext(),
    );
    expect(services.requests).toEqual([{ method: 'POST', path: '/pushover/1/users/validate.json' }]);
  });

  it("answers a wrong token or user with Pushover's errors", async () => {
    const tester = createPushoverTester(`${services.url}/pushover/`);
    await expect(tester(pushover(GOOD.pushoverUser, 'wrong'), testerContext())).rejects.toThrow(
      '400 Bad Request: application token is invalid',
    );
    await expect(tester(pushover('nobody', GOOD.pushoverToken), testerContext())).rejects.toThrow(
      '400 Bad Request: user identifier is not a valid user, group, or subscribed user key',
    );
  });
});
