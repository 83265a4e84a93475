import type { AddressInfo } from 'node:net';
import { courierMessagesResponseSchema, EMAIL_DELIVERY_HEADER, type CourierMessage } from '@lookout/contracts';
import { Configuration, CourierApi, ResponseError } from '@ory/client-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { seedIdentity } from '../../../test/identity-helpers.js';

/**
 * The email outbox through Kratos's admin courier API, without an SMTP server: what the
 * flows queue, who may read it, its filters and paging, its bad-input answers, and that the
 * official Kratos client reads it.
 */
describe('identity: the email outbox at /api/.ory/admin/courier/messages', () => {
  let testApp: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let recoveryCode = '';

  const list = (user: TestUser | undefined, query = '') =>
    testApp.app.inject({ method: 'GET', url: `/api/.ory/admin/courier/messages${query}`, headers: bearer(user) });

  beforeAll(async () => {
    testApp = await buildTestApp();
    const { app, database } = testApp;
    admin = await createSignedInUser(app, database.pool, { email: 'outbox-admin@example.com', roles: ['admin'] });
    editor = await createSignedInUser(app, database.pool, { email: 'outbox-editor@example.com', roles: ['editor'] });
    viewer = await createSignedInUser(app, database.pool, { email: 'outbox-viewer@example.com', roles: ['viewer'] });
    await seedIdentity(database.pool, { email: 'forgetful@example.com', password: 'forgetful-password-1' });

    // A recovery code for a known address, through the API flow a script would use.
    const flow = await app.inject({ method: 'GET', url: '/api/.ory/self-service/recovery/api' });
    const sent = await app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/recovery?flow=${flow.json<{ id: string }>().id}`,
      payload: { method: 'code', email: 'forgetful@example.com' },
    });
    expect(sent.statusCode).toBe(200);
    // An unknown address gets the same answer and no message.
    const unknown = await app.inject({ method: 'GET', url: '/api/.ory/self-service/recovery/api' });
    await app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/recovery?flow=${unknown.json<{ id: string }>().id}`,
      payload: { method: 'code', email: 'nobody@example.com' },
    });
    // An invitation.
    const invited = await app.inject({
      method: 'POST',
      url: '/api/auth/invite_user',
      headers: bearer(admin),
      payload: { firstName: 'Ivy', lastName: 'Invitee', email: 'ivy@example.com', role: 'viewer' },
    });
    expect(invited.statusCode).toBe(201);
  });
  afterAll(() => testApp?.close());

  it('lists what the flows queued, newest first, in Kratos field names with bodies, and says mail stays in the outbox', async () => {
    const response = await list(admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers[EMAIL_DELIVERY_HEADER]).toBe('outbox');
    expect(response.headers['x-total-count']).toBe('2');
    expect(response.headers['cache-control']).toMatch(/no-store/);
    const messages = courierMessagesResponseSchema.parse(response.json());
    expect(messages.map((message) => [message.recipient, message.template_type])).toEqual([
      ['ivy@example.com', 'invite'],
      ['forgetful@example.com', 'recovery_code_valid'],
    ]);
    const [invite, recovery] = messages as [CourierMessage, CourierMessage];
    expect(Object.keys(recovery).sort()).toEqual(
      [
        'body',
        'channel',
        'created_at',
        'dispatches',
        'id',
        'recipient',
        'send_count',
        'status',
        'subject',
        'template_type',
        'type',
        'updated_at',
      ].sort(),
    );
    // Without SMTP nothing is tried: the messages stay queued.
    expect(recovery).toMatchObject({
      status: 'queued',
      type: 'email',
      channel: 'email',
      send_count: 0,
      dispatches: [],
      subject: 'Recover access to your account',
    });
    recoveryCode = /following code:\s+(\d{6})/.exec(recovery.body)?.[1] ?? '';
    expect(recoveryCode).toMatch(/^\d{6}$/);
    expect(invite.body).toMatch(/\/api\/\.ory\/self-service\/recovery\?flow=[^\s]+&token=/);
  });

  it('hands an admin the code that recovers the account (the outbox is how it reaches its owner)', async () => {
    const flow = await testApp.app.inject({ method: 'GET', url: '/api/.ory/self-service/recovery/api' });
    const flowId = flow.json<{ id: string }>().id;
    await testApp.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/recovery?flow=${flowId}`,
      payload: { method: 'code', email: 'forgetful@example.com' },
    });
    const latest = (await list(admin, '?recipient=forgetful@example.com&page_size=1')).json<CourierMessage[]>()[0]!;
    const code = /following code:\s+(\d{6})/.exec(latest.body)?.[1];
    const used = await testApp.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/recovery?flow=${flowId}`,
      payload: { method: 'code', code },
    });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({ state: 'passed_challenge' });
  });

  it('filters by status and exact recipient, and pages with page_size and the rel="next" page_token', async () => {
    expect((await list(admin, '?status=sent')).json()).toEqual([]);
    expect((await list(admin, '?status=sent')).headers['x-total-count']).toBe('0');
    const forIvy = (await list(admin, '?recipient=ivy@example.com&status=queued')).json<CourierMessage[]>();
    expect(forIvy.map((message) => message.recipient)).toEqual(['ivy@example.com']);
    expect((await list(admin, '?recipient=IVY@example.com')).json()).toEqual([]);

    const first = await list(admin, '?page_size=2');
    const firstPage = first.json<CourierMessage[]>();
    expect(firstPage).toHaveLength(2);
    expect(first.headers['x-total-count']).toBe('3');
    const link = String(first.headers.link);
    expect(link).toContain('rel="first"');
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    const nextUrl = new URL(next!);
    expect(nextUrl.pathname).toBe('/api/.ory/admin/courier/messages');
    const second = await list(admin, nextUrl.search);
    const secondPage = second.json<CourierMessage[]>();
    expect(secondPage).toHaveLength(1);
    expect(String(second.headers.link)).not.toContain('rel="next"');
    const ids = [...firstPage, ...secondPage].map((message) => message.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('gets one message with its body and attempts, and answers 404 for an unknown id', async () => {
    const [latest] = (await list(admin, '?page_size=1')).json<CourierMessage[]>();
    const one = await testApp.app.inject({
      method: 'GET',
      url: `/api/.ory/admin/courier/messages/${latest!.id}`,
      headers: bearer(admin),
    });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(latest);
    const missing = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/admin/courier/messages/01890000-0000-7000-8000-000000000000',
      headers: bearer(admin),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      error: { code: 404, reason: expect.stringContaining('No courier message') },
    });
  });

  it('answers bad query parameters with a 400 that names them', async () => {
    const cases: [string, RegExp][] = [
      ['?status=delivered', /status.*queued, processing, sent, abandoned/],
      ['?page_size=0', /page_size.*at least 1/],
      ['?page_size=5000', /page_size.*at most 1000/],
      ['?page_size=ten', /page_size/],
      ['?recipient=', /recipient/],
      ['?page_token=not-a-token', /page_token is malformed/],
    ];
    for (const [query, reason] of cases) {
      const response = await list(admin, query);
      expect(response.statusCode, query).toBe(400);
      const body = response.json<{ error: { reason?: string } }>();
      expect(body.error.reason, query).toMatch(reason);
    }
    const badId = await testApp.app.inject({
      method: 'GET',
      url: '/api/.ory/admin/courier/messages/12',
      headers: bearer(admin),
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json<{ error: { reason: string } }>().error.reason).toMatch(/id.*UUID/);
  });

  it('lets only admins read it: editors (who read identities), viewers and strangers are refused', async () => {
    const [latest] = (await list(admin, '?page_size=1')).json<CourierMessage[]>();
    for (const path of ['/api/.ory/admin/courier/messages', `/api/.ory/admin/courier/messages/${latest!.id}`]) {
      for (const [user, status] of [
        [editor, 403],
        [viewer, 403],
        [undefined, 401],
      ] as const) {
        const response = await testApp.app.inject({ method: 'GET', url: path, headers: bearer(user) });
        expect(response.statusCode, `${user?.email ?? 'nobody'} ${path}`).toBe(status);
        expect(response.body).not.toContain('following code');
        expect(response.body).not.toContain('token=');
      }
    }
    // The editor still reads the identity list: the outbox is stricter on purpose.
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/.ory/admin/identities', headers: bearer(editor) }))
        .statusCode,
    ).toBe(200);
  });

  it("is read by the official Kratos client's CourierApi", async () => {
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    const courier = new CourierApi(
      new Configuration({
        basePath: `http://127.0.0.1:${port}/api/.ory`,
        headers: { Accept: 'application/json', Authorization: `Bearer ${admin.token}` },
      }),
    );
    const messages = await courier.listCourierMessages({ status: 'queued', pageSize: 10 });
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages[0]!.created_at).toBeInstanceOf(Date);
    const one = await courier.getCourierMessage({ id: messages[0]!.id });
    expect(one).toMatchObject({ id: messages[0]!.id, recipient: messages[0]!.recipient, status: 'queued' });
    const refused = new CourierApi(
      new Configuration({
        basePath: `http://127.0.0.1:${port}/api/.ory`,
        headers: { Accept: 'application/json', Authorization: `Bearer ${editor.token}` },
      }),
    );
    const error = await refused.listCourierMessages().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).response.status).toBe(403);
  });
});

describe('identity: the email outbox with an SMTP server says so', () => {
  it('answers X-Lookout-Email-Delivery: smtp', async () => {
    const testApp = await buildTestApp({ identity: { smtpUrl: 'smtp://127.0.0.1:1' } });
    try {
      const admin = await createSignedInUser(testApp.app, testApp.database.pool, {
        email: 'smtp-admin@example.com',
        roles: ['admin'],
      });
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/api/.ory/admin/courier/messages',
        headers: bearer(admin),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers[EMAIL_DELIVERY_HEADER]).toBe('smtp');
    } finally {
      await testApp.close();
    }
  });
});
