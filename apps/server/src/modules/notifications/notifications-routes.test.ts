import { ROLES, type Role } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { insertCheck } from '../../../test/notification-helpers.js';
import { notificationApplier } from './notification-cli.js';

/*
 * Rules, history and silences through /api/db and /api/notification exactly as the console
 * calls them (ui-calls 3.13), per role, with the bad-input answers.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const writers: Role[] = ['admin', 'editor'];
let checkId: string;

const call = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

beforeAll(async () => {
  testApp = await buildTestApp();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
  ({ checkId } = await insertCheck(testApp.database.pool, 'api'));
}, 120_000);
afterAll(() => testApp?.close());

const rule = (person: TestUser) => ({
  title: 'Check {{ check.name }} failed',
  events: ['check.failed'],
  filter: "check.type == 'http'",
  repeat_interval: '1h',
  template: '{{ check.name }} is down',
  properties: {},
  person_id: person.id,
  created_by: person.id,
});

describe('rules through /api/db', () => {
  it('are written by roles that write notifications and refused to the others', async () => {
    for (const role of ROLES) {
      const response = await call(users[role], 'POST', '/api/db/notifications', rule(users[role]));
      expect(response.statusCode, role).toBe(writers.includes(role) ? 201 : 403);
    }
    expect((await call(undefined, 'POST', '/api/db/notifications', rule(users.admin))).statusCode).toBe(401);
  });

  it('are listed with statistics and embeds, and edited and soft-deleted as the dialog does', async () => {
    const created = (await call(users.editor, 'POST', '/api/db/notifications', rule(users.editor))).json()[0];
    const list = await call(
      users.viewer,
      'GET',
      `/api/db/notifications_summary?select=*,person:person_id(id,name),team:team_id(id,name,icon),created_by(id,name)&id=eq.${created.id}&order=created_at.desc&limit=10&offset=0`,
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({
      id: created.id,
      events: ['check.failed'],
      repeat_interval: '1h',
      pending: 0,
      failed: 0,
      sent: 0,
      avg_duration_ms: null,
      most_common_error: null,
      person: { id: users.editor.id },
      team: null,
      created_by: { id: users.editor.id },
    });
    const team = await testApp.database.pool.query<{ id: string }>(
      `INSERT INTO teams (name, created_by, spec) VALUES ('ops', $1, '{"notifications": [{"url": "ntfy://ntfy.sh/ops"}]}') RETURNING id`,
      [users.admin.id],
    );
    const patched = await call(users.editor, 'PATCH', `/api/db/notifications?id=eq.${created.id}`, {
      ...rule(users.editor),
      person_id: null,
      team_id: team.rows[0]!.id,
      custom_services: null,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()[0]).toMatchObject({ person_id: null, team_id: team.rows[0]!.id });
    expect(
      (await call(users.viewer, 'PATCH', `/api/db/notifications?id=eq.${created.id}`, { deleted_at: 'now()' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(users.editor, 'PATCH', `/api/db/notifications?id=eq.${created.id}`, { deleted_at: 'now()' }))
        .statusCode,
    ).toBe(200);
    const after = await call(users.admin, 'GET', `/api/db/notifications_summary?id=eq.${created.id}`);
    expect(after.json()).toEqual([]);
  });

  it('answer 400 naming each wrong field', async () => {
    const response = await call(users.admin, 'POST', '/api/db/notifications', {
      events: ['check.exploded'],
      filter: 'check.name ==',
      repeat_interval: 'often',
      custom_services: [{ url: 'gopher://x' }],
    });
    expect(response.statusCode).toBe(400);
    const message = response.json().message as string;
    expect(message).toContain("events: 'check.exploded' is not a notification event");
    expect(message).toContain('filter: not a valid CEL expression');
    expect(message).toContain("repeat_interval: 'often' is not a duration");
    expect(message).toContain("custom_services[0]: url: 'gopher://' is not a service Lookout sends to");
    const missing = await call(users.admin, 'POST', '/api/db/notifications', { title: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(
      'Invalid notification: events: choose at least one event.; A recipient is required: set person_id, team_id or custom_services.',
    );
    const patch = await call(users.admin, 'PATCH', `/api/db/notifications?id=eq.${checkId}`, { events: [] });
    expect(patch.statusCode).toBe(400);
  });

  it('keep the send history read-only', async () => {
    expect(
      (
        await call(
          users.viewer,
          'GET',
          '/api/db/notification_send_history_summary?select=*&order=created_at.desc&limit=50&offset=0&status.filter=sent',
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await call(users.admin, 'POST', '/api/db/notification_send_history_summary', { status: 'sent' })).statusCode,
    ).toBe(405);
    expect((await call(users.admin, 'POST', '/api/db/notification_send_history', { status: 'sent' })).statusCode).toBe(
      405,
    );
  });
});

describe('silences', () => {
  it('are added with write on database, listed with their resource, and soft-deleted', async () => {
    for (const role of ROLES) {
      const response = await call(users[role], 'POST', '/api/notification/silence', {
        check_id: checkId,
        recursive: false,
        from: 'now',
        until: 'now+2h',
        description: `by ${role}`,
      });
      expect(response.statusCode, role).toBe(writers.includes(role) ? 201 : 403);
    }
    const list = await call(
      users.viewer,
      'GET',
      '/api/db/notification_silences?select=*,checks:check_id(id,name,type,status),catalog:config_id(id,name,type,config_class),component:component_id(id,name,icon),createdBy:created_by(id,name)&order=created_at.desc&limit=50&offset=0&deleted_at=is.null',
    );
    expect(list.statusCode).toBe(200);
    const silences = list.json() as {
      id: string;
      description: string;
      checks: { id: string };
      createdBy: { id: string };
    }[];
    expect(silences.map((silence) => silence.description).sort()).toEqual(['by admin', 'by editor']);
    expect(silences[0]).toMatchObject({
      checks: { id: checkId, name: 'api', type: 'http' },
      catalog: null,
      component: null,
    });
    const [first] = silences;
    expect(
      (await call(users.viewer, 'PATCH', `/api/db/notification_silences?id=eq.${first!.id}`, { deleted_at: 'now()' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(users.editor, 'PATCH', `/api/db/notification_silences?id=eq.${first!.id}`, { deleted_at: 'now()' }))
        .statusCode,
    ).toBe(200);
    const left = await call(users.admin, 'GET', '/api/db/notification_silences?deleted_at=is.null');
    expect(left.json()).toHaveLength(1);
  });

  it('answer 400 for bad input, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ until: 'now+1h' }, 'A resource is required'],
      [{ check_id: checkId, config_id: checkId }, 'only one of'],
      [{ check_id: checkId, until: 'next week' }, "until: 'next week' is not a time"],
      [{ check_id: checkId, from: 'now+2h', until: 'now+1h' }, 'until must be after from.'],
      [{ check_id: '0190a4b2-0000-7000-8000-000000000009' }, 'check_id: no such resource'],
      [{ check_id: 'not-a-uuid' }, 'check_id'],
      [{ check_id: checkId, recursive: 'yes' }, 'recursive'],
      [{ check_id: checkId, colour: 'red' }, 'colour'],
    ];
    for (const [body, text] of cases) {
      const response = await call(users.admin, 'POST', '/api/notification/silence', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toContain(text);
    }
  });
});

describe('traces', () => {
  it('are read by every role and need a resource or history id', async () => {
    expect((await call(users.viewer, 'GET', `/api/notification/traces?resource_id=${checkId}`)).json()).toEqual({
      traces: [],
    });
    expect((await call(users.viewer, 'GET', '/api/notification/traces')).statusCode).toBe(400);
    expect((await call(users.viewer, 'GET', `/api/notification/traces/${checkId}`)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', `/api/notification/traces?resource_id=${checkId}`)).statusCode).toBe(401);
  });
});

describe('lookout apply -f (kind: Notification)', () => {
  it('creates, then updates by namespace and name, and names a wrong field', async () => {
    const applier = notificationApplier({ pool: testApp.database.pool, logger: pino({ level: 'silent' }) });
    const document = {
      apiVersion: 'mission-control.flanksource.com/v1',
      kind: 'Notification',
      metadata: { name: 'check-alerts', namespace: 'ops' },
      spec: { events: ['check.failed'], title: 'Down', repeatInterval: '6h', to: { person: 'viewer@example.com' } },
    };
    expect(await applier.apply(document, 'ConfigFile')).toBe('notification ops/check-alerts created');
    expect(
      await applier.apply({ ...document, spec: { ...document.spec, to: { url: 'ntfy://ntfy.sh/ops' } } }, 'ConfigFile'),
    ).toBe('notification ops/check-alerts configured');
    const { rows } = await testApp.database.pool.query(
      `SELECT person_id, custom_services, repeat_interval, source::text FROM notifications WHERE namespace = 'ops' AND name = 'check-alerts'`,
    );
    expect(rows).toEqual([
      {
        person_id: null,
        custom_services: [{ url: 'ntfy://ntfy.sh/ops' }],
        repeat_interval: '6h',
        source: 'ConfigFile',
      },
    ]);
    await expect(
      applier.apply({ ...document, spec: { events: ['nope'], to: { team: 'nobody' } } }, 'ConfigFile'),
    ).rejects.toThrow("invalid Notification: spec.to.team 'nobody' was not found");
    await expect(
      applier.apply({ ...document, spec: { events: ['nope'], to: { url: 'ntfy://h/t' } } }, 'ConfigFile'),
    ).rejects.toThrow("invalid Notification: spec.events: 'nope' is not a notification event");
    // A ConfigFile rule is read-only in the console.
    const id = (
      await testApp.database.pool.query<{ id: string }>(`SELECT id FROM notifications WHERE name = 'check-alerts'`)
    ).rows[0]!.id;
    expect((await call(users.admin, 'PATCH', `/api/db/notifications?id=eq.${id}`, { title: 'x' })).statusCode).toBe(
      403,
    );
  });
});
