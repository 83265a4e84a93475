import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { GOOD, startNotificationServices, type NotificationServices } from '../../../../test/notification-services.js';
import { testMatrixConnection } from './matrix-tester.js';

let services: NotificationServices;
beforeAll(async () => {
  services = await startNotificationServices();
});
afterAll(async () => {
  await services.close();
});

describe('the matrix tester against a local server speaking the Matrix client-server API', () => {
  const matrix = (fields: { username?: string; password: string }) =>
    connectionUnderTest('matrix', { insecureTls: true, properties: { host: `${services.host}/matrix` }, ...fields });

  it('checks an access token with whoami', async () => {
    services.requests.length = 0;
    await testMatrixConnection(matrix({ password: GOOD.matrixToken }), testerContext());
    expect(services.requests).toEqual([{ method: 'GET', path: '/matrix/_matrix/client/v3/account/whoami' }]);
  });

  it('logs in with a user and password and logs out again, leaving no session', async () => {
    services.requests.length = 0;
    await testMatrixConnection(matrix({ username: GOOD.matrixUser, password: GOOD.matrixPassword }), testerContext());
    expect(services.requests.map((request) => request.path)).toEqual([
      '/matrix/_matrix/client/v3/login',
      '/matrix/_matrix/client/v3/logout',
    ]);
    expect(services.openMatrixSessions.size).toBe(0);
  });

  it("answers a wrong token or password with the homeserver's errcode and error", async () => {
    await expect(testMatrixConnection(matrix({ password: 'syt_wrong' }), testerContext())).rejects.toThrow(
      '401 Unauthorized: M_UNKNOWN_TOKEN: Invalid access token passed.',
    );
    await expect(
      testMatrixConnection(matrix({ username: GOOD.matrixUser, password: 'wrong' }), testerContext()),
    ).rejects.toThrow('403 Forbidden: M_FORBIDDEN: Invalid username or password');
  });
});
