import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { EXTERNAL_KRATOS_ERRORS, type Role } from '@lookout/contracts';
import { Configuration, FrontendApi, type UiText } from '@ory/kratos-client-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from '../../../../test/access-helpers.js';
import { findFreePort } from '../../../db/free-port.js';
import { buildTestApp, type TestApp } from '../../../../test/build-test-app.js';
import { csrfOf, seedIdentity, TestBrowser } from '../../../../test/identity-helpers.js';
import { errorOf } from '../../../../test/kratos-client-helpers.js';

/**
 * Lookout with an external Ory Kratos (KRATOS_PUBLIC_URL, KRATOS_ADMIN_URL), over real HTTP.
 * The Kratos is another Lookout with its built-in identity service on a real port: it speaks
 * Kratos's public and admin API (identity-kratos-client.test.ts proves it with the official
 * SDK), and its admin API is open to any caller, as Kratos's admin port is (its roles resolve
 * to admin). Its own database holds the identities; Lookout's holds people and roles.
 */

const PASSWORD = 'external-password-1';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { accept: 'application/json', 'content-type': 'application/json' };

describe('identity: an external Ory Kratos behind /api/.ory', () => {
  let kratos: TestApp;
  /** Lookout with KRATOS_PUBLIC_URL and KRATOS_ADMIN_URL, listening (the SDK needs HTTP). */
  let lookout: TestApp;
  /** Lookout with KRATOS_PUBLIC_URL only. */
  let publicOnly: TestApp;
  /** Lookout whose Kratos does not answer. */
  let unreachable: TestApp;
  let kratosBase: string;
  /** Where `lookout` listens: the public URL its Kratos is configured with. */
  let lookoutOrigin: string;
  let ory: FrontendApi;

  /** An identity in Kratos, signed in through `app`'s proxy, with `roles` in Lookout. */
  async function kratosUser(app: TestApp, email: string, roles: readonly Role[] = []) {
    const id = await seedIdentity(kratos.database.pool, { email, password: PASSWORD, verified: true });
    const token = await apiLogin(app.app, email, PASSWORD);
    // The first request with the session makes the person, whose roles are then set.
    const whoami = await app.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(token) });
    expect(whoami.statusCode).toBe(200);
    for (const role of roles) {
      await app.database.pool.query('INSERT INTO role_assignments (person_id, role) VALUES ($1, $2)', [id, role]);
    }
    return { id, email, token };
  }

  beforeAll(async () => {
    // Configured as a real Kratos behind Lookout is: its public URL is Lookout's (Kratos's
    // serve.public.base_url), so its redirects, form actions and links lead the browser back
    // through Lookout's proxy rather than to its own port.
    const port = await findFreePort();
    lookoutOrigin = `http://127.0.0.1:${port}`;
    kratos = await buildTestApp({
      identity: { registrationOpen: true },
      resolveRoles: async () => ['admin'],
      publicUrl: lookoutOrigin,
    });
    await kratos.app.listen({ port: 0, host: '127.0.0.1' });
    kratosBase = `http://127.0.0.1:${(kratos.app.server.address() as AddressInfo).port}/api/.ory`;

    lookout = await buildTestApp({
      identity: { kratosPublicUrl: kratosBase, kratosAdminUrl: kratosBase },
      adminEmail: 'chief@example.com',
    });
    await lookout.app.listen({ port, host: '127.0.0.1' });
    ory = new FrontendApi(
      new Configuration({ basePath: `http://127.0.0.1:${port}/api/.ory`, headers: { Accept: 'application/json' } }),
    );
    publicOnly = await buildTestApp({ identity: { kratosPublicUrl: kratosBase }, adminEmail: 'eve@example.com' });
    // Port 1 on the loopback: nothing listens there, so every connection is refused.
    unreachable = await buildTestApp({
      identity: { kratosPublicUrl: 'http://127.0.0.1:1/api/.ory', kratosAdminUrl: 'http://127.0.0.1:1/api/.ory' },
    });
  });
  afterAll(async () => {
    await Promise.all([lookout?.close(), publicOnly?.close(), unreachable?.close()]);
    await kratos?.close();
  });

  it('signs in through the proxy with the official Kratos client and accepts the session on /api routes', async () => {
    const id = await seedIdentity(kratos.database.pool, {
      email: 'grace@example.com',
      password: PASSWORD,
      first: 'Grace',
      last: 'Hopper',
      verified: true,
    });
    const flow = await ory.createNativeLoginFlow();
    const wrong = await errorOf(
      ory.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { method: 'password', identifier: 'grace@example.com', password: 'not-the-password' },
      }),
    );
    // Kratos's own answer: the flow with its message, not a Lookout error.
    expect(wrong.status).toBe(400);
    expect((wrong.body.ui as { messages: UiText[] }).messages[0]?.id).toBe(4000006);

    const login = await ory.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: 'grace@example.com', password: PASSWORD },
    });
    const token = login.session_token!;
    expect((await ory.toSession({ xSessionToken: token })).identity?.id).toBe(id);

    const whoami = await lookout.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(token) });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().payload.user).toEqual({ id, name: 'Grace Hopper', email: 'grace@example.com', avatar: null });
    // The identity lives in Kratos; Lookout made its person on first sight, and keeps at most a
    // copy of the identity for the Users page, never a credential or a session.
    const person = await lookout.database.pool.query('SELECT name, email FROM people WHERE id = $1', [id]);
    expect(person.rows).toEqual([{ name: 'Grace Hopper', email: 'grace@example.com' }]);
    const identities = await lookout.database.pool.query(
      'SELECT count(*)::int AS n FROM identities WHERE mirrored_at IS NULL',
    );
    expect(identities.rows[0].n).toBe(0);
    for (const table of ['identity_credentials', 'identity_sessions']) {
      const rows = await lookout.database.pool.query(`SELECT count(*)::int AS n FROM ${table}`);
      expect(rows.rows[0].n).toBe(0);
    }

    // An RBAC-protected route: a person without roles is a viewer, so reads but does not write.
    const summary = await lookout.app.inject({
      method: 'GET',
      url: '/api/canary/api/summary',
      headers: bearer(token),
    });
    expect(summary.statusCode).toBe(200);
    const promote = await lookout.app.inject({
      method: 'POST',
      url: `/api/rbac/${id}/update_role`,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: { roles: ['admin'] },
    });
    expect(promote.statusCode).toBe(403);
  });

  it('runs a browser login through the proxy: 303 redirects, CSRF and session cookies on Lookout', async () => {
    await seedIdentity(kratos.database.pool, { email: 'ada@example.com', password: PASSWORD, verified: true });
    const browser = new TestBrowser(lookout.app);

    const start = await browser.get('/api/.ory/self-service/login/browser');
    expect(start.statusCode).toBe(303);
    // Kratos (configured with Lookout's URLs) sends the browser to Lookout's sign-in page.
    const location = new URL(start.headers.location as string);
    expect(location.origin).toBe(lookoutOrigin);
    expect(location.pathname).toBe('/login');
    expect(browser.cookies.has('csrf_token')).toBe(true);

    const flowId = location.searchParams.get('flow')!;
    const flow = await browser.getJson(`/api/.ory/self-service/login/flows?id=${flowId}`);
    expect(flow.statusCode).toBe(200);
    expect(flow.json().ui.action).toContain(`${lookoutOrigin}/api/.ory/self-service/login?flow=`);

    // A plain form post (urlencoded), as the browser sends it, passes through unparsed.
    const submitted = await browser.postForm(`/api/.ory/self-service/login?flow=${flowId}`, {
      method: 'password',
      identifier: 'ada@example.com',
      password: PASSWORD,
      csrf_token: csrfOf(flow.json()),
    });
    expect(submitted.statusCode).toBe(303);
    expect(browser.cookies.has('ory_kratos_session')).toBe(true);
    const setCookie = [submitted.headers['set-cookie']].flat().join('\n');
    expect(setCookie).toMatch(/ory_kratos_session=[^;]+;.*HttpOnly/i);
    expect(setCookie).not.toMatch(/Domain=/i);

    const whoami = await browser.getJson('/api/auth/whoami');
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().payload.user.email).toBe('ada@example.com');
    const kratosWhoami = await browser.getJson('/api/.ory/sessions/whoami');
    expect(kratosWhoami.statusCode).toBe(200);
    expect(kratosWhoami.json().identity.traits.email).toBe('ada@example.com');
  });

  it("passes Kratos's refusals through: an unknown flow, a CSRF violation, no session", async () => {
    const unknown = await lookout.app.inject({
      method: 'GET',
      url: `/api/.ory/self-service/login/flows?id=${randomUUID()}`,
      headers: { accept: 'application/json' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ code: 404, status: 'Not Found' });

    const noFlow = await lookout.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${randomUUID()}`,
      headers: json,
      payload: { method: 'password', identifier: 'nobody@example.com', password: 'whatever-1' },
    });
    expect(noFlow.statusCode).toBe(404);

    const browser = new TestBrowser(lookout.app);
    const flow = await browser.getJson('/api/.ory/self-service/login/browser');
    const forged = await lookout.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${flow.json().id}`,
      headers: json,
      payload: { method: 'password', identifier: 'ada@example.com', password: PASSWORD, csrf_token: 'forged' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.id).toBe('security_csrf_violation');

    const noSession = await lookout.app.inject({ method: 'GET', url: '/api/.ory/sessions/whoami' });
    expect(noSession.statusCode).toBe(401);
    expect(noSession.json().error.id).toBe('session_inactive');
  });

  it('never forwards a spelling of /api/.ory/admin to the public API around the access check', async () => {
    for (const url of [
      '/api/.ory/%61dmin/identities',
      '/api/.ory/self-service/../admin/identities',
      '/api/.ory/self-service/%2e%2e/admin/identities',
      '/api/.ory/x%2F..%2Fadmin/identities',
      '/api/.ory//admin/identities',
      '/api/.ory/ADMIN/identities',
    ]) {
      const response = await lookout.app.inject({ method: 'GET', url });
      expect([401, 404], `${url} → ${response.statusCode} ${response.body}`).toContain(response.statusCode);
    }
  });

  it('gives the admin role to the admin email once Kratos has verified it, and only then', async () => {
    const chief = await kratosUser(lookout, 'chief@example.com');
    const roles = await lookout.database.pool.query('SELECT role FROM role_assignments WHERE person_id = $1', [
      chief.id,
    ]);
    expect(roles.rows).toEqual([{ role: 'admin' }]);

    // publicOnly's admin email signs up herself (open registration), unverified: no role.
    const eve = await ory.createNativeRegistrationFlow().then((flow) =>
      ory.updateRegistrationFlow({
        flow: flow.id,
        updateRegistrationFlowBody: {
          method: 'password',
          password: PASSWORD,
          traits: { email: 'eve@example.com', name: { first: 'Eve', last: 'Adams' } },
        },
      }),
    );
    const whoami = await publicOnly.app.inject({
      method: 'GET',
      url: '/api/auth/whoami',
      headers: bearer(eve.session_token!),
    });
    expect(whoami.statusCode).toBe(200);
    const eveRoles = await publicOnly.database.pool.query('SELECT role FROM role_assignments WHERE person_id = $1', [
      eve.identity.id,
    ]);
    expect(eveRoles.rows).toEqual([]);
  });

  it('proxies the admin API to KRATOS_ADMIN_URL for the roles that read or write identities', async () => {
    const viewer = await kratosUser(lookout, 'viewer-admin-api@example.com');
    const editor = await kratosUser(lookout, 'editor-admin-api@example.com', ['editor']);
    const admin = await kratosUser(lookout, 'admin-admin-api@example.com', ['admin']);
    const list = (token?: string) =>
      lookout.app.inject({
        method: 'GET',
        url: '/api/.ory/admin/identities?credentials_identifier=ada@example.com',
        headers: token ? bearer(token) : {},
      });
    const create = (token: string, email: string) =>
      lookout.app.inject({
        method: 'POST',
        url: '/api/.ory/admin/identities',
        headers: { ...bearer(token), ...json },
        payload: { schema_id: 'default', traits: { email, name: { first: 'New', last: 'Person' } } },
      });

    expect((await list()).statusCode).toBe(401);
    const viewerList = await list(viewer.token);
    expect(viewerList.statusCode).toBe(403);
    expect(viewerList.json().error.code).toBe('forbidden');
    const editorList = await list(editor.token);
    expect(editorList.statusCode).toBe(200);
    expect(editorList.json().map((identity: { traits: { email: string } }) => identity.traits.email)).toEqual([
      'ada@example.com',
    ]);
    expect((await create(editor.token, 'by-editor@example.com')).statusCode).toBe(403);
    const created = await create(admin.token, 'by-admin@example.com');
    expect(created.statusCode).toBe(201);
    const inKratos = await kratos.database.pool.query("SELECT id FROM identities WHERE traits->>'email' = $1", [
      'by-admin@example.com',
    ]);
    expect(inKratos.rows).toEqual([{ id: created.json().id }]);

    // Kratos's own refusal (a malformed identity) comes back as Kratos answered it.
    const malformed = await lookout.app.inject({
      method: 'POST',
      url: '/api/.ory/admin/identities',
      headers: { ...bearer(admin.token), ...json },
      payload: { schema_id: 'default', traits: { email: 'not-an-email' } },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe(400);
  });

  it("proxies Kratos's courier messages to admins only, however the path is spelled", async () => {
    const editor = await kratosUser(lookout, 'editor-courier@example.com', ['editor']);
    const admin = await kratosUser(lookout, 'admin-courier@example.com', ['admin']);
    // A recovery code in Kratos's own outbox (this Kratos has no SMTP server either).
    await seedIdentity(kratos.database.pool, { email: 'courier-target@example.com', password: PASSWORD });
    const flow = await kratos.app.inject({ method: 'GET', url: '/api/.ory/self-service/recovery/api' });
    const sent = await kratos.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/recovery?flow=${flow.json().id}`,
      payload: { method: 'code', email: 'courier-target@example.com' },
    });
    expect(sent.statusCode).toBe(200);
    const path = '/api/.ory/admin/courier/messages?recipient=courier-target@example.com';

    const asAdmin = await lookout.app.inject({ method: 'GET', url: path, headers: bearer(admin.token) });
    expect(asAdmin.statusCode).toBe(200);
    const [message] = asAdmin.json() as { id: string; template_type: string; body: string }[];
    expect(message?.template_type).toBe('recovery_code_valid');
    const one = await lookout.app.inject({
      method: 'GET',
      url: `/api/.ory/admin/courier/messages/${message!.id}`,
      headers: bearer(admin.token),
    });
    expect(one.json()).toMatchObject({ id: message!.id, body: message!.body });

    // The editor reads identities through the proxy, but not the codes Kratos mailed.
    const asEditor = await lookout.app.inject({ method: 'GET', url: path, headers: bearer(editor.token) });
    expect(asEditor.statusCode).toBe(403);
    for (const spelled of [
      '/api/.ory/admin/%63ourier/messages',
      '/api/.ory/admin/COURIER/messages',
      '/api/.ory/admin/identities/../courier/messages',
      '/api/.ory/admin/identities/%2e%2e/courier/messages',
      '/api/.ory/admin//courier/messages',
    ]) {
      const response = await lookout.app.inject({ method: 'GET', url: spelled, headers: bearer(editor.token) });
      expect([403, 404], spelled).toContain(response.statusCode);
      expect(response.body, spelled).not.toContain('following code');
    }

    // Without KRATOS_ADMIN_URL: the same access check first, then the missing setting.
    const publicAdmin = await kratosUser(publicOnly, 'public-courier-admin@example.com', ['admin']);
    const publicEditor = await kratosUser(publicOnly, 'public-courier-editor@example.com', ['editor']);
    const courierPath = '/api/.ory/admin/courier/messages';
    expect(
      (await publicOnly.app.inject({ method: 'GET', url: courierPath, headers: bearer(publicEditor.token) }))
        .statusCode,
    ).toBe(403);
    expect(
      (await publicOnly.app.inject({ method: 'GET', url: courierPath, headers: bearer(publicAdmin.token) })).statusCode,
    ).toBe(503);
  });

  it('administers users through KRATOS_ADMIN_URL: invite, edit with role, delete', async () => {
    const admin = await kratosUser(lookout, 'users-admin@example.com', ['admin']);
    const asAdmin = { ...bearer(admin.token), ...json };

    const invited = await lookout.app.inject({
      method: 'POST',
      url: '/api/auth/invite_user',
      headers: asAdmin,
      payload: { email: 'Invitee@Example.com', firstName: 'In', lastName: 'Vitee', role: 'editor' },
    });
    expect(invited.statusCode).toBe(201);
    const { id, link } = invited.json() as { id: string; link: string };
    expect(link).toContain('/self-service/recovery?');
    const identity = await kratos.database.pool.query(
      "SELECT traits->>'email' AS email FROM identities WHERE id = $1",
      [id],
    );
    expect(identity.rows).toEqual([{ email: 'invitee@example.com' }]);
    const roles = async () =>
      (await lookout.database.pool.query('SELECT role FROM role_assignments WHERE person_id = $1', [id])).rows;
    expect(await roles()).toEqual([{ role: 'editor' }]);

    const updated = await lookout.app.inject({
      method: 'POST',
      url: '/api/people/update',
      headers: asAdmin,
      payload: { id, email: 'invitee@example.com', firstName: 'Ina', lastName: 'Vitee', role: 'viewer' },
    });
    expect(updated.statusCode).toBe(200);
    const traits = await kratos.database.pool.query('SELECT traits FROM identities WHERE id = $1', [id]);
    expect(traits.rows[0].traits.name).toEqual({ first: 'Ina', last: 'Vitee' });
    const person = await lookout.database.pool.query('SELECT name FROM people WHERE id = $1', [id]);
    expect(person.rows).toEqual([{ name: 'Ina Vitee' }]);
    expect(await roles()).toEqual([{ role: 'viewer' }]);

    const removed = await lookout.app.inject({
      method: 'DELETE',
      url: `/api/people/${id}`,
      headers: bearer(admin.token),
    });
    expect(removed.statusCode).toBe(200);
    const gone = await kratos.database.pool.query('SELECT id FROM identities WHERE id = $1', [id]);
    expect(gone.rows).toEqual([]);
    const deleted = await lookout.database.pool.query('SELECT deleted_at FROM people WHERE id = $1', [id]);
    expect(deleted.rows[0].deleted_at).not.toBeNull();
  });

  it('refuses user administration without KRATOS_ADMIN_URL with a 503 naming it, after the access check', async () => {
    const admin = await kratosUser(publicOnly, 'public-only-admin@example.com', ['admin']);
    const viewer = await kratosUser(publicOnly, 'public-only-viewer@example.com');
    const { code, message } = EXTERNAL_KRATOS_ERRORS.adminUrlRequired;
    const calls: { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object }[] = [
      { method: 'GET', url: '/api/.ory/admin/identities' },
      { method: 'POST', url: '/api/.ory/admin/identities', payload: {} },
      {
        method: 'POST',
        url: '/api/auth/invite_user',
        payload: { email: 'x@example.com', firstName: 'X', lastName: 'Y' },
      },
      {
        method: 'POST',
        url: '/api/people/update',
        payload: { id: viewer.id, email: viewer.email, firstName: 'V', lastName: 'W', role: 'viewer' },
      },
      { method: 'DELETE', url: `/api/people/${viewer.id}` },
    ];
    for (const call of calls) {
      const asAdmin = await publicOnly.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...bearer(admin.token), ...(call.payload ? json : {}) },
        ...(call.payload ? { payload: call.payload } : {}),
      });
      expect(asAdmin.statusCode, `${call.method} ${call.url}`).toBe(503);
      expect(asAdmin.json()).toEqual({ error: { code, message }, message });
      const asViewer = await publicOnly.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...bearer(viewer.token), ...(call.payload ? json : {}) },
        ...(call.payload ? { payload: call.payload } : {}),
      });
      expect(asViewer.statusCode, `${call.method} ${call.url} as a viewer`).toBe(403);
    }
    // Roles are Lookout's own: they change without the admin API.
    const promoted = await publicOnly.app.inject({
      method: 'POST',
      url: `/api/rbac/${viewer.id}/update_role`,
      headers: { ...bearer(admin.token), ...json },
      payload: { roles: ['editor'] },
    });
    expect(promoted.statusCode).toBe(200);
  });

  it('answers sign-in settings without asking Kratos: registration as configured, its providers in its flows', async () => {
    for (const app of [lookout, unreachable]) {
      const config = await app.app.inject({ method: 'GET', url: '/api/auth/config' });
      expect(config.statusCode).toBe(200);
      expect(config.json()).toEqual({ registration_open: false, oidc_providers: [], user_admin: true });
    }
    // Without KRATOS_ADMIN_URL nobody can list or manage identities: the console leaves the
    // Users page out.
    const config = await publicOnly.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(config.json()).toEqual({ registration_open: false, oidc_providers: [], user_admin: false });
  });

  it('answers an unreachable Kratos with 502/503 in the error envelope, never a 500', async () => {
    const { publicUnreachable } = EXTERNAL_KRATOS_ERRORS;
    const flow = await unreachable.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/browser' });
    expect(flow.statusCode).toBe(502);
    expect(flow.json()).toEqual({
      error: { code: publicUnreachable.code, message: publicUnreachable.message },
      message: publicUnreachable.message,
    });
    const submit = await unreachable.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${randomUUID()}`,
      headers: json,
      payload: { method: 'password', identifier: 'a@example.com', password: 'whatever-1' },
    });
    expect(submit.statusCode).toBe(502);

    // A session cannot be checked: 503, rather than a 401 that would send the user to sign in.
    for (const url of ['/api/auth/whoami', '/api/.ory/admin/identities', '/api/properties']) {
      const response = await unreachable.app.inject({ method: 'GET', url, headers: bearer('ory_st_anything') });
      expect(response.statusCode, url).toBe(503);
      expect(response.json().error).toEqual({ code: publicUnreachable.code, message: publicUnreachable.message });
    }
    // Without a session nothing needs Kratos: the access check answers as usual.
    expect((await unreachable.app.inject({ method: 'GET', url: '/api/auth/whoami' })).statusCode).toBe(401);
  });
});
