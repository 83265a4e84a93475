import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { browserFlow, browserLogin, csrfOf, seedIdentity, TestBrowser } from '../../../test/identity-helpers.js';

const PASSWORD = 'correct-horse-battery';

describe('identity: recovery, verification and the admin API', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
    await seedIdentity(testApp.database.pool, {
      email: 'alan@example.com',
      password: PASSWORD,
      first: 'Alan',
      last: 'Turing',
    });
    await seedIdentity(testApp.database.pool, {
      email: 'admin@example.com',
      password: PASSWORD,
      first: 'Ad',
      last: 'Min',
      verified: true,
      roles: ['admin'],
    });
  });
  afterAll(() => testApp.close());

  it('recovers an account with an admin recovery code; wrong codes are refused', async () => {
    const admin = new TestBrowser(testApp.app);
    await browserLogin(admin, 'admin@example.com', PASSWORD);
    const identities = await admin.getJson('/api/.ory/admin/identities?credentials_identifier=alan@example.com');
    const alan = identities.json()[0];
    const created = await admin.postJson('/api/.ory/admin/recovery/code', { identity_id: alan.id, expires_in: '30m' });
    expect(created.statusCode).toBe(201);
    const { recovery_link: link, recovery_code: code } = created.json();
    expect(code).toMatch(/^\d{6}$/);
    const flowId = new URL(link).searchParams.get('flow');

    const user = new TestBrowser(testApp.app);
    const flow = await user.getJson(`/api/.ory/self-service/recovery/flows?id=${flowId}`);
    expect(flow.statusCode).toBe(200);
    expect(flow.json().state).toBe('sent_email');
    const url = `/api/.ory/self-service/recovery?flow=${flowId}`;
    const wrong = await user.postJson(url, { method: 'code', code: '000000', csrf_token: csrfOf(flow.json()) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().ui.messages[0]).toMatchObject({
      id: 4060006,
      text: 'The recovery code is invalid or has already been used. Please try again.',
    });
    const ok = await user.postJson(url, { method: 'code', code, csrf_token: csrfOf(flow.json()) });
    expect(ok.statusCode).toBe(422);
    expect(ok.json().error.id).toBe('browser_location_change_required');
    const settingsUrl = new URL(ok.json().redirect_browser_to);
    expect(settingsUrl.pathname).toBe('/profile-settings');
    const settings = await user.getJson(
      `/api/.ory/self-service/settings/flows?id=${settingsUrl.searchParams.get('flow')}`,
    );
    expect(settings.statusCode).toBe(200);
    expect(settings.json().ui.messages[0]).toMatchObject({ id: 1060001, type: 'success' });
    expect((await user.getJson('/api/.ory/sessions/whoami')).json().authentication_methods[0].method).toBe(
      'code_recovery',
    );

    const replay = await user.postJson(url, { method: 'code', code, csrf_token: csrfOf(flow.json()) });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().ui.messages[0].id).toBe(4060001);
  });

  it('recovers through an admin recovery link', async () => {
    const admin = new TestBrowser(testApp.app);
    await browserLogin(admin, 'admin@example.com', PASSWORD);
    const alan = (await admin.getJson('/api/.ory/admin/identities?credentials_identifier=alan@example.com')).json()[0];
    const created = await admin.postJson('/api/.ory/admin/recovery/link', { identity_id: alan.id });
    expect(created.statusCode).toBe(200);
    const link = new URL(created.json().recovery_link);
    const user = new TestBrowser(testApp.app);
    const opened = await user.get(`${link.pathname}${link.search}`);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toMatch(/\/profile-settings\?flow=/);
    expect(user.cookies.has('ory_kratos_session')).toBe(true);
    const reused = await new TestBrowser(testApp.app).get(`${link.pathname}${link.search}`);
    expect(reused.statusCode).toBe(303);
    expect(reused.headers.location).toMatch(/\/recovery\?flow=/);
  });

  it('asks for the email, answers alike for unknown addresses, and refuses wrong verification codes', async () => {
    for (const kind of ['recovery', 'verification'] as const) {
      const browser = new TestBrowser(testApp.app);
      const flow = await browserFlow(browser, kind);
      expect(flow.ui.nodes.map((node) => node.attributes.name)).toEqual(['csrf_token', 'email', 'method']);
      const url = `/api/.ory/self-service/${kind}?flow=${flow.id}`;
      const invalid = await browser.postJson(url, { method: 'code', email: 'not an email', csrf_token: csrfOf(flow) });
      expect(invalid.statusCode).toBe(400);
      const unknown = await browser.postJson(url, {
        method: 'code',
        email: 'ghost@example.com',
        csrf_token: csrfOf(flow),
      });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toMatchObject({
        state: 'sent_email',
        ui: { messages: [{ id: kind === 'recovery' ? 1060003 : 1080003 }] },
      });
      const wrong = await browser.postJson(url, { method: 'code', code: '123456', csrf_token: csrfOf(flow) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().ui.messages[0].id).toBe(kind === 'recovery' ? 4060006 : 4070006);
      const expired = await browserFlow(browser, kind);
      await testApp.database.pool.query(
        `UPDATE identity_flows SET expires_at = now() - interval '1 minute' WHERE id = $1`,
        [expired.id],
      );
      const gone = await browser.postJson(`/api/.ory/self-service/${kind}?flow=${expired.id}`, {
        method: 'code',
        email: 'alan@example.com',
        csrf_token: csrfOf(expired),
      });
      expect(gone.statusCode).toBe(410);
    }
  });

  it('restricts the admin API to signed-in admins and validates its input', async () => {
    expect((await testApp.app.inject({ method: 'GET', url: '/api/.ory/admin/identities' })).statusCode).toBe(401);
    const admin = new TestBrowser(testApp.app);
    await browserLogin(admin, 'admin@example.com', PASSWORD);
    const created = await admin.postJson('/api/.ory/admin/identities', {
      schema_id: 'default',
      traits: { email: 'Linus@Example.com', name: { first: 'Linus', last: 'T' } },
      credentials: { password: { config: { password: 'linus-password' } } },
      verifiable_addresses: [{ value: 'linus@example.com', verified: true, via: 'email', status: 'completed' }],
    });
    expect(created.statusCode).toBe(201);
    const linus = created.json();
    expect(linus).toMatchObject({
      traits: { email: 'linus@example.com' },
      state: 'active',
      credentials: { password: { identifiers: ['linus@example.com'] } },
    });
    expect(JSON.stringify(linus)).not.toMatch(/argon2|linus-password/);
    expect((await browserLogin(new TestBrowser(testApp.app), 'linus@example.com', 'linus-password')).statusCode).toBe(
      200,
    );

    expect(
      (
        await admin.postJson('/api/.ory/admin/identities', {
          schema_id: 'default',
          traits: { email: 'linus@example.com' },
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await admin.postJson('/api/.ory/admin/identities', { schema_id: 'default', traits: { email: 'nope' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await admin.postJson('/api/.ory/admin/identities', { schema_id: 'other', traits: { email: 'x@example.com' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await admin.postJson('/api/.ory/admin/identities', {
          traits: { email: 'y@example.com' },
          credentials: { password: { config: { password: 'short' } } },
        })
      ).statusCode,
    ).toBe(400);

    const list = await admin.getJson('/api/.ory/admin/identities?page_size=2');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(2);
    expect(list.headers.link).toContain('rel="next"');

    const updated = await admin.request({
      method: 'PUT',
      url: `/api/.ory/admin/identities/${linus.id}`,
      payload: {
        schema_id: 'default',
        state: 'inactive',
        traits: { email: 'linus@example.com', name: { first: 'Linus', last: 'Torvalds' } },
      },
      headers: { accept: 'application/json' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ state: 'inactive', traits: { name: { last: 'Torvalds' } } });
    const inactiveLogin = await browserLogin(new TestBrowser(testApp.app), 'linus@example.com', 'linus-password');
    expect(inactiveLogin.json().ui.messages[0].id).toBe(4000006);

    expect((await admin.getJson(`/api/.ory/admin/identities/${linus.id}`)).statusCode).toBe(200);
    expect((await admin.getJson('/api/.ory/admin/identities/00000000-0000-0000-0000-000000000000')).statusCode).toBe(
      404,
    );
    expect((await admin.request({ method: 'DELETE', url: `/api/.ory/admin/identities/${linus.id}` })).statusCode).toBe(
      204,
    );
    expect((await admin.request({ method: 'DELETE', url: `/api/.ory/admin/identities/${linus.id}` })).statusCode).toBe(
      404,
    );
    const person = await testApp.database.pool.query('SELECT deleted_at FROM people WHERE id = $1', [linus.id]);
    expect(person.rows[0].deleted_at).not.toBeNull();
    expect((await admin.postJson('/api/.ory/admin/recovery/code', { identity_id: linus.id })).statusCode).toBe(404);
    expect((await admin.postJson('/api/.ory/admin/recovery/code', {})).statusCode).toBe(400);
  });
});
