import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { csrfOf, seedIdentity, TestBrowser } from '../../../test/identity-helpers.js';
import { mailedTo, startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';

/**
 * LOOKOUT_PUBLIC_URL and LOOKOUT_TRUST_PROXY (ADR 0007): links mailed to someone else come
 * from the configuration, never from the Host or X-Forwarded-Host of the request that caused
 * them (the password-reset takeover this closes); URLs for the requester follow the public
 * URL when set; X-Forwarded-For moves the rate-limit key only behind a trusted proxy.
 */

const PUBLIC_URL = 'https://lookout.example';
/** PORT of the installation without a public URL: its links go to http://localhost:<PORT>. */
const PORT = 9123;
const EVIL = 'evil.example';
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

/** Ways a caller may claim another host for the request. */
const FORGED_HOSTS: [string, Record<string, string>][] = [
  ['Host', { host: EVIL }],
  ['X-Forwarded-Host', { 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'https' }],
];

/** A link in a mail body, up to the end of its line. */
const linkIn = (path: string) => new RegExp(`(\\S+${path.replace(/[.?]/g, '\\$&')}\\S*)`);

describe('identity: public URL and proxies', () => {
  let smtp: TestSmtpServer;
  /** LOOKOUT_PUBLIC_URL set; no trusted proxy (the default). */
  let configured: TestApp;
  /** No LOOKOUT_PUBLIC_URL, PORT 9123, and every proxy trusted: forwarded headers are believed. */
  let unconfigured: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const identity = { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, smtpFrom: 'Lookout <lookout@example.com>' };
    [configured, unconfigured] = await Promise.all([
      buildTestApp({ identity, publicUrl: PUBLIC_URL }),
      buildTestApp({ identity, port: PORT, trustProxy: true }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([configured?.close(), unconfigured?.close()]);
    await smtp?.close();
  });

  /**
   * Asks for a recovery code for `email` as the sign-in page's browser flow does, sending
   * `headers` with each request; the flow, its form action and the mailed link.
   */
  async function requestRecovery(app: TestApp, email: string, headers: Record<string, string>) {
    const browser = new TestBrowser(app.app);
    const flow = await browser.getJson('/api/.ory/self-service/recovery/browser', headers);
    expect(flow.statusCode, flow.body).toBe(200);
    const body = flow.json<Parameters<typeof csrfOf>[0]>();
    const before = smtp.mails.length;
    const sent = await browser.postJson(
      `/api/.ory/self-service/recovery?flow=${body.id}`,
      { method: 'code', email, csrf_token: csrfOf(body) },
      headers,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const link = await mailedTo(smtp.mails, email, before, linkIn('/api/.ory/self-service/recovery?'));
    return { flowId: body.id, action: body.ui.action, link };
  }

  describe('links mailed to someone else', () => {
    for (const [name, headers] of FORGED_HOSTS) {
      it(`point at LOOKOUT_PUBLIC_URL whatever ${name} the request that sent them carried`, async () => {
        const email = `public-${name.toLowerCase()}@example.com`;
        await seedIdentity(configured.database.pool, { email, password: 'victim-password-1' });
        const { flowId, link } = await requestRecovery(configured, email, headers);
        expect(link).toMatch(
          new RegExp(`^https://lookout\\.example/api/\\.ory/self-service/recovery\\?flow=${flowId}&code=\\d{6}$`),
        );

        // The link works: opened in a browser (at the public host), it signs the owner in.
        const url = new URL(link);
        const opened = await new TestBrowser(configured.app).get(`${url.pathname}${url.search}`);
        expect(opened.statusCode).toBe(303);
        expect(opened.headers.location).toMatch(/^https:\/\/lookout\.example\/profile-settings\?flow=/);
      });

      it(`point at http://localhost:<PORT> without LOOKOUT_PUBLIC_URL, even from a trusted proxy's ${name}`, async () => {
        const email = `local-${name.toLowerCase()}@example.com`;
        await seedIdentity(unconfigured.database.pool, { email, password: 'victim-password-1' });
        const { flowId, link, action } = await requestRecovery(unconfigured, email, headers);
        expect(link).toMatch(
          new RegExp(`^http://localhost:${PORT}/api/\\.ory/self-service/recovery\\?flow=${flowId}&code=\\d{6}$`),
        );
        // The requester's own form action may follow its host: only the requester sees it.
        expect(new URL(action).host).toBe(EVIL);
      });
    }

    it('point verification emails at LOOKOUT_PUBLIC_URL', async () => {
      const email = 'verify-me@example.com';
      await seedIdentity(configured.database.pool, { email, password: 'victim-password-1' });
      const flow = await configured.app.inject({
        method: 'GET',
        url: '/api/.ory/self-service/verification/api',
        headers: { host: EVIL },
      });
      const before = smtp.mails.length;
      const sent = await configured.app.inject({
        method: 'POST',
        url: `/api/.ory/self-service/verification?flow=${flow.json<{ id: string }>().id}`,
        headers: { ...JSON_HEADERS, host: EVIL },
        payload: { method: 'code', email },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const link = await mailedTo(smtp.mails, email, before, linkIn('/api/.ory/self-service/verification?'));
      expect(link.startsWith(`${PUBLIC_URL}/api/.ory/self-service/verification?flow=`)).toBe(true);
    });

    describe('handed out by admins', () => {
      let admin: TestUser;
      beforeAll(async () => {
        admin = await createSignedInUser(configured.app, configured.database.pool, {
          email: 'links-admin@example.com',
          roles: ['admin'],
        });
      });

      it('point invitations (the response and the mail) at LOOKOUT_PUBLIC_URL', async () => {
        const before = smtp.mails.length;
        const invited = await configured.app.inject({
          method: 'POST',
          url: '/api/auth/invite_user',
          headers: { ...JSON_HEADERS, ...bearer(admin), host: EVIL, 'x-forwarded-host': EVIL },
          payload: { email: 'invitee@example.com', firstName: 'In', lastName: 'Vitee', role: 'viewer' },
        });
        expect(invited.statusCode, invited.body).toBe(201);
        const { link } = invited.json<{ link: string }>();
        expect(link.startsWith(`${PUBLIC_URL}/api/.ory/self-service/recovery?flow=`)).toBe(true);
        const mailed = await mailedTo(
          smtp.mails,
          'invitee@example.com',
          before,
          linkIn('/api/.ory/self-service/recovery?'),
        );
        expect(mailed).toBe(link);
      });

      it('point admin recovery links and codes at LOOKOUT_PUBLIC_URL', async () => {
        const target = await seedIdentity(configured.database.pool, { email: 'locked-out@example.com' });
        for (const kind of ['link', 'code'] as const) {
          const created = await configured.app.inject({
            method: 'POST',
            url: `/api/.ory/admin/recovery/${kind}`,
            headers: { ...JSON_HEADERS, ...bearer(admin), host: EVIL },
            payload: { identity_id: target },
          });
          expect(created.statusCode, created.body).toBeLessThan(300);
          const { recovery_link: link } = created.json<{ recovery_link: string }>();
          expect(new URL(link).origin, kind).toBe(PUBLIC_URL);
        }
      });
    });
  });

  describe('URLs answered to the requester', () => {
    it('follow LOOKOUT_PUBLIC_URL when it is set: form action, redirects, return_to, Secure cookies', async () => {
      const browser = new TestBrowser(configured.app);
      const start = await browser.get('/api/.ory/self-service/login/browser', { host: EVIL });
      expect(start.statusCode).toBe(303);
      expect(start.headers.location).toMatch(/^https:\/\/lookout\.example\/login\?flow=/);
      // Lookout sees http here, but the browser reached it over https (a proxy ended TLS).
      expect(start.cookies.find((cookie) => cookie.name === 'csrf_token')?.secure).toBe(true);

      const flow = await browser.getJson('/api/.ory/self-service/login/browser?return_to=/health', { host: EVIL });
      expect(flow.json().ui.action).toMatch(/^https:\/\/lookout\.example\/api\/\.ory\/self-service\/login\?flow=/);

      const elsewhere = await browser.getJson(`/api/.ory/self-service/login/browser?return_to=https://${EVIL}/`, {
        host: EVIL,
      });
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json().error.id).toBe('self_service_flow_return_to_forbidden');
      const onPublicUrl = await browser.getJson(
        `/api/.ory/self-service/login/browser?return_to=${encodeURIComponent(`${PUBLIC_URL}/health`)}`,
        { host: EVIL },
      );
      expect(onPublicUrl.statusCode).toBe(200);
    });
  });
});

describe('identity: the client address behind proxies (LOOKOUT_TRUST_PROXY)', () => {
  let direct: TestApp;
  let behindProxy: TestApp;

  beforeAll(async () => {
    [direct, behindProxy] = await Promise.all([
      buildTestApp(),
      // app.inject connects from 127.0.0.1: the proxy named here.
      buildTestApp({ trustProxy: ['127.0.0.1'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([direct?.close(), behindProxy?.close()]);
  });

  /** Asks for recovery codes for unknown addresses, each time as `forwardedFor`; the statuses. */
  async function askForCodes(app: TestApp, forwardedFor: (index: number) => string, times: number) {
    const flow = await app.app.inject({ method: 'GET', url: '/api/.ory/self-service/recovery/api' });
    const statuses: number[] = [];
    for (let index = 0; index < times; index++) {
      const sent = await app.app.inject({
        method: 'POST',
        url: `/api/.ory/self-service/recovery?flow=${flow.json<{ id: string }>().id}`,
        headers: { ...JSON_HEADERS, 'x-forwarded-for': forwardedFor(index) },
        payload: { method: 'code', email: `nobody-${index}@example.com` },
      });
      statuses.push(sent.statusCode);
    }
    return statuses;
  }

  const rateLimitKeys = async (app: TestApp, bucket: string) =>
    (
      await app.database.pool.query<{ key: string }>(
        'SELECT key FROM identity_rate_limits WHERE bucket = $1 ORDER BY key',
        [bucket],
      )
    ).rows.map((row) => row.key);

  it('counts a direct caller by its own address, whatever X-Forwarded-For it sends', async () => {
    // 30 code requests per address in 15 minutes: a new X-Forwarded-For each time does not help.
    const statuses = await askForCodes(direct, (index) => `203.0.113.${index + 1}`, 31);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(await rateLimitKeys(direct, 'codeSendPerIp')).toEqual(['127.0.0.1']);

    const flow = await direct.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api' });
    await direct.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.json<{ id: string }>().id}`,
      headers: { ...JSON_HEADERS, 'x-forwarded-for': '198.51.100.7' },
      payload: { method: 'password', identifier: 'nobody@example.com', password: 'whatever-1' },
    });
    expect(await rateLimitKeys(direct, 'loginPerClient')).toEqual(['127.0.0.1']);
    expect(await rateLimitKeys(direct, 'loginPerIdentifierAndClient')).toEqual(['127.0.0.1|nobody@example.com']);
  });

  it('counts the client a trusted proxy names in X-Forwarded-For', async () => {
    const statuses = await askForCodes(behindProxy, (index) => `203.0.113.${index + 1}`, 31);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const keys = await rateLimitKeys(behindProxy, 'codeSendPerIp');
    expect(keys).toHaveLength(31);
    expect(keys).toContain('203.0.113.31');
    expect(keys).not.toContain('127.0.0.1');

    // The same client through the proxy is still limited.
    const again = await askForCodes(behindProxy, () => '198.51.100.7', 31);
    expect(again[30]).toBe(429);

    const flow = await behindProxy.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api' });
    await behindProxy.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.json<{ id: string }>().id}`,
      headers: { ...JSON_HEADERS, 'x-forwarded-for': '198.51.100.8' },
      payload: { method: 'password', identifier: 'nobody@example.com', password: 'whatever-1' },
    });
    expect(await rateLimitKeys(behindProxy, 'loginPerClient')).toEqual(['198.51.100.8']);
    expect(await rateLimitKeys(behindProxy, 'loginPerIdentifierAndClient')).toEqual([
      '198.51.100.8|nobody@example.com',
    ]);
  });
});
