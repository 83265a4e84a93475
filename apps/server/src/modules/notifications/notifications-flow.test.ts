import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import {
  buildNotificationTestApp,
  eventually,
  historyOf,
  insertCheck,
  insertRule,
  queueDrained,
  setCheckStatus,
  startReceiver,
  type NotificationTestApp,
  type Receiver,
} from '../../../test/notification-helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';

/*
 * The flow end to end on real PostgreSQL, a real SMTP server and a local webhook: a check turns
 * unhealthy (migration 13's trigger queues check.failed), the rules are matched, silences and
 * the repeat interval hold messages back, the sender delivers with retries, and the trace says
 * why each rule did or didn't send.
 */

let testApp: NotificationTestApp;
let receiver: Receiver;
let smtp: TestSmtpServer;
let admin: TestUser;
const pool = () => testApp.database.pool;

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpServer();
  testApp = await buildNotificationTestApp({
    systemSmtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Lookout <lookout@example.com>' },
  });
  admin = await createSignedInUser(testApp.app, pool(), { email: 'admin@example.com', roles: ['admin'] });
}, 120_000);

afterAll(async () => {
  await testApp?.close();
  await receiver?.close();
  await smtp?.close();
});

const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: { ...bearer(admin), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

async function failCheck(checkId: string) {
  await setCheckStatus(pool(), checkId, 'healthy');
  await queueDrained(pool());
  await setCheckStatus(pool(), checkId, 'unhealthy');
  await queueDrained(pool());
}

describe('a failing check', () => {
  it('notifies a webhook and a person by email, and the rule shows its statistics', async () => {
    const { checkId } = await insertCheck(pool(), 'checkout-api');
    const person = await pool().query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Ops', 'ops@example.com') RETURNING id`,
    );
    const hook = await insertRule(pool(), {
      title: '{{ check.name }} failed',
      events: ['check.failed'],
      filter: "check.name == 'checkout-api'",
      template: '**{{ check.name }}** in {{ canary.namespace }}',
      custom_services: [{ url: `${receiver.url}/hook` }],
    });
    const mail = await insertRule(pool(), {
      events: ['check.failed'],
      person_id: person.rows[0]!.id,
      filter: "check.name == 'checkout-api'",
    });

    await setCheckStatus(pool(), checkId, 'unhealthy');
    const request = await eventually(async () => receiver.requests.find((r) => r.url === '/hook'));
    expect(request.method).toBe('POST');
    const sent = JSON.parse(request.body) as Record<string, string>;
    expect(sent).toMatchObject({ title: 'checkout-api failed', message: '**checkout-api** in default' });
    const [row] = await eventually(async () => {
      const rows = await historyOf(pool(), hook);
      return rows[0]?.status === 'sent' ? rows : undefined;
    });
    expect(request.headers['x-lookout-notification-id']).toBe(row!.id);
    expect(row!.duration_millis).toBeGreaterThanOrEqual(0);

    const email = await eventually(async () => smtp.mails.find((m) => m.to === 'ops@example.com'));
    expect(email.text).toContain('Subject: Check checkout-api has failed');
    expect((await historyOf(pool(), mail))[0]?.status).toBe('sent');

    const summary = await api(
      'GET',
      `/api/db/notifications_summary?id=eq.${hook}&select=id,sent,failed,pending,avg_duration_ms,most_common_error`,
    );
    expect(summary.statusCode).toBe(200);
    expect(summary.json()[0]).toMatchObject({ id: hook, sent: 1, failed: 0, pending: 0, most_common_error: null });
    const history = await api(
      'GET',
      `/api/db/notification_send_history_summary?notification_id=eq.${hook}&resource_type.filter=check`,
    );
    expect(history.json()[0]).toMatchObject({
      status: 'sent',
      resource_type: 'check',
      resource: { id: checkId, name: 'checkout-api', type: 'http' },
    });
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = ANY($1)', [[hook, mail]]);
  });

  it('is recorded as silenced under a silence, and the trace says so', async () => {
    const { checkId } = await insertCheck(pool(), 'silenced-api');
    const rule = await insertRule(pool(), {
      events: ['check.failed'],
      custom_services: [{ url: `${receiver.url}/silenced` }],
    });
    const silence = await api('POST', '/api/notification/silence', {
      check_id: checkId,
      from: 'now',
      until: 'now+1h',
      description: 'deploy',
    });
    expect(silence.statusCode).toBe(201);
    expect(silence.json()).toMatchObject({ check_id: checkId, description: 'deploy', recursive: false });

    await failCheck(checkId);
    const rows = await historyOf(pool(), rule);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'silenced', silenced_by: silence.json().id, count: 1 });
    expect(receiver.requests.filter((r) => r.url === '/silenced')).toHaveLength(0);

    // A second failure under the same silence counts on the same row.
    await failCheck(checkId);
    expect(await historyOf(pool(), rule)).toMatchObject([{ status: 'silenced', count: 2 }]);

    const traces = await api('GET', `/api/notification/traces?resource_id=${checkId}&event=check.failed`);
    expect(traces.statusCode).toBe(200);
    const trace = traces.json().traces[0];
    expect(trace).toMatchObject({ event_name: 'check.failed', resource_id: checkId, resource_type: 'check' });
    expect(trace.rules.find((r: { notification_id: string }) => r.notification_id === rule)).toMatchObject({
      event_matched: true,
      outcome: 'silenced',
      silenced_by: silence.json().id,
      sends: [{ status: 'silenced' }],
    });
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [rule]);
  });

  it('is held back by the repeat interval, and a filtered-out rule is explained', async () => {
    const { checkId } = await insertCheck(pool(), 'flappy-api');
    const rule = await insertRule(pool(), {
      events: ['check.failed'],
      repeat_interval: '1h',
      custom_services: [{ url: `${receiver.url}/repeat` }],
    });
    const other = await insertRule(pool(), {
      events: ['check.failed'],
      filter: "check.name == 'other'",
      custom_services: [{ url: `${receiver.url}/other` }],
    });

    await failCheck(checkId);
    await eventually(async () => (await historyOf(pool(), rule))[0]?.status === 'sent');
    await failCheck(checkId);
    const rows = await historyOf(pool(), rule);
    expect(rows.map((row) => row.status)).toEqual(['sent', 'repeat-interval']);
    expect(rows[1]?.parent_id).toBe(rows[0]?.id);
    expect(receiver.requests.filter((r) => r.url === '/repeat')).toHaveLength(1);
    expect(await historyOf(pool(), other)).toEqual([]);

    const traces = (await api('GET', `/api/notification/traces?resource_id=${checkId}`)).json().traces;
    const latest = traces.find((t: { event_name: string }) => t.event_name === 'check.failed');
    const byRule = (id: string) => latest.rules.find((r: { notification_id: string }) => r.notification_id === id);
    expect(byRule(rule)).toMatchObject({ outcome: 'repeat-interval', repeat_of: rows[0]?.id, repeat_interval: '1h' });
    expect(byRule(other)).toMatchObject({
      event_matched: true,
      filter_result: false,
      outcome: 'filter-not-matched',
      sends: [],
    });
    const passed = traces.find((t: { event_name: string }) => t.event_name === 'check.passed');
    expect(passed.rules.find((r: { notification_id: string }) => r.notification_id === rule)).toMatchObject({
      event_matched: false,
      outcome: 'event-not-matched',
    });
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = ANY($1)', [[rule, other]]);
  });

  it('is retried after a failed delivery and records the error meanwhile', async () => {
    const flaky = await startReceiver();
    flaky.answers.push({ status: 503, body: 'busy' });
    try {
      const { checkId } = await insertCheck(pool(), 'retry-api');
      const rule = await insertRule(pool(), {
        events: ['check.failed'],
        custom_services: [{ url: `${flaky.url}/flaky` }],
      });
      await setCheckStatus(pool(), checkId, 'unhealthy');
      const [row] = await eventually(async () => {
        const rows = await historyOf(pool(), rule);
        return rows[0]?.status === 'sent' ? rows : undefined;
      });
      expect(row).toMatchObject({ status: 'sent', retries: 1, error: null });
      expect(flaky.requests).toHaveLength(2);
      expect(flaky.requests[0]?.headers['x-lookout-notification-id']).toBe(row!.id);
      await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [rule]);
    } finally {
      await flaky.close();
    }
  });

  it('reaches a team through the connection in its spec (sealed credentials opened), or its members by email', async () => {
    const { checkId } = await insertCheck(pool(), 'team-api');
    const connection = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/connections',
      headers: { ...bearer(admin), 'content-type': 'application/json', prefer: 'return=representation' },
      payload: JSON.stringify({
        name: 'team-hook',
        namespace: 'default',
        type: 'webhook',
        url: `${receiver.url}/team-hook`,
        username: 'hook',
        password: 'hook-secret',
        properties: { method: 'POST' },
      }),
    });
    expect(connection.statusCode, connection.body).toBe(201);
    const stored = await pool().query<{ password: string }>(
      `SELECT password FROM connections WHERE name = 'team-hook'`,
    );
    expect(stored.rows[0]!.password).not.toContain('hook-secret');
    const team = await pool().query<{ id: string }>(
      `INSERT INTO teams (name, created_by, spec) VALUES ('sre', $1, $2) RETURNING id`,
      [admin.id, { notifications: [{ connection: 'connection://default/team-hook' }] }],
    );
    const quiet = await pool().query<{ id: string }>(
      `INSERT INTO teams (name, created_by) VALUES ('dba', $1) RETURNING id`,
      [admin.id],
    );
    const member = await pool().query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Dee', 'dee@example.com') RETURNING id`,
    );
    await pool().query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [
      quiet.rows[0]!.id,
      member.rows[0]!.id,
    ]);
    const toTeam = await insertRule(pool(), {
      events: ['check.failed'],
      team_id: team.rows[0]!.id,
      filter: "check.name == 'team-api'",
    });
    const toMembers = await insertRule(pool(), {
      events: ['check.failed'],
      team_id: quiet.rows[0]!.id,
      filter: "check.name == 'team-api'",
    });

    await setCheckStatus(pool(), checkId, 'unhealthy');
    const request = await eventually(async () => receiver.requests.find((r) => r.url === '/team-hook'));
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('hook:hook-secret').toString('base64')}`);
    const mail = await eventually(async () => smtp.mails.find((m) => m.to === 'dee@example.com'));
    expect(mail.text).toContain('Subject: Check team-api has failed');
    await eventually(async () => (await historyOf(pool(), toMembers))[0]?.status === 'sent');
    expect((await historyOf(pool(), toTeam))[0]).toMatchObject({ status: 'sent' });
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = ANY($1)', [[toTeam, toMembers]]);
  });

  it('records a filter error on the rule and skips it for the hour', async () => {
    const { checkId } = await insertCheck(pool(), 'bad-filter');
    const rule = await insertRule(pool(), {
      events: ['check.failed'],
      filter: 'check.nothing.deeper == 1',
      custom_services: [{ url: `${receiver.url}/bad` }],
    });
    await failCheck(checkId);
    const { rows } = await pool().query<{ error: string | null }>('SELECT error FROM notifications WHERE id = $1', [
      rule,
    ]);
    expect(rows[0]?.error).toBeTruthy();
    expect(await historyOf(pool(), rule)).toEqual([]);
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [rule]);
  });
});
