import { INCIDENT_HISTORY_TYPES, INCIDENT_STATUS_MOVES, INCIDENT_STATUSES, ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { insertIncidentCheck } from '../../../test/incident-helpers.js';

/*
 * Incidents through /api/db exactly as the console calls them (ui-calls 3.6), on real
 * PostgreSQL: create defaults, the root hypothesis, the status moves, the changelog, mentions,
 * soft-deleted responders, per-role permissions (spec 1 section 6) and the bad-input answers.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const incidentWriters: Role[] = ['admin', 'editor', 'commander', 'responder'];
let checkId: string;

const call = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

async function createIncident(user: TestUser, extra: Record<string, unknown> = {}) {
  const response = await call(user, 'POST', '/api/db/incidents?select=*', {
    title: 'Checkout is slow',
    description: 'p99 above 2 s',
    created_by: user.id,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Array<Record<string, string> & { id: string }>>()[0]!;
}

async function rootOf(incidentId: string): Promise<string> {
  const { rows } = await testApp.database.pool.query<{ id: string }>(
    `SELECT id FROM hypotheses WHERE incident_id = $1 AND type = 'root'`,
    [incidentId],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

beforeAll(async () => {
  testApp = await buildTestApp();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
      first: role,
    });
  }
  checkId = await insertIncidentCheck(testApp.database.pool, 'checkout-api');
}, 120_000);
afterAll(() => testApp?.close());

describe('creating an incident', () => {
  it('is open to roles that write incident and refused to viewers', async () => {
    for (const role of ROLES) {
      const response = await call(users[role], 'POST', '/api/db/incidents', {
        title: `by ${role}`,
        created_by: users[role].id,
      });
      expect(response.statusCode, `${role}: ${response.body}`).toBe(incidentWriters.includes(role) ? 201 : 403);
    }
    expect((await call(undefined, 'POST', '/api/db/incidents', { title: 'x' })).statusCode).toBe(401);
  });

  it('gets the defaults, a number and a root hypothesis with status possible', async () => {
    const incident = await createIncident(users.responder);
    expect(incident).toMatchObject({ severity: 'low', status: 'open', type: 'availability' });
    expect(incident.incident_id).toMatch(/^INC-\d+$/);
    const { rows } = await testApp.database.pool.query(
      `SELECT type, status, title FROM hypotheses WHERE incident_id = $1`,
      [incident.id],
    );
    expect(rows).toEqual([{ type: 'root', status: 'possible', title: 'Checkout is slow' }]);
  });

  it("keeps one root when the create dialog posts its own (the client's replaces the automatic one)", async () => {
    const incident = await createIncident(users.commander);
    const posted = await call(users.commander, 'POST', '/api/db/hypotheses', {
      incident_id: incident.id,
      type: 'root',
      title: 'Why is checkout slow?',
      status: 'possible',
      created_by: users.commander.id,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const { rows } = await testApp.database.pool.query(`SELECT title FROM hypotheses WHERE incident_id = $1`, [
      incident.id,
    ]);
    expect(rows).toEqual([{ title: 'Why is checkout slow?' }]);
  });

  it('answers bad input with a 400 naming the field', async () => {
    const blank = await call(users.admin, 'POST', '/api/db/incidents', { title: '  ', created_by: users.admin.id });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('title');
    const severity = await call(users.admin, 'POST', '/api/db/incidents', { title: 'x', severity: 'urgent' });
    expect(severity.statusCode).toBe(400);
    expect(severity.json().message).toContain('(severity)');
    const info = await call(users.admin, 'POST', '/api/db/incidents', { title: 'x', severity: 'Info' });
    expect(info.statusCode).toBe(201);
    expect(info.json()[0].severity).toBe('info');
    const type = await call(users.admin, 'POST', '/api/db/incidents', { title: 'x', type: 'outage' });
    expect(type.statusCode).toBe(400);
    expect(type.json().message).toContain('(type)');
    const status = await call(users.admin, 'POST', '/api/db/incidents', { title: 'x', status: 'cancelled' });
    expect(status.statusCode).toBe(400);
    expect(status.json().message).toContain('(status)');
  });
});

describe('the Link to Incident dialog (spec 1 sections 3 to 5)', () => {
  it('picks an incident by title, creates one with its root and attaches the evidence', async () => {
    const user = users.responder;
    const existing = await createIncident(user, { title: 'Payments latency' });
    const picker = await call(
      user,
      'GET',
      `/api/db/incidents?order=created_at.desc&title=ilike.*latency*&select=*,hypotheses(id, type)`,
    );
    expect(picker.statusCode, picker.body).toBe(200);
    expect(picker.json()).toEqual([
      expect.objectContaining({ id: existing.id, hypotheses: [expect.objectContaining({ type: 'root' })] }),
    ]);
    const hypotheses = await call(
      user,
      'GET',
      `/api/db/hypotheses?order=created_at.desc&title=ilike.*Payments*&incident_id=eq.${existing.id}`,
    );
    expect(hypotheses.json()).toHaveLength(1);

    const created = await createIncident(user, { title: 'New from the drawer', severity: 'low', type: 'availability' });
    const root = await call(user, 'POST', '/api/db/hypotheses', {
      incident_id: created.id,
      title: 'New from the drawer',
      status: 'possible',
      type: 'root',
      created_by: user.id,
    });
    expect(root.statusCode, root.body).toBe(201);
    const evidence = await call(user, 'POST', '/api/db/evidences', {
      hypothesis_id: root.json()[0].id,
      created_by: user.id,
      type: 'check',
      description: 'checkout-api',
      check_id: checkId,
      evidence: { check_id: checkId, includeMessages: true, start: 'now-1h' },
    });
    expect(evidence.statusCode, evidence.body).toBe(201);
    expect(
      (await call(users.viewer, 'POST', '/api/db/evidences', { hypothesis_id: root.json()[0].id, type: 'check' }))
        .statusCode,
    ).toBe(403);
  });
});

describe('status moves', () => {
  it('match the table of spec 3 section 4 in the database', async () => {
    for (const from of INCIDENT_STATUSES) {
      const { rows } = await testApp.database.pool.query<{ moves: string[] }>(
        `SELECT lookout_incident_status_moves($1) AS moves`,
        [from],
      );
      expect(rows[0]!.moves, from).toEqual([...INCIDENT_STATUS_MOVES[from]]);
    }
  });

  it('are refused through /api/db PATCH when the table forbids them, with a 400 naming the move', async () => {
    const incident = await createIncident(users.responder);
    const url = `/api/db/incidents?id=eq.${incident.id}`;
    expect((await call(users.responder, 'PATCH', url, { status: 'closed' })).statusCode).toBe(200);
    const refused = await call(users.responder, 'PATCH', url, { status: 'mitigated' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'An incident cannot move from closed to mitigated; from closed it can move to closed, open.',
    );
    expect((await call(users.responder, 'PATCH', url, { status: 'open' })).statusCode).toBe(200);
    expect((await call(users.responder, 'PATCH', url, { status: 'investigating' })).statusCode).toBe(200);
    const back = await call(users.responder, 'PATCH', url, { status: 'open' });
    expect(back.statusCode).toBe(400);
    expect((await call(users.viewer, 'PATCH', url, { status: 'resolved' })).statusCode).toBe(403);
    const { rows } = await testApp.database.pool.query(
      `SELECT status, acknowledged IS NOT NULL AS ack FROM incidents WHERE id = $1`,
      [incident.id],
    );
    expect(rows[0]).toEqual({ status: 'investigating', ack: true });
  });

  it('lets severity and type autosave', async () => {
    const incident = await createIncident(users.editor);
    const saved = await call(users.editor, 'PATCH', `/api/db/incidents?id=eq.${incident.id}`, {
      severity: 'critical',
      type: 'technicalDebt',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()[0]).toMatchObject({ severity: 'critical', type: 'technicalDebt' });
  });
});

describe('the investigation and its changelog', () => {
  it('records every changelog event and reads it with the embeds the console asks for', async () => {
    const user = users.commander;
    const incident = await createIncident(user);
    const root = await rootOf(incident.id);
    const factor = await call(user, 'POST', '/api/db/hypotheses', {
      incident_id: incident.id,
      parent_id: root,
      type: 'factor',
      title: 'The database is saturated',
      status: 'possible',
      created_by: user.id,
    });
    expect(factor.statusCode, factor.body).toBe(201);
    const factorId = factor.json()[0].id as string;
    expect((await call(user, 'PATCH', `/api/db/hypotheses?id=eq.${factorId}`, { status: 'likely' })).statusCode).toBe(
      200,
    );
    const evidence = await call(user, 'POST', '/api/db/evidences', {
      hypothesis_id: factorId,
      created_by: user.id,
      type: 'check',
      description: 'checkout-api is failing',
      check_id: checkId,
      evidence: { check_id: checkId, includeMessages: true },
    });
    expect(evidence.statusCode, evidence.body).toBe(201);
    const evidenceId = evidence.json()[0].id as string;
    const flagged = await call(user, 'PATCH', `/api/db/evidences?id=eq.${evidenceId}`, { definition_of_done: true });
    expect(flagged.json()[0].script).toBe("check.status == 'healthy' && check.age_seconds > 300");
    const responder = await call(user, 'POST', '/api/db/responders?select=*', {
      type: 'person',
      incident_id: incident.id,
      created_by: user.id,
      person_id: users.responder.id,
      properties: { responderType: 'person', person: users.responder.id },
    });
    expect(responder.statusCode, responder.body).toBe(201);
    const comment = await call(user, 'POST', '/api/db/comments', {
      created_by: user.id,
      incident_id: incident.id,
      hypothesis_id: factorId,
      comment: `Looking at it with @[responder User](${users.responder.id}) and @[ghost](00000000-0000-4000-8000-000000000000)`,
    });
    expect(comment.statusCode, comment.body).toBe(201);
    expect(comment.json()[0].mentions).toEqual([users.responder.id]);
    expect(
      (await call(user, 'PATCH', `/api/db/incidents?id=eq.${incident.id}`, { status: 'mitigated' })).statusCode,
    ).toBe(200);

    const history = await call(
      users.viewer,
      'GET',
      `/api/db/incident_histories?incident_id=eq.${incident.id}&select=*,evidence:evidences(id,description,type,components(id,name,icon),configs(id,name),config_changes(id,change_type),config_analysis(id,analyzer,message,analysis),checks(id,icon,name)),hypothesis:hypotheses(id,title),responder:responders(id,person:person_id(id,name,avatar),team:team_id(id,name,icon)),comment:comments(id,comment),created_by(id,name,avatar))&order=created_at.desc`,
    );
    expect(history.statusCode, history.body).toBe(200);
    const rows = history.json<Array<Record<string, unknown>>>();
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(INCIDENT_HISTORY_TYPES));
    const checkEvidence = rows.find((row) => row.type === 'evidence.created');
    expect(checkEvidence).toMatchObject({ evidence: { checks: { name: 'checkout-api' } } });
    expect(rows.find((row) => row.type === 'responder.created')).toMatchObject({
      responder: { person: { id: users.responder.id } },
    });
    expect(rows.find((row) => row.type === 'incident.status_updated')).toMatchObject({
      description: 'open → mitigated',
    });
    expect(
      (await call(users.responder, 'POST', '/api/db/incident_histories', { incident_id: incident.id })).statusCode,
    ).toBe(405);
  });

  it('reads the detail with the embeds of the incident page and the list with its filters', async () => {
    const user = users.admin;
    const incident = await createIncident(user, { severity: 'high' });
    const root = await rootOf(incident.id);
    const componentId = (
      await testApp.database.pool.query<{ id: string }>(
        `INSERT INTO components (name, type, status, external_id) VALUES ('checkout', 'service', 'unhealthy', 'checkout') RETURNING id`,
      )
    ).rows[0]!.id;
    await call(user, 'POST', '/api/db/evidences', {
      hypothesis_id: root,
      created_by: user.id,
      type: 'topology',
      description: 'checkout',
      component_id: componentId,
    });
    const detail = await call(
      users.viewer,
      'GET',
      `/api/db/incidents?id=eq.${incident.id}&select=*,hypotheses(*,created_by(id,name,avatar),evidences(*,created_by(id,name,avatar)),comments(created_at,comment,external_created_by,responder_id(team_id(*)),created_by(id,name,avatar),id)),commander:commander_id(id,name,avatar),communicator_id(id,name,avatar),responders(created_by(id,name,avatar))`,
    );
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()[0].hypotheses[0].evidences[0]).toMatchObject({ type: 'topology', component_id: componentId });

    const list = await call(
      users.viewer,
      'GET',
      `/api/db/incident_summary?select=id,incident_id,title,type,severity,status,created_at,responders,hypotheses!inner(id,evidences!inner(component_id))&severity=eq.high&status=eq.open&hypotheses.evidences.component_id=eq.${componentId}&order=created_at.desc`,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().map((row: { id: string }) => row.id)).toContain(incident.id);
    const fast = await call(
      users.viewer,
      'GET',
      `/api/db/incident_summary?select=id,component_ids&component_ids=cs.{${componentId}}&order=created_at.desc`,
    );
    expect(fast.json()).toEqual([{ id: incident.id, component_ids: [componentId] }]);
    const panel = await call(users.viewer, 'GET', `/api/db/incidents_by_component?component_id=eq.${componentId}`);
    expect(panel.json()).toEqual([expect.objectContaining({ id: incident.id, severity: 'high' })]);
  });

  it('soft-deletes responders and refuses bad responder forms naming the field', async () => {
    const user = users.responder;
    const incident = await createIncident(user);
    const team = await testApp.database.pool.query<{ id: string }>(
      `INSERT INTO teams (name, spec, created_by) VALUES ('sre', '{"responder_clients": {"email": {}}}', $1) RETURNING id`,
      [users.admin.id],
    );
    const teamId = team.rows[0]!.id;
    const missing = await call(user, 'POST', '/api/db/responders?select=*', {
      type: 'system',
      incident_id: incident.id,
      created_by: user.id,
      team_id: teamId,
      properties: { responderType: 'email', subject: 'Help' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(
      'Invalid responder: properties.to: Please provide valid value; properties.body: Please provide valid value',
    );
    const unknown = await call(user, 'POST', '/api/db/responders', {
      type: 'system',
      incident_id: incident.id,
      team_id: teamId,
      properties: { responderType: 'pager' },
    });
    expect(unknown.statusCode).toBe(400);
    const added = await call(user, 'POST', '/api/db/responders?select=*', {
      type: 'system',
      incident_id: incident.id,
      created_by: user.id,
      team_id: teamId,
      properties: { responderType: 'email', to: 'sre@example.com', subject: 'Help', body: 'Checkout is slow' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json()[0].id as string;
    const listUrl = `/api/db/responders?incident_id=eq.${incident.id}&select=*,team:team_id(id,name,icon,spec),person:person_id(id,name,avatar)&deleted_at=is.null`;
    expect((await call(user, 'GET', listUrl)).json()).toEqual([
      expect.objectContaining({ id, team: expect.objectContaining({ name: 'sre' }) }),
    ]);
    expect(
      (await call(users.viewer, 'PATCH', `/api/db/responders?id=eq.${id}`, { deleted_at: 'now()' })).statusCode,
    ).toBe(403);
    expect((await call(user, 'PATCH', `/api/db/responders?id=eq.${id}`, { deleted_at: 'now()' })).statusCode).toBe(200);
    expect((await call(user, 'GET', listUrl)).json()).toEqual([]);
    const { rows } = await testApp.database.pool.query(
      `SELECT deleted_at IS NOT NULL AS gone FROM responders WHERE id = $1`,
      [id],
    );
    expect(rows).toEqual([{ gone: true }]);
  });

  it('refuses blank comments, a hypothesis of another incident, a wrong child type and a bad script', async () => {
    const user = users.commander;
    const first = await createIncident(user);
    const second = await createIncident(user);
    const root = await rootOf(second.id);
    const blank = await call(user, 'POST', '/api/db/comments', {
      incident_id: first.id,
      comment: ' ',
      created_by: user.id,
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('Please add comment details');
    const elsewhere = await call(user, 'POST', '/api/db/comments', {
      incident_id: first.id,
      hypothesis_id: root,
      comment: 'hi',
      created_by: user.id,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toContain('(hypothesis_id)');
    const solution = await call(user, 'POST', '/api/db/hypotheses', {
      incident_id: second.id,
      parent_id: root,
      type: 'solution',
      title: 'Scale up',
      status: 'possible',
    });
    expect(solution.statusCode).toBe(400);
    expect(solution.json().message).toBe('Under a root the next hypothesis is a factor, not a solution (type).');
    const script = await call(user, 'POST', '/api/db/evidences', {
      hypothesis_id: root,
      type: 'check',
      description: 'x',
      definition_of_done: true,
      script: 'check.status ==',
    });
    expect(script.statusCode).toBe(400);
    expect(script.json().message).toMatch(/^Invalid evidence: script: /);
    const manual = await call(user, 'POST', '/api/db/evidences', {
      hypothesis_id: root,
      type: 'comment',
      description: '',
      definition_of_done: true,
    });
    expect(manual.statusCode).toBe(400);
    expect(manual.json().message).toContain('(description)');
  });
});
