import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { TestBrowser } from '../../../test/identity-helpers.js';

/** Users, roles and properties through the HTTP API, each caller with a real session. */
describe('access: user administration, roles and properties', () => {
  let testApp: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let responder: TestUser;

  beforeAll(async () => {
    testApp = await buildTestApp({
      localProperties: [
        { name: 'logs.disable', value: 'true', description: 'Logs are not collected here' },
        { name: 'local.only', value: '42' },
      ],
    });
    const make = (email: string, roles: Parameters<typeof createSignedInUser>[2]['roles'], first: string) =>
      createSignedInUser(testApp.app, testApp.database.pool, { email, roles, first, last: 'Tester' });
    admin = await make('admin@example.com', ['admin'], 'Ada');
    editor = await make('editor@example.com', ['editor'], 'Edith');
    viewer = await make('viewer@example.com', [], 'Vera');
    responder = await make('responder@example.com', ['responder'], 'Rita');
  });
  afterAll(() => testApp?.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    user: TestUser | undefined,
    payload?: unknown,
  ) =>
    testApp.app.inject({
      method,
      url,
      headers: { ...bearer(user), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const query = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
    (await testApp.database.pool.query<T>(sql, values)).rows;
  const rolesOf = async (id: string) =>
    (await query<{ roles: string[] }>('SELECT roles FROM people_roles WHERE id = $1', [id]))[0]?.roles;

  describe('people_roles and identities through /api/db', () => {
    it('lets every signed-in user read roles, a user without roles having an empty list', async () => {
      const own = await call('GET', `/api/db/people_roles?id=in.(${viewer.id},${admin.id})&order=email`, viewer);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual([
        { id: admin.id, name: 'Ada Tester', email: 'admin@example.com', roles: ['admin'] },
        { id: viewer.id, name: 'Vera Tester', email: 'viewer@example.com', roles: [] },
      ]);
      expect((await call('GET', '/api/db/people_roles', undefined)).statusCode).toBe(401);
    });

    it('keeps people_roles read-only: 405 for writers, 403 for the others, nothing stored', async () => {
      const body = { id: randomUUID(), name: 'Mallory', email: 'mallory@example.com' };
      expect((await call('POST', '/api/db/people_roles', viewer, body)).statusCode).toBe(403);
      const refused = await call('POST', '/api/db/people_roles', admin, body);
      expect(refused.statusCode).toBe(405);
      expect(refused.json().message).toMatch(/update_role/);
      expect(await query("SELECT id FROM people WHERE email = 'mallory@example.com'")).toEqual([]);
    });

    it('shows identities to roles that read identities only, without secrets, and never writes them', async () => {
      expect((await call('GET', '/api/db/identities', viewer)).statusCode).toBe(403);
      expect((await call('GET', '/api/db/identities', responder)).statusCode).toBe(403);
      const listed = await call('GET', '/api/db/identities?order=created_at', editor);
      expect(listed.statusCode).toBe(200);
      const rows = listed.json<{ id: string; state: string; traits: { email: string } }[]>();
      expect(rows.map((row) => row.traits.email)).toContain('viewer@example.com');
      expect(rows[0]).toMatchObject({ state: 'active', nid: expect.any(String), created_at: expect.any(String) });
      expect(listed.body).not.toMatch(/argon2|hashed_password|token/);
      // Credentials live in another table, which is not on the allow-list: embedding it finds no
      // relationship, as PostgREST answers a missing one, and the answer never names it.
      const embedded = await call('GET', '/api/db/identities?select=id,identity_credentials(*)', admin);
      expect(embedded.statusCode).toBe(400);
      expect(embedded.json()).toMatchObject({ code: 'PGRST200' });
      expect(embedded.body).not.toMatch(/hashed_password|argon2/);
      expect(
        (await call('PATCH', `/api/db/identities?id=eq.${viewer.id}`, admin, { state: 'inactive' })).statusCode,
      ).toBe(405);
      expect(
        (await call('PATCH', `/api/db/identities?id=eq.${viewer.id}`, editor, { state: 'inactive' })).statusCode,
      ).toBe(403);
      expect(
        (await query<{ state: string }>('SELECT state FROM identities WHERE id = $1', [viewer.id]))[0]?.state,
      ).toBe('active');
    });
  });

  describe('POST /api/rbac/{id}/update_role', () => {
    it('needs write on rbac: 401 without a session, 403 for editor, viewer and responder', async () => {
      const url = `/api/rbac/${viewer.id}/update_role`;
      expect((await call('POST', url, undefined, { roles: ['editor'] })).statusCode).toBe(401);
      for (const user of [editor, viewer, responder]) {
        const refused = await call('POST', url, user, { roles: ['admin'] });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().message).toMatch(/do not allow write on rbac/);
      }
      expect(await rolesOf(viewer.id)).toEqual([]);
    });

    it('replaces the roles, which count from the very next request', async () => {
      const flag = { name: 'promotion.test', value: 'x', created_by: viewer.id };
      expect((await call('POST', '/api/db/properties', viewer, flag)).statusCode).toBe(403);
      const set = await call('POST', `/api/rbac/${viewer.id}/update_role`, admin, {
        roles: ['editor', 'responder', 'editor'],
      });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ message: 'Roles of Vera Tester set to editor, responder.' });
      expect(await rolesOf(viewer.id)).toEqual(['editor', 'responder']);
      expect((await call('POST', '/api/db/properties', viewer, flag)).statusCode).toBe(201);
      const cleared = await call('POST', `/api/rbac/${viewer.id}/update_role`, admin, { roles: [] });
      expect(cleared.json().message).toBe('Roles of Vera Tester set to none (a viewer).');
      expect(await rolesOf(viewer.id)).toEqual([]);
      expect((await call('DELETE', '/api/db/properties?name=eq.promotion.test', viewer)).statusCode).toBe(403);
    });

    it('refuses bad input with a 400 naming the field, and unknown people with 404', async () => {
      const bad = await call('POST', `/api/rbac/${viewer.id}/update_role`, admin, { roles: ['root'] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/body\.roles\.0/);
      expect((await call('POST', `/api/rbac/${viewer.id}/update_role`, admin, {})).statusCode).toBe(400);
      expect((await call('POST', `/api/rbac/${viewer.id}/update_role`, admin, { roles: 'admin' })).statusCode).toBe(
        400,
      );
      expect((await call('POST', '/api/rbac/not-a-uuid/update_role', admin, { roles: [] })).statusCode).toBe(400);
      const missing = await call('POST', `/api/rbac/${randomUUID()}/update_role`, admin, { roles: ['viewer'] });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('not_found');
      expect(await rolesOf(viewer.id)).toEqual([]);
    });

    it('keeps at least one active admin', async () => {
      const alone = await call('POST', `/api/rbac/${admin.id}/update_role`, admin, { roles: ['editor'] });
      expect(alone.statusCode).toBe(409);
      expect(alone.json()).toMatchObject({ error: { code: 'last_admin' } });
      expect(await rolesOf(admin.id)).toEqual(['admin']);

      // With a second admin, an admin may step down.
      expect((await call('POST', `/api/rbac/${editor.id}/update_role`, admin, { roles: ['admin'] })).statusCode).toBe(
        200,
      );
      expect((await call('POST', `/api/rbac/${admin.id}/update_role`, admin, { roles: ['editor'] })).statusCode).toBe(
        200,
      );
      expect((await call('POST', `/api/rbac/${admin.id}/update_role`, editor, { roles: ['admin'] })).statusCode).toBe(
        200,
      );
      expect((await call('POST', `/api/rbac/${editor.id}/update_role`, admin, { roles: ['editor'] })).statusCode).toBe(
        200,
      );
      expect(await rolesOf(admin.id)).toEqual(['admin']);
      expect(await rolesOf(editor.id)).toEqual(['editor']);
    });
  });

  describe('POST /api/auth/invite_user', () => {
    const invite = { firstName: 'Grace', lastName: 'Hopper', email: 'Grace@Example.com', role: 'editor' };

    it('needs write on identities', async () => {
      expect((await call('POST', '/api/auth/invite_user', undefined, invite)).statusCode).toBe(401);
      for (const user of [editor, viewer, responder]) {
        expect((await call('POST', '/api/auth/invite_user', user, invite)).statusCode).toBe(403);
      }
      expect(await query("SELECT id FROM identities WHERE traits->>'email' = 'grace@example.com'")).toEqual([]);
    });

    it('validates with the texts of spec 1 section 5 and stores nothing', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ ...invite, firstName: '  ' }, /Please provide valid first name/],
        [{ ...invite, lastName: undefined }, /Please provide valid last name/],
        [{ ...invite, email: '' }, /Please provide valid email/],
        [{ ...invite, email: 'grace-at-example' }, /Entered value does not match email format/],
        [{ ...invite, role: 'root' }, /Please select any role/],
        [{ ...invite, email: `${'x'.repeat(320)}@example.com` }, /body\.email/],
      ];
      for (const [body, message] of cases) {
        const response = await call('POST', '/api/auth/invite_user', admin, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().message).toMatch(message);
      }
      const malformed = await testApp.app.inject({
        method: 'POST',
        url: '/api/auth/invite_user',
        headers: { ...bearer(admin), 'content-type': 'application/json' },
        payload: '{"firstName": ',
      });
      expect(malformed.statusCode).toBe(400);
      expect(await query("SELECT id FROM identities WHERE traits->>'email' LIKE 'grace%'")).toEqual([]);
    });

    it('creates the identity with the role and a link that lets the new user set a password', async () => {
      const response = await call('POST', '/api/auth/invite_user', admin, invite);
      expect(response.statusCode).toBe(201);
      const body = response.json<{ id: string; invited: boolean; link: string; message: string }>();
      expect(body).toMatchObject({
        invited: true,
        id: expect.any(String),
        link: expect.stringContaining('/api/.ory/self-service/recovery?'),
      });
      const [identity] = await query<{ traits: unknown; state: string }>(
        'SELECT traits, state FROM identities WHERE id = $1',
        [body.id],
      );
      expect(identity).toEqual({
        traits: { email: 'grace@example.com', name: { first: 'Grace', last: 'Hopper' } },
        state: 'active',
      });
      expect(await rolesOf(body.id)).toEqual(['editor']);
      expect(
        await query('SELECT template_type, recipient FROM identity_courier_messages WHERE recipient = $1', [
          'grace@example.com',
        ]),
      ).toEqual([{ template_type: 'invite', recipient: 'grace@example.com' }]);

      // The invitee opens the link: signed in, sent to the settings page to choose a password.
      const browser = new TestBrowser(testApp.app);
      const link = new URL(body.link);
      const opened = await browser.get(`${link.pathname}${link.search}`);
      expect(opened.statusCode).toBe(303);
      expect(opened.headers.location).toMatch(/\/profile-settings\?flow=/);
      const whoami = await browser.getJson('/api/auth/whoami');
      expect(whoami.statusCode).toBe(200);
      expect(whoami.json().payload.user).toMatchObject({
        id: body.id,
        email: 'grace@example.com',
        name: 'Grace Hopper',
      });
    });

    it('sets the role of a user who already exists instead of inviting again', async () => {
      const again = await call('POST', '/api/auth/invite_user', admin, {
        ...invite,
        email: 'responder@example.com',
        role: 'admin',
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ invited: false, id: responder.id });
      expect(again.json().link).toBeUndefined();
      // The form's role replaces admin/editor/viewer; the incident role stays.
      expect(await rolesOf(responder.id)).toEqual(['admin', 'responder']);
      const unchanged = await call('POST', '/api/auth/invite_user', admin, {
        firstName: 'R',
        lastName: 'T',
        email: 'responder@example.com',
      });
      expect(unchanged.statusCode).toBe(200);
      expect(unchanged.json().message).toMatch(/nothing was changed/);
      await call('POST', `/api/rbac/${responder.id}/update_role`, admin, { roles: ['responder'] });
    });
  });

  describe('POST /api/people/update', () => {
    let target: TestUser;
    beforeAll(async () => {
      target = await createSignedInUser(testApp.app, testApp.database.pool, {
        email: 'alan@example.com',
        roles: ['commander', 'viewer'],
        first: 'Alan',
        last: 'Turing',
      });
    });
    const update = () => ({
      id: target.id,
      firstName: 'Alan M.',
      lastName: 'Turing',
      email: 'alan.turing@example.com',
      role: 'editor',
      active: true,
    });

    it('needs write on identities', async () => {
      expect((await call('POST', '/api/people/update', undefined, update())).statusCode).toBe(401);
      for (const user of [editor, viewer, responder]) {
        expect((await call('POST', '/api/people/update', user, update())).statusCode).toBe(403);
      }
    });

    it('refuses bad input, unknown users and a taken email, changing nothing', async () => {
      for (const body of [
        { ...update(), id: 'nope' },
        { ...update(), email: 'not an email' },
        { ...update(), role: undefined },
        { ...update(), active: 'yes' },
        { ...update(), firstName: '' },
      ]) {
        expect((await call('POST', '/api/people/update', admin, body)).statusCode, JSON.stringify(body)).toBe(400);
      }
      expect((await call('POST', '/api/people/update', admin, { ...update(), id: randomUUID() })).statusCode).toBe(404);
      const taken = await call('POST', '/api/people/update', admin, { ...update(), email: 'viewer@example.com' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe('Another user already has the email viewer@example.com.');
      expect(
        await query<{ name: string; email: string }>('SELECT name, email FROM people WHERE id = $1', [target.id]),
      ).toEqual([{ name: 'Alan Turing', email: 'alan@example.com' }]);
      expect(await rolesOf(target.id)).toEqual(['commander', 'viewer']);
    });

    it('updates names, email, role and state; deactivation ends the sessions', async () => {
      const response = await call('POST', '/api/people/update', admin, update());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ email: 'alan.turing@example.com', name: { first: 'Alan M.', last: 'Turing' } });
      expect(
        await query<{ name: string; email: string }>('SELECT name, email FROM people WHERE id = $1', [target.id]),
      ).toEqual([{ name: 'Alan M. Turing', email: 'alan.turing@example.com' }]);
      expect(await rolesOf(target.id)).toEqual(['editor', 'commander']);
      // The session still works; the email is the new sign-in identifier.
      expect((await call('GET', '/api/auth/whoami', target)).json().payload.user.email).toBe('alan.turing@example.com');

      const deactivated = await call('POST', '/api/people/update', admin, { ...update(), active: false });
      expect(deactivated.statusCode).toBe(200);
      expect(
        (await query<{ state: string }>('SELECT state FROM identities WHERE id = $1', [target.id]))[0]?.state,
      ).toBe('inactive');
      expect((await call('GET', '/api/properties', target)).statusCode).toBe(401);
    });

    it('does not let an admin deactivate themselves', async () => {
      const self = await call('POST', '/api/people/update', admin, {
        id: admin.id,
        firstName: 'Ada',
        lastName: 'Tester',
        email: 'admin@example.com',
        role: 'admin',
        active: false,
      });
      expect(self.statusCode).toBe(409);
      expect(self.json().error.code).toBe('cannot_deactivate_self');
    });
  });

  describe('DELETE /api/people/{id}', () => {
    it('needs write on identities and refuses to delete yourself', async () => {
      const doomed = await createSignedInUser(testApp.app, testApp.database.pool, {
        email: 'doomed@example.com',
        roles: ['editor'],
      });
      expect((await call('DELETE', `/api/people/${doomed.id}`, undefined)).statusCode).toBe(401);
      expect((await call('DELETE', `/api/people/${doomed.id}`, editor)).statusCode).toBe(403);
      const self = await call('DELETE', `/api/people/${admin.id}`, admin);
      expect(self.statusCode).toBe(409);
      expect(self.json()).toMatchObject({ error: { code: 'cannot_delete_self' } });
      expect((await call('DELETE', '/api/people/not-a-uuid', admin)).statusCode).toBe(400);
      expect((await call('DELETE', `/api/people/${randomUUID()}`, admin)).statusCode).toBe(404);

      const deleted = await call('DELETE', `/api/people/${doomed.id}`, admin);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json().message).toBe('User Test User deleted.');
      expect(await query('SELECT id FROM identities WHERE id = $1', [doomed.id])).toEqual([]);
      expect(await query('SELECT person_id FROM role_assignments WHERE person_id = $1', [doomed.id])).toEqual([]);
      const [person] = await query<{ deleted_at: Date | null }>('SELECT deleted_at FROM people WHERE id = $1', [
        doomed.id,
      ]);
      expect(person?.deleted_at).toBeInstanceOf(Date);
      expect((await call('GET', '/api/properties', doomed)).statusCode).toBe(401);
      expect((await call('DELETE', `/api/people/${doomed.id}`, admin)).statusCode).toBe(404);
    });
  });

  describe('properties and feature flags', () => {
    it('lists local properties (read-only) before database ones to any signed-in user', async () => {
      await query(
        `INSERT INTO properties (name, value, description, created_by) VALUES
           ('incidents.disable', 'false', 'Incidents on', $1), ('logs.disable', 'false', 'shadowed', $1)`,
        [admin.id],
      );
      expect((await call('GET', '/api/properties', undefined)).statusCode).toBe(401);
      const response = await call('GET', '/api/properties', viewer);
      expect(response.statusCode).toBe(200);
      const list = response.json<{ name: string; source: string }[]>();
      expect(list.slice(0, 2)).toEqual([
        {
          name: 'logs.disable',
          value: 'true',
          description: 'Logs are not collected here',
          source: 'local',
          type: 'boolean',
          created_by: null,
          created_at: null,
          updated_at: null,
        },
        expect.objectContaining({ name: 'local.only', value: '42', source: 'local', type: 'number' }),
      ]);
      expect(list.find((property) => property.name === 'incidents.disable')).toEqual({
        name: 'incidents.disable',
        value: 'false',
        description: 'Incidents on',
        source: 'db',
        type: 'boolean',
        created_by: { id: admin.id, name: 'Ada Tester', avatar: null },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(list.filter((property) => property.name === 'logs.disable')).toHaveLength(1);
    });

    it('refuses to create or change a local flag through /api/db, with 409', async () => {
      const created = await call('POST', '/api/db/properties', admin, {
        name: 'local.only',
        value: '1',
        created_by: admin.id,
      });
      expect(created.statusCode).toBe(409);
      expect(created.json().message).toBe(
        "Feature flag 'local.only' is set in the server configuration (source local) and cannot be created or changed here.",
      );
      const shadowed = await call('PATCH', '/api/db/properties?name=eq.logs.disable', admin, { value: 'true' });
      expect(shadowed.statusCode).toBe(409);
      const renamed = await call('PATCH', '/api/db/properties?name=eq.incidents.disable', admin, {
        name: 'local.only',
      });
      expect(renamed.statusCode).toBe(409);
      expect(await query('SELECT name FROM properties WHERE name = $1', ['local.only'])).toEqual([]);
      // Cleaning up a database row that a local flag shadows is allowed.
      expect((await call('DELETE', '/api/db/properties?name=eq.logs.disable', admin)).statusCode).toBeLessThan(300);
    });

    it('needs write on feature_flags to change flags', async () => {
      const flag = { name: 'playbooks.disable', value: 'true', created_by: responder.id };
      expect((await call('POST', '/api/db/properties', responder, flag)).statusCode).toBe(403);
      expect((await call('POST', '/api/db/properties', viewer, flag)).statusCode).toBe(403);
      expect((await call('GET', '/api/db/properties?name=eq.incidents.disable', responder)).statusCode).toBe(200);
    });

    it("answers 404 on a disabled feature's routes, at once after the flag is written", async () => {
      const body = { firstName: 'Katherine', lastName: 'Johnson', email: 'katherine@example.com' };
      const created = await call('POST', '/api/db/properties', editor, {
        name: 'settings.users.disable',
        value: 'true',
        created_by: editor.id,
      });
      expect(created.statusCode).toBe(201);
      const hidden = await call('POST', '/api/auth/invite_user', admin, body);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toMatchObject({ error: { code: 'feature_disabled' } });
      // Nobody signed in gets the same 404: a disabled route does not exist.
      expect((await call('POST', '/api/auth/invite_user', undefined, body)).statusCode).toBe(404);

      expect(
        (await call('PATCH', '/api/db/properties?name=eq.settings.users.disable', editor, { value: 'false' }))
          .statusCode,
      ).toBeLessThan(300);
      expect((await call('POST', '/api/auth/invite_user', admin, body)).statusCode).toBe(201);
    });
  });
});
