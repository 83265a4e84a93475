import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import {
  buildNotificationTestApp,
  eventually,
  historyOf,
  insertRule,
  queueDrained,
  startReceiver,
  type NotificationTestApp,
  type Receiver,
} from '../../../test/notification-helpers.js';

/*
 * Playbook approval events on real PostgreSQL and a local webhook: a playbook that needs
 * approval is run, another person approves it (25_playbooks.sql's trigger queues
 * playbook.approval.inserted), and a rule on that event sends the run's link. A second
 * approval of the same run is held back by the repeat interval (counted per run), a
 * filter-only silence does not apply, and a change of a playbook's approval settings notifies
 * through playbook.spec.approval.updated.
 */

let testApp: NotificationTestApp;
let receiver: Receiver;
let admin: TestUser;
let editor: TestUser;
const pool = () => testApp.database.pool;

beforeAll(async () => {
  receiver = await startReceiver();
  testApp = await buildNotificationTestApp();
  admin = await createSignedInUser(testApp.app, pool(), { email: 'admin@example.com', roles: ['admin'] });
  editor = await createSignedInUser(testApp.app, pool(), { email: 'editor@example.com', roles: ['editor'] });
}, 120_000);

afterAll(async () => {
  await testApp?.close();
  await receiver?.close();
});

const call = (user: TestUser, method: 'POST' | 'PATCH', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

describe('playbook approval events', () => {
  it('sends the run link when a run is approved, once per run within the repeat interval', async () => {
    await pool().query(
      `INSERT INTO notification_silences (name, filter, "from", "until", source)
       VALUES ('everything', 'true', now() - interval '1 hour', now() + interval '1 day', 'UI')`,
    );
    const created = await call(admin, 'POST', '/api/db/playbooks', {
      title: 'Restart',
      name: 'restart',
      source: 'UI',
      created_by: admin.id,
      spec: {
        approval: { type: 'any', approvers: { people: ['editor@example.com', 'admin@example.com'] } },
        actions: [{ name: 'go', exec: { script: 'echo approved' } }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const playbookId = (JSON.parse(created.body) as Array<{ id: string }>)[0]!.id;
    const ruleId = await insertRule(pool(), {
      events: ['playbook.approval.inserted'],
      filter: "playbook.name == 'restart'",
      repeat_interval: '1h',
      custom_services: [{ url: `${receiver.url}/approvals` }],
    });

    const started = await call(admin, 'POST', '/api/playbook/run', { id: playbookId });
    expect(started.statusCode, started.body).toBe(201);
    const runId = (JSON.parse(started.body) as { run_id: string }).run_id;
    const approved = await call(editor, 'POST', `/api/playbook/run/approve/${runId}`);
    expect(approved.statusCode, approved.body).toBe(200);

    const request = await eventually(async () => receiver.requests.find((r) => r.url === '/approvals'));
    expect(request.body).toContain(`http://lookout.test/playbooks/runs/${runId}`);
    expect(request.body).toContain('Playbook restart: run approved');
    expect(request.body).toContain('Approved by');
    // The receiver answers before the sender commits 'sent'.
    const sent = await eventually(async () => (await historyOf(pool(), ruleId)).find((h) => h.status === 'sent'));
    expect(sent.silenced_by).toBeNull();
    const row = await pool().query<{ resource_id: string; resource_type: string; resource: { name: string } }>(
      `SELECT resource_id, resource_type, resource FROM notification_send_history_summary WHERE notification_id = $1`,
      [ruleId],
    );
    expect(row.rows[0]).toMatchObject({
      resource_id: runId,
      resource_type: 'playbook_run',
      resource: { name: 'restart' },
    });

    // A second approval of the same run (another person): held back by the rule's repeat interval.
    const other = await pool().query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Second', 'second@example.com') RETURNING id`,
    );
    await pool().query('INSERT INTO playbook_approvals (run_id, person_id) VALUES ($1, $2)', [
      runId,
      other.rows[0]!.id,
    ]);
    await queueDrained(pool());
    const history = await eventually(async () => {
      const rows = await historyOf(pool(), ruleId);
      return rows.length === 2 ? rows : undefined;
    });
    expect(history.map((h) => h.status)).toEqual(['sent', 'repeat-interval']);
    expect(receiver.requests.filter((r) => r.url === '/approvals')).toHaveLength(1);
  }, 120_000);

  it('sends when a playbook’s approval settings change', async () => {
    const created = await call(admin, 'POST', '/api/db/playbooks', {
      title: 'Deploy',
      name: 'deploy',
      source: 'UI',
      created_by: admin.id,
      spec: { actions: [{ name: 'go', exec: { script: 'echo hi' } }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const playbookId = (JSON.parse(created.body) as Array<{ id: string }>)[0]!.id;
    await insertRule(pool(), {
      events: ['playbook.spec.approval.updated'],
      template: '{{ playbook.name }} approval is now {{ approval.type }}: {{ permalink }}',
      custom_services: [{ url: `${receiver.url}/spec` }],
    });
    await pool().query(
      `UPDATE playbooks SET spec = spec || '{"approval": {"type": "all", "approvers": {"people": ["editor@example.com"]}}}' WHERE id = $1`,
      [playbookId],
    );
    const request = await eventually(async () => receiver.requests.find((r) => r.url === '/spec'));
    expect(request.body).toContain('deploy approval is now all');
    expect(request.body).toContain(`http://lookout.test/playbooks/runs?playbook=${playbookId}`);
  }, 120_000);
});
