import { ROLES, TEAM_CREATED_BY_SELECT, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Teams through /api/db exactly as the console calls them (spec 2 section 7.1, ui-calls
 * sections 3.10 and 3.14; migration 15), as real signed-in users of each role: who may
 * create, rename, soft-delete and change members, and the answers to bad input.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
/** People who are not users: candidates for membership. */
let ada: string;
let bob: string;
let gone: string;
let configFileTeam: string;

const WRITERS: readonly Role[] = ['admin', 'editor'];
const READERS_ONLY: readonly Role[] = ['viewer', 'commander', 'responder'];

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const call = (user: TestUser, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      // What the console sends on every call (apps/web/src/lib/api-client.ts).
      prefer: 'return=representation',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });

const query = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<T[]> =>
  (await testApp.database.pool.query<T>(sql, values)).rows;

/** A UI team made directly in the database, authored by the admin. */
const seedTeam = async (name: string): Promise<string> =>
  (
    await query<{ id: string }>('INSERT INTO teams (name, created_by) VALUES ($1, $2) RETURNING id', [
      name,
      users.admin.id,
    ])
  )[0]!.id;

const membersOf = async (teamId: string): Promise<string[]> =>
  (
    await query<{ person_id: string }>('SELECT person_id FROM team_members WHERE team_id = $1 ORDER BY person_id', [
      teamId,
    ])
  )
    .map((row) => row.person_id)
    .sort();

beforeAll(async () => {
  testApp = await buildTestApp();
  const { app, database } = testApp;
  for (const role of ROLES) {
    users[role] = await createSignedInUser(app, database.pool, { email: `${role}@example.com`, roles: [role] });
  }
  const people = await query<{ id: string; name: string }>(
    `INSERT INTO people (name, email, deleted_at) VALUES
       ('Ada Lovelace', 'ada@example.com', NULL), ('Bob Builder', 'bob@example.com', NULL),
       ('Gone Person', 'gone@example.com', now())
     RETURNING id, name`,
  );
  const idOf = (name: string) => people.find((row) => row.name === name)!.id;
  ada = idOf('Ada Lovelace');
  bob = idOf('Bob Builder');
  gone = idOf('Gone Person');
  configFileTeam = (
    await query<{ id: string }>(
      "INSERT INTO teams (name, source, created_by) VALUES ('from-file', 'ConfigFile', $1) RETURNING id",
      [users.admin.id],
    )
  )[0]!.id;
});
afterAll(() => testApp.close());

describe('the console calls', () => {
  it('creates a team with POST /api/db/teams and reads it back in the list with its author and members', async () => {
    const created = await call(users.admin, 'POST', '/api/db/teams', {
      name: 'Platform',
      icon: 'group',
      spec: { notifications: [{ connection: 'connection://default/slack' }] },
      created_by: users.admin.id,
    });
    expect(created.statusCode).toBe(201);
    const [team] = created.json<{ id: string; name: string; source: string }[]>();
    expect(team).toMatchObject({ name: 'Platform', source: 'UI' });

    const added = await call(users.admin, 'POST', '/api/db/team_members', [
      { team_id: team!.id, person_id: ada },
      { team_id: team!.id, person_id: bob },
    ]);
    expect(added.statusCode).toBe(201);

    const list = await call(
      users.admin,
      'GET',
      `/api/db/teams_with_status?select=*,${TEAM_CREATED_BY_SELECT}&deleted_at=is.null&order=created_at.desc&limit=100`,
    );
    expect(list.statusCode).toBe(200);
    const row = list.json<Record<string, unknown>[]>().find((entry) => entry.id === team!.id);
    expect(row).toMatchObject({
      name: 'Platform',
      icon: 'group',
      source: 'UI',
      members_count: 2,
      deleted_at: null,
      spec: { notifications: [{ connection: 'connection://default/slack' }] },
      created_by: { id: users.admin.id, name: 'Test User', email: 'admin@example.com', avatar: null },
    });

    const members = await call(
      users.viewer,
      'GET',
      `/api/db/team_members?team_id=eq.${team!.id}&select=*,person_id(*)`,
    );
    expect(members.statusCode).toBe(200);
    expect(
      members
        .json<{ person_id: { id: string; name: string; email: string } }[]>()
        .map((member) => member.person_id.name)
        .sort(),
    ).toEqual(['Ada Lovelace', 'Bob Builder']);

    const byName = await call(users.viewer, 'GET', '/api/db/teams?deleted_at=is.null&order=name.asc');
    expect(byName.json<{ name: string }[]>().map((entry) => entry.name)).toContain('Platform');
    const one = await call(users.viewer, 'GET', `/api/db/teams?id=eq.${team!.id}`);
    expect(one.json()).toEqual([expect.objectContaining({ id: team!.id, name: 'Platform', icon: 'group' })]);
  });

  it("removes a member from one team with team_id and person_id (the console's call)", async () => {
    const first = await seedTeam('remove-one-a');
    const second = await seedTeam('remove-one-b');
    await query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $3), ($2, $3), ($1, $4)', [
      first,
      second,
      ada,
      bob,
    ]);
    const removed = await call(users.editor, 'DELETE', `/api/db/team_members?team_id=eq.${first}&person_id=eq.${ada}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toHaveLength(1);
    expect(await membersOf(first)).toEqual([bob]);
    expect(await membersOf(second)).toEqual([ada]);
  });

  it("still answers the original's DELETE team_members?person_id=eq.<id>, which leaves every UI team", async () => {
    const first = await seedTeam('remove-all-a');
    const second = await seedTeam('remove-all-b');
    const person = (await query<{ id: string }>("INSERT INTO people (name) VALUES ('Carol') RETURNING id"))[0]!.id;
    await query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $3), ($2, $3)', [first, second, person]);
    const removed = await call(users.admin, 'DELETE', `/api/db/team_members?person_id=eq.${person}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toHaveLength(2);
    expect(await membersOf(first)).toEqual([]);
    expect(await membersOf(second)).toEqual([]);
  });

  it("refuses the original's DELETE when one of the person's memberships comes from another source", async () => {
    const team = await seedTeam('remove-all-guarded');
    const person = (await query<{ id: string }>("INSERT INTO people (name) VALUES ('Dave') RETURNING id"))[0]!.id;
    await query("INSERT INTO team_members (team_id, person_id, source) VALUES ($1, $3, 'UI'), ($2, $3, 'ConfigFile')", [
      team,
      configFileTeam,
      person,
    ]);
    const removed = await call(users.admin, 'DELETE', `/api/db/team_members?person_id=eq.${person}`);
    expect(removed.statusCode).toBe(403);
    expect(removed.json().code).toBe('LK403');
    expect(await membersOf(team)).toEqual([person]);
  });

  it('soft-deletes with PATCH deleted_at "now()": hidden from the lists, members kept, name free again', async () => {
    const team = await seedTeam('short-lived');
    await query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [team, ada]);
    const deleted = await call(users.admin, 'PATCH', `/api/db/teams?id=eq.${team}`, { deleted_at: 'now()' });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json<{ deleted_at: string | null }[]>()[0]!.deleted_at).not.toBeNull();

    const list = await call(users.admin, 'GET', '/api/db/teams_with_status?select=id&deleted_at=is.null&limit=100');
    expect(list.json<{ id: string }[]>().map((row) => row.id)).not.toContain(team);
    expect(await membersOf(team)).toEqual([ada]);

    const again = await call(users.admin, 'POST', '/api/db/teams', { name: 'short-lived', created_by: users.admin.id });
    expect(again.statusCode).toBe(201);
    // Bringing the first back would make two live teams of one name.
    const restored = await call(users.admin, 'PATCH', `/api/db/teams?id=eq.${team}`, { deleted_at: null });
    expect(restored.statusCode).toBe(409);
    expect(restored.json().message).toBe("A team named 'short-lived' already exists.");
  });

  it('counts only live people as members', async () => {
    const team = await seedTeam('with-a-leaver');
    const leaver = (await query<{ id: string }>("INSERT INTO people (name) VALUES ('Leaver') RETURNING id"))[0]!.id;
    await query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2), ($1, $3)', [team, ada, leaver]);
    // Removing a user soft-deletes their person (DELETE /api/people/{id}); the membership row stays.
    await query('UPDATE people SET deleted_at = now() WHERE id = $1', [leaver]);
    const list = await call(users.viewer, 'GET', `/api/db/teams_with_status?select=members_count&id=eq.${team}`);
    expect(list.json()).toEqual([{ members_count: 1 }]);
  });

  it("masks credentials in a team's spec for roles that may not write it, in the list too", async () => {
    const team = await seedTeam('with-a-secret');
    await query(
      `UPDATE teams SET spec = '{"notifications": [{"url": "slack://xoxb:s3cr3t-token@chan", "password": "hunter2"}]}' WHERE id = $1`,
      [team],
    );
    for (const role of ROLES) {
      const body = (await call(users[role], 'GET', `/api/db/teams_with_status?select=spec&id=eq.${team}`)).body;
      if (WRITERS.includes(role)) expect(body).toContain('hunter2');
      else {
        expect(body).not.toContain('hunter2');
        expect(body).not.toContain('s3cr3t-token');
      }
    }
  });
});

describe('who may write teams (write on database: admin and editor)', () => {
  let team: string;
  beforeEach(async () => {
    team = await seedTeam(`roles-${Math.random().toString(36).slice(2, 10)}`);
    await query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [team, bob]);
  });

  const writes = (teamId: string, role: Role): { label: string; method: Method; url: string; payload?: unknown }[] => [
    {
      label: 'create',
      method: 'POST',
      url: '/api/db/teams',
      payload: { name: `created-by-${role}-${teamId.slice(-6)}`, created_by: users[role].id },
    },
    {
      label: 'rename',
      method: 'PATCH',
      url: `/api/db/teams?id=eq.${teamId}`,
      payload: { name: `renamed-${teamId.slice(-6)}` },
    },
    {
      label: 'add members',
      method: 'POST',
      url: '/api/db/team_members',
      payload: [{ team_id: teamId, person_id: ada }],
    },
    { label: 'remove member', method: 'DELETE', url: `/api/db/team_members?team_id=eq.${teamId}&person_id=eq.${bob}` },
    { label: 'soft delete', method: 'PATCH', url: `/api/db/teams?id=eq.${teamId}`, payload: { deleted_at: 'now()' } },
  ];

  it.each(WRITERS)('lets %s create, rename, add and remove members, and soft-delete', async (role) => {
    for (const write of writes(team, role)) {
      const response = await call(users[role], write.method, write.url, write.payload);
      expect({ write: write.label, status: response.statusCode }).toEqual({
        write: write.label,
        status: write.method === 'POST' ? 201 : 200,
      });
    }
    const [row] = await query<{ name: string; deleted_at: Date | null }>(
      'SELECT name, deleted_at FROM teams WHERE id = $1',
      [team],
    );
    expect(row!.name).toBe(`renamed-${team.slice(-6)}`);
    expect(row!.deleted_at).not.toBeNull();
    expect(await membersOf(team)).toEqual([ada]);
  });

  it.each(READERS_ONLY)('refuses every one of those writes to %s (403) and changes nothing', async (role) => {
    for (const write of writes(team, role)) {
      const response = await call(users[role], write.method, write.url, write.payload);
      expect({ write: write.label, status: response.statusCode }).toEqual({ write: write.label, status: 403 });
      expect(response.json().message).toContain('database');
    }
    const [row] = await query<{ name: string; deleted_at: Date | null }>(
      'SELECT name, deleted_at FROM teams WHERE id = $1',
      [team],
    );
    expect(row!.name).toMatch(/^roles-/);
    expect(row!.deleted_at).toBeNull();
    expect(await membersOf(team)).toEqual([bob]);
    expect(await query('SELECT 1 FROM teams WHERE name = $1', [`created-by-${role}-${team.slice(-6)}`])).toEqual([]);
  });

  it.each(ROLES)('lets %s read the list, a team and its members', async (role) => {
    for (const url of [
      `/api/db/teams_with_status?select=*,${TEAM_CREATED_BY_SELECT}&deleted_at=is.null&order=created_at.desc&limit=100`,
      `/api/db/teams?id=eq.${team}`,
      `/api/db/team_members?team_id=eq.${team}&select=*,person_id(*)`,
    ]) {
      expect((await call(users[role], 'GET', url)).statusCode).toBe(200);
    }
  });
});

describe('bad input answers a 4xx that says what is wrong', () => {
  const create = (payload: unknown) => call(users.admin, 'POST', '/api/db/teams', payload);

  it.each([
    ['an empty name', { name: '' }, 400, 'A team needs a name: name is empty.'],
    ['a blank name', { name: '   ' }, 400, 'A team needs a name: name is empty.'],
    ['no name', {}, 400, 'A team needs a name: name is missing.'],
    ['a null name', { name: null }, 400, 'A team needs a name: name is missing.'],
    ['a name too long', { name: 'x'.repeat(256) }, 400, 'Team name is too long (256 characters); use at most 255.'],
    [
      'a spec that is a list',
      { name: 'list-spec', spec: [1, 2] },
      400,
      'Team spec must be an object of settings (key: value), not a array.',
    ],
    [
      'a spec that is a string',
      { name: 'text-spec', spec: 'yes' },
      400,
      'Team spec must be an object of settings (key: value), not a string.',
    ],
  ])('refuses %s', async (_label, body, status, message) => {
    const response = await create({ created_by: users.admin.id, ...body });
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toBe(message);
  });

  it('refuses a team without an author, and one whose author does not exist', async () => {
    const missing = await create({ name: 'no-author' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('A team needs its author: created_by is missing.');
    const unknown = await create({ name: 'unknown-author', created_by: '00000000-0000-4000-8000-000000000099' });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().message).toBe('No person has id 00000000-0000-4000-8000-000000000099 (created_by).');
  });

  it('trims the name, and refuses a second live team of that name (409) on create and on rename', async () => {
    const first = await create({ name: '  Databases  ', created_by: users.admin.id });
    expect(first.statusCode).toBe(201);
    expect(first.json()[0].name).toBe('Databases');
    const duplicate = await create({ name: 'Databases', created_by: users.editor.id });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      code: '23505',
      message: "A team named 'Databases' already exists.",
      hint: 'Choose another name, or edit the existing team.',
    });
    const other = await seedTeam('Networking');
    const renamed = await call(users.admin, 'PATCH', `/api/db/teams?id=eq.${other}`, { name: 'Databases ' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().message).toBe("A team named 'Databases' already exists.");
    const [row] = await query<{ name: string }>('SELECT name FROM teams WHERE id = $1', [other]);
    expect(row!.name).toBe('Networking');
  });

  it('refuses an empty name on rename', async () => {
    const team = await seedTeam('keeps-its-name');
    const response = await call(users.admin, 'PATCH', `/api/db/teams?id=eq.${team}`, { name: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('A team needs a name: name is empty.');
  });

  describe('members', () => {
    let team: string;
    beforeAll(async () => {
      team = await seedTeam('members-input');
    });
    const add = (payload: unknown) => call(users.admin, 'POST', '/api/db/team_members', payload);

    it('refuses an unknown or deleted person, and adds nobody of the batch', async () => {
      const unknown = await add([
        { team_id: team, person_id: ada },
        { team_id: team, person_id: '00000000-0000-4000-8000-000000000042' },
      ]);
      expect(unknown.statusCode).toBe(409);
      expect(unknown.json()).toMatchObject({
        code: '23503',
        message: 'No person has id 00000000-0000-4000-8000-000000000042.',
      });
      const deleted = await add([{ team_id: team, person_id: gone }]);
      expect(deleted.statusCode).toBe(409);
      expect(deleted.json().message).toBe(`No person has id ${gone}.`);
      expect(await membersOf(team)).toEqual([]);
    });

    it('refuses an unknown or deleted team', async () => {
      const unknown = await add([{ team_id: '00000000-0000-4000-8000-000000000043', person_id: ada }]);
      expect(unknown.statusCode).toBe(409);
      expect(unknown.json().message).toBe('No team has id 00000000-0000-4000-8000-000000000043.');
      const deletedTeam = await seedTeam('deleted-before-members');
      await query('UPDATE teams SET deleted_at = now() WHERE id = $1', [deletedTeam]);
      const deleted = await add([{ team_id: deletedTeam, person_id: ada }]);
      expect(deleted.statusCode).toBe(409);
      expect(deleted.json().message).toBe("Team 'deleted-before-members' is deleted; its members cannot change.");
    });

    it('refuses someone who is already a member, naming them', async () => {
      expect((await add([{ team_id: team, person_id: bob }])).statusCode).toBe(201);
      const again = await add([{ team_id: team, person_id: bob }]);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe("Bob Builder is already a member of team 'members-input'.");
    });

    it('refuses a member without a person, and ids that are not UUIDs', async () => {
      const missing = await add([{ team_id: team }]);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe('A team member needs team_id and person_id.');
      const malformed = await add([{ team_id: team, person_id: 'ada' }]);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toContain('invalid input syntax for type uuid: "ada"');
    });

    it.each([
      ['a string', '"ada"'],
      ['a number', '42'],
      ['null', 'null'],
      ['a list of numbers', '[1, 2]'],
      ['text that is not JSON', '[{"team_id": '],
    ])('refuses a body that is %s (400)', async (_label, body) => {
      const before = await membersOf(team);
      const response = await add(body);
      // PostgREST's own answer to a body that is not JSON objects (the engine keeps its wording).
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'PGRST102', message: expect.stringMatching(/.+/) });
      expect(await membersOf(team)).toEqual(before);
    });

    it('keeps a config-file team read-only: no members from the UI, no rename (403)', async () => {
      const member = await add([{ team_id: configFileTeam, person_id: ada }]);
      expect(member.statusCode).toBe(403);
      expect(member.json().message).toBe(
        "Team 'from-file' comes from ConfigFile; change its members in ConfigFile instead.",
      );
      const rename = await call(users.admin, 'PATCH', `/api/db/teams?id=eq.${configFileTeam}`, { name: 'renamed' });
      expect(rename.statusCode).toBe(403);
      expect(rename.json().message).toBe(
        'Rows of teams that come from ConfigFile are read-only here; change them in ConfigFile instead.',
      );
    });
  });

  it('refuses writes to teams_with_status, saying where to write (405)', async () => {
    const response = await call(users.admin, 'POST', '/api/db/teams_with_status', {
      name: 'x',
      created_by: users.admin.id,
    });
    expect(response.statusCode).toBe(405);
    expect(response.json().message).toBe('teams_with_status is read-only here; write teams and team_members instead.');
    const refused = await call(users.viewer, 'PATCH', '/api/db/teams_with_status?name=eq.x', { name: 'y' });
    expect(refused.statusCode).toBe(403);
  });
});
