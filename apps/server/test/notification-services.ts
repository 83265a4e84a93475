import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The APIs the notification testers call, on one local HTTP server, each under a prefix
 * (`/slack/api/auth.test`, `/discord/api/webhooks/…`, ...), answering as the services document
 * it: the success body, and the error body each service gives a bad credential. Only the
 * harmless calls exist; any other request is a 404 and is recorded, so tests can prove that
 * no message was sent.
 */
export const GOOD = {
  slackToken: 'xoxb-good',
  slackHookPath: '/slack/hooks/services/T000/B000/good',
  discordId: '112233',
  discordToken: 'discord-good',
  telegramToken: '123456:telegram-good',
  pushoverToken: 'pushover-app-good',
  pushoverUser: 'pushover-user-good',
  ntfyUser: 'phil',
  ntfyPassword: 'ntfy-good',
  ntfyToken: 'tk_ntfygood',
  matrixToken: 'syt_matrix_good',
  matrixUser: 'lookout-bot',
  matrixPassword: 'matrix-good',
  zulipEmail: 'lookout-bot@zulip.example.org',
  zulipKey: 'zulip-good',
  opsgenieKey: 'opsgenie-good',
  pushbulletToken: 'o.pushbullet-good',
  webhookUser: 'hook',
  webhookPassword: 'hook-good',
} as const;

export type NotificationServices = {
  /** http://127.0.0.1:<port> */
  url: string;
  /** host:port, for the connections that take a host. */
  host: string;
  requests: { method: string; path: string }[];
  /** Matrix sessions opened by login and not yet closed by logout. */
  openMatrixSessions: Set<string>;
  close: () => Promise<void>;
};

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export function startNotificationServices(): Promise<NotificationServices> {
  const requests: NotificationServices['requests'] = [];
  const openMatrixSessions = new Set<string>();
  let sessionCount = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const method = request.method ?? 'GET';
      const path = url.pathname;
      const auth = request.headers.authorization;
      requests.push({ method, path });
      const json = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const text = (status: number, value: string) =>
        response.writeHead(status, { 'content-type': 'text/plain' }).end(value);

      if (method === 'POST' && path === '/slack/api/auth.test') {
        return auth === `Bearer ${GOOD.slackToken}`
          ? json(200, { ok: true, url: 'https://lookout.slack.com/', team: 'Lookout', user: 'lookout', bot_id: 'B1' })
          : json(200, { ok: false, error: 'invalid_auth' });
      }
      if (method === 'POST' && path.startsWith('/slack/hooks/services/')) {
        if (path !== GOOD.slackHookPath) return text(403, 'invalid_token');
        return JSON.parse(body || '{}').text ? text(200, 'ok') : text(400, 'no_text');
      }
      const discord = /^\/discord\/api\/webhooks\/([^/]+)\/([^/]+)$/.exec(path);
      if (method === 'GET' && discord) {
        if (discord[1] !== GOOD.discordId) return json(404, { message: 'Unknown Webhook', code: 10015 });
        if (discord[2] !== GOOD.discordToken) return json(401, { message: 'Invalid Webhook Token', code: 50027 });
        return json(200, { id: GOOD.discordId, type: 1, name: 'alerts', channel_id: '1', token: GOOD.discordToken });
      }
      const telegram = /^\/telegram\/bot([^/]+)\/getMe$/.exec(path);
      if (method === 'GET' && telegram) {
        return decodeURIComponent(telegram[1]!) === GOOD.telegramToken
          ? json(200, {
              ok: true,
              result: { id: 123456, is_bot: true, first_name: 'Lookout', username: 'lookout_bot' },
            })
          : json(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      }
      if (method === 'POST' && path === '/pushover/1/users/validate.json') {
        const form = new URLSearchParams(body);
        if (form.get('token') !== GOOD.pushoverToken) {
          return json(400, { token: 'invalid', errors: ['application token is invalid'], status: 0, request: 'r1' });
        }
        if (form.get('user') !== GOOD.pushoverUser) {
          return json(400, {
            user: 'invalid',
            errors: ['user identifier is not a valid user, group, or subscribed user key'],
            status: 0,
            request: 'r2',
          });
        }
        return json(200, { status: 1, group: 0, devices: ['phone'], licenses: ['Android'], request: 'r3' });
      }
      const ntfy = /^\/ntfy\/([^/]+)\/auth$/.exec(path);
      if (method === 'GET' && ntfy) {
        const allowed =
          auth === basic(GOOD.ntfyUser, GOOD.ntfyPassword) ||
          auth === `Bearer ${GOOD.ntfyToken}` ||
          ntfy[1] === 'public';
        if (allowed) return json(200, { success: true });
        return auth
          ? json(401, {
              code: 40101,
              http: 401,
              error: 'unauthorized',
              link: 'https://ntfy.sh/docs/publish/#authentication',
            })
          : json(403, {
              code: 40301,
              http: 403,
              error: 'forbidden',
              link: 'https://ntfy.sh/docs/publish/#authentication',
            });
      }
      if (method === 'GET' && path === '/mattermost/api/v4/system/ping') return json(200, { status: 'OK' });
      if (method === 'GET' && path === '/rocketchat/api/info') return json(200, { success: true, version: '6.13.0' });
      if (method === 'GET' && path === '/matrix/_matrix/client/v3/account/whoami') {
        const token = auth?.replace(/^Bearer /, '') ?? '';
        return token === GOOD.matrixToken || openMatrixSessions.has(token)
          ? json(200, { user_id: '@lookout-bot:matrix.example.org', device_id: 'D1' })
          : json(401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.', soft_logout: false });
      }
      if (method === 'POST' && path === '/matrix/_matrix/client/v3/login') {
        const login = JSON.parse(body || '{}') as { identifier?: { user?: string }; password?: string };
        if (login.identifier?.user !== GOOD.matrixUser || login.password !== GOOD.matrixPassword) {
          return json(403, { errcode: 'M_FORBIDDEN', error: 'Invalid username or password' });
        }
        sessionCount += 1;
        const token = `syt_session_${sessionCount}`;
        openMatrixSessions.add(token);
        return json(200, {
          access_token: token,
          user_id: '@lookout-bot:matrix.example.org',
          device_id: `D${sessionCount}`,
        });
      }
      if (method === 'POST' && path === '/matrix/_matrix/client/v3/logout') {
        const token = auth?.replace(/^Bearer /, '') ?? '';
        if (!openMatrixSessions.delete(token)) {
          return json(401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.', soft_logout: false });
        }
        return json(200, {});
      }
      if (method === 'GET' && path === '/zulip/api/v1/users/me') {
        return auth === basic(GOOD.zulipEmail, GOOD.zulipKey)
          ? json(200, { result: 'success', msg: '', user_id: 8, email: GOOD.zulipEmail, is_bot: true })
          : json(401, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' });
      }
      if (method === 'GET' && path === '/opsgenie/v2/alerts/count') {
        return auth === `GenieKey ${GOOD.opsgenieKey}`
          ? json(200, { data: { count: 3 }, took: 0.01, requestId: 'q1' })
          : json(401, { message: 'Could not authenticate', took: 0.0, requestId: 'q2' });
      }
      if (method === 'GET' && path === '/pushbullet/v2/users/me') {
        return request.headers['access-token'] === GOOD.pushbulletToken
          ? json(200, { iden: 'u1', email: 'ops@example.org', name: 'Ops' })
          : json(401, {
              error: {
                code: 'invalid_access_token',
                type: 'invalid_request',
                message: 'Access token is missing or invalid.',
              },
              error_code: 'invalid_access_token',
            });
      }
      if (method === 'OPTIONS' && path === '/hooks/open')
        return response.writeHead(204, { allow: 'POST, OPTIONS' }).end();
      if (method === 'OPTIONS' && path === '/hooks/private') {
        if (auth !== basic(GOOD.webhookUser, GOOD.webhookPassword)) return text(401, 'Unauthorized');
        return response.writeHead(204, { allow: 'POST, OPTIONS' }).end();
      }
      if (method === 'OPTIONS' && path === '/hooks/broken') return text(502, 'upstream hook service is down');
      text(404, 'not found');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        host: `127.0.0.1:${port}`,
        requests,
        openMatrixSessions,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
