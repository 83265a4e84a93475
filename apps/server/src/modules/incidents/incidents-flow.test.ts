import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildIncidentTestApp, insertIncidentCheck, type IncidentTestApp } from '../../../test/incident-helpers.js';
import { eventually } from '../../../test/notification-helpers.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';

/*
 * The whole story on real parts (PostgreSQL, SMTP, HTTP): an incident rule opens an incident
 * from a failing check through the event queue, its person responder is emailed through the
 * outbox, a team's Jira responder opens a ticket on a local server speaking Jira's REST API,
 * the definition of done resolves the incident once the check has been healthy for 5
 * minutes, and the changelog, timeline, job history and Markdown report tell it.
 */

let testApp: IncidentTestApp;
let smtp: TestSmtpServer;
let jira: http.Server;
const jiraRequests: { url: string; authorization: string | undefined; body: Record<string, unknown> }[] = [];
let admin: TestUser;
let responder: TestUser;
let viewer: TestUser;

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
  smtp = await startSmtpServer();
  jira = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      jiraRequests.push({
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body: JSON.parse(raw) as Record<string, unknown>,
      });
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: '10001', key: 'OPS-7', self: 'http://jira/rest/api/2/issue/10001' }));
    });
  });
  await new Promise<void>((resolve) => jira.listen(0, '127.0.0.1', resolve));
  testApp = await buildIncidentTestApp({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
  const pool = testApp.database.pool;
  admin = await createSignedInUser(testApp.app, pool, { email: 'admin@example.com', roles: ['admin'] });
  responder = await createSignedInUser(testApp.app, pool, { email: 'oncall@example.com', roles: ['responder'] });
  viewer = await createSignedInUser(testApp.app, pool, { email: 'viewer@example.com', roles: ['viewer'] });
}, 120_000);
afterAll(async () => {
  await testApp?.close();
  await smtp?.close();
  jira?.close();
});

describe('an incident rule and a failing check', () => {
  it('opens, notifies, resolves and tells the story', async () => {
    const pool = testApp.database.pool;
    const checkId = await insertIncidentCheck(pool, 'payments-api');
    const rule = await call(admin, 'POST', '/api/db/incident_rules', {
      name: 'payments down',
      spec: {
        checks: [{ name: 'payments-*' }],
        template: { severity: 'high', title: '{name} is failing' },
        responders: { person: [{ id: responder.id }] },
      },
      created_by: admin.id,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const ruleId = rule.json()[0].id as string;

    await pool.query(
      `INSERT INTO check_statuses (check_id, time, status, error) VALUES ($1, now(), false, 'HTTP 503')`,
      [checkId],
    );
    await pool.query(
      `UPDATE checks SET status = 'unhealthy', last_runtime = now(), last_transition_time = now() WHERE id = $1`,
      [checkId],
    );

    const incident = await eventually(async () => {
      const { rows } = await pool.query<{ id: string; incident_id: string; title: string; severity: string }>(
        `SELECT id, incident_id, title, severity FROM incidents WHERE incident_rule_id = $1`,
        [ruleId],
      );
      return rows[0];
    });
    expect(incident).toMatchObject({ title: 'payments-api is failing', severity: 'high' });

    // The responder is emailed through the outbox and the real SMTP server.
    const mail = await eventually(async () => smtp.mails.find((m) => m.to === 'oncall@example.com'));
    expect(mail.text).toContain(`Subject: [${incident.incident_id}] payments-api is failing`);
    expect(mail.text).toContain(`http://lookout.test/incidents/${incident.id}`);
    await eventually(async () => {
      const { rows } = await pool.query(`SELECT dispatch_status FROM responders WHERE incident_id = $1`, [incident.id]);
      return rows[0]?.dispatch_status === 'sent';
    });

    // A second failure while it is open opens nothing new (de-duplicated).
    const rerun = await call(admin, 'POST', `/api/incidents/rules/${ruleId}/run`);
    expect(rerun.json()).toMatchObject({ ran: true, matched: 1, opened: [] });
    const count = await pool.query(`SELECT count(*)::int AS n FROM incidents WHERE incident_rule_id = $1`, [ruleId]);
    expect(count.rows[0].n).toBe(1);

    // The rule's runs are in Jobs History under resource_type incident_rule.
    const jobs = await call(
      admin,
      'GET',
      `/api/db/job_histories?resource_type=eq.incident_rule&resource_id=eq.${ruleId}&select=name,status,resource_name,details`,
    );
    expect(jobs.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'IncidentRule', status: 'SUCCESS', resource_name: 'payments down' }),
      ]),
    );

    // The definition of done: not done while the check fails.
    await call(admin, 'POST', '/api/incidents/definition-of-done/evaluate');
    let dod = (await call(viewer, 'GET', `/api/incidents/${incident.id}/definition-of-done`)).json();
    expect(dod).toMatchObject({ total: 1, done: 0, complete: false, status: 'open' });

    // Healthy again, but only for a minute: still not done.
    await pool.query(`INSERT INTO check_statuses (check_id, time, status) VALUES ($1, now(), true)`, [checkId]);
    await pool.query(
      `UPDATE checks SET status = 'healthy', last_transition_time = now() - interval '1 minute' WHERE id = $1`,
      [checkId],
    );
    await call(admin, 'POST', '/api/incidents/definition-of-done/evaluate');
    dod = (await call(viewer, 'GET', `/api/incidents/${incident.id}/definition-of-done`)).json();
    expect(dod).toMatchObject({ done: 0, complete: false });

    // Healthy for 10 minutes: done, and the incident is resolved.
    await pool.query(`UPDATE checks SET last_transition_time = now() - interval '10 minutes' WHERE id = $1`, [checkId]);
    const evaluated = await call(admin, 'POST', '/api/incidents/definition-of-done/evaluate');
    expect(evaluated.json()).toMatchObject({ ran: true, status: 'SUCCESS' });
    dod = (await call(viewer, 'GET', `/api/incidents/${incident.id}/definition-of-done`)).json();
    expect(dod).toMatchObject({ total: 1, done: 1, complete: true, status: 'resolved' });
    expect(dod.items[0]).toMatchObject({ automatic: true, script_result: 'true' });

    // The changelog tells the whole story, newest first.
    const history = await call(
      viewer,
      'GET',
      `/api/db/incident_histories?incident_id=eq.${incident.id}&select=type,description&order=created_at.asc`,
    );
    expect(history.json().map((row: { type: string }) => row.type)).toEqual([
      'incident.created',
      'evidence.created',
      'evidence.done_definition_added',
      'responder.created',
      'incident.status_updated',
    ]);
    expect(history.json().at(-1).description).toBe('open → resolved');

    // The timeline merges the changelog with the check's transitions.
    const timeline = (await call(viewer, 'GET', `/api/incidents/${incident.id}/timeline`)).json();
    const kinds = timeline.entries.map((entry: { kind: string; title: string }) => `${entry.kind}:${entry.title}`);
    expect(kinds).toContain('check_status:payments-api failed');
    expect(kinds).toContain('check_status:payments-api passed');
    expect(kinds.indexOf('check_status:payments-api failed')).toBeLessThan(
      kinds.indexOf('changelog:incident.status_updated'),
    );

    const report = await call(viewer, 'GET', `/api/incidents/${incident.id}/export`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toContain('text/markdown');
    expect(report.headers['content-disposition']).toBe(`attachment; filename="${incident.incident_id}.md"`);
    expect(report.body).toContain(`# ${incident.incident_id}: payments-api is failing`);
    expect(report.body).toContain('| Status | resolved |');
    expect(report.body).toContain('[definition of done: done]');

    // Reopened by hand, it stays open: the definition of done did not change since.
    expect(
      (await call(responder, 'PATCH', `/api/db/incidents?id=eq.${incident.id}`, { status: 'open' })).statusCode,
    ).toBe(200);
    await call(admin, 'POST', '/api/incidents/definition-of-done/evaluate');
    const { rows } = await pool.query(`SELECT status FROM incidents WHERE id = $1`, [incident.id]);
    expect(rows[0].status).toBe('open');
  });
});

describe('ticketing responders', () => {
  it("open a Jira issue through the team's connection, or record the request when none is set", async () => {
    const pool = testApp.database.pool;
    const connection = await call(admin, 'POST', '/api/db/connections', {
      name: 'jira',
      namespace: 'default',
      type: 'http',
      url: `http://127.0.0.1:${(jira.address() as AddressInfo).port}`,
      username: 'bot',
      password: 'jira-token',
    });
    expect(connection.statusCode, connection.body).toBe(201);
    const team = await pool.query<{ id: string }>(
      `INSERT INTO teams (name, spec, created_by) VALUES ('platform', $1, $2) RETURNING id`,
      [
        JSON.stringify({
          responder_clients: {
            jira: { connection: 'connection://default/jira', linkUrl: 'https://jira.example.com/browse/{external_id}' },
            service_now: {},
          },
        }),
        admin.id,
      ],
    );
    const teamId = team.rows[0]!.id;
    const created = await call(responder, 'POST', '/api/incidents', { title: 'Queue backlog', severity: 'medium' });
    expect(created.statusCode, created.body).toBe(201);
    const incident = created.json();
    expect(incident).toMatchObject({ status: 'open', type: 'availability', severity: 'medium' });

    const jiraResponder = await call(responder, 'POST', '/api/db/responders?select=*', {
      type: 'system',
      incident_id: incident.id,
      created_by: responder.id,
      team_id: teamId,
      properties: {
        responderType: 'jira',
        configType: 'jira',
        project: 'OPS',
        issueType: 'Bug',
        priority: 'High',
        summary: 'Queue backlog',
        description: 'The queue is 10k deep',
      },
    });
    expect(jiraResponder.statusCode, jiraResponder.body).toBe(201);
    const snow = await call(responder, 'POST', '/api/db/responders?select=*', {
      type: 'system',
      incident_id: incident.id,
      created_by: responder.id,
      team_id: teamId,
      properties: { responderType: 'service_now', category: 'Software', description: 'Backlog', body: 'Please look' },
    });
    expect(snow.statusCode, snow.body).toBe(201);

    const done = await eventually(async () => {
      const { rows } = await pool.query<{
        type: string;
        dispatch_status: string;
        dispatch_message: string;
        external_id: string;
      }>(
        `SELECT properties ->> 'responderType' AS type, dispatch_status, dispatch_message, external_id
         FROM responders WHERE incident_id = $1 AND dispatch_status <> 'pending' ORDER BY created_at`,
        [incident.id],
      );
      return rows.length === 2 ? rows : undefined;
    });
    expect(done[0]).toMatchObject({
      type: 'jira',
      dispatch_status: 'created',
      external_id: 'OPS-7',
      dispatch_message: 'Opened jira ticket OPS-7 (https://jira.example.com/browse/OPS-7).',
    });
    expect(done[1]).toMatchObject({
      type: 'service_now',
      dispatch_status: 'recorded',
      dispatch_message:
        'No service_now connection is configured for team platform; the request was recorded and not sent.',
    });
    expect(jiraRequests).toHaveLength(1);
    expect(jiraRequests[0]).toMatchObject({
      url: '/rest/api/2/issue',
      authorization: `Basic ${Buffer.from('bot:jira-token').toString('base64')}`,
      body: {
        fields: {
          project: { key: 'OPS' },
          issuetype: { name: 'Bug' },
          priority: { name: 'High' },
          summary: 'Queue backlog',
        },
      },
    });
  });
});

describe('the incident endpoints', () => {
  it('check roles and input', async () => {
    expect((await call(viewer, 'POST', '/api/incidents', { title: 'x' })).statusCode).toBe(403);
    expect((await call(undefined, 'POST', '/api/incidents', { title: 'x' })).statusCode).toBe(401);
    const bad = await call(responder, 'POST', '/api/incidents', { title: '', severity: 'urgent' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('title');
    expect(bad.body).toContain('severity');
    const missing = '00000000-0000-4000-8000-000000000000';
    const notFound = await call(viewer, 'GET', `/api/incidents/${missing}/definition-of-done`);
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json().error.message).toBe('Incident not found');
    expect((await call(viewer, 'GET', `/api/incidents/${missing}/timeline`)).statusCode).toBe(404);
    expect((await call(viewer, 'GET', `/api/incidents/${missing}/export`)).statusCode).toBe(404);
    expect((await call(responder, 'POST', `/api/incidents/rules/${missing}/run`)).statusCode).toBe(403);
    expect((await call(admin, 'POST', `/api/incidents/rules/${missing}/run`)).statusCode).toBe(404);
    const badRule = await call(admin, 'POST', '/api/db/incident_rules', {
      name: 'bad',
      spec: { filter: { failures: 0 }, template: { severity: 'urgent' } },
    });
    expect(badRule.statusCode).toBe(400);
    expect(badRule.json().message).toContain('spec.filter.failures');
    expect(badRule.json().message).toContain('spec.template.severity');
    expect((await call(responder, 'POST', '/api/db/incident_rules', { name: 'r', spec: {} })).statusCode).toBe(403);
  });

  it('create an incident with evidence on its root hypothesis', async () => {
    const pool = testApp.database.pool;
    const checkId = await insertIncidentCheck(pool, 'search-api');
    const created = await call(responder, 'POST', '/api/incidents', {
      title: 'Search errors',
      hypothesis_title: 'Search is failing',
      evidence: { type: 'check', description: 'search-api', check_id: checkId, definition_of_done: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { rows } = await pool.query(
      `SELECT h.title, e.type, e.check_id, e.definition_of_done, e.script FROM hypotheses h JOIN evidences e ON e.hypothesis_id = h.id
       WHERE h.incident_id = $1`,
      [created.json().id],
    );
    expect(rows).toEqual([
      {
        title: 'Search is failing',
        type: 'check',
        check_id: checkId,
        definition_of_done: true,
        script: "check.status == 'healthy' && check.age_seconds > 300",
      },
    ]);
  });
});
