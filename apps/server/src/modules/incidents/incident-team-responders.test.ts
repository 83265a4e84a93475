import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildIncidentTestApp, type IncidentTestApp } from '../../../test/incident-helpers.js';
import { eventually, startReceiver, type Receiver } from '../../../test/notification-helpers.js';
import { teamChannelsOf } from './incident-team-channels.js';

/*
 * Issue 17: a team responder also tells the team's notification channels (the team spec's
 * `notifications[]`), through the notifications module's direct sender, on real PostgreSQL and
 * a local HTTP receiver standing in for the team's webhook.
 */

let testApp: IncidentTestApp;
let receiver: Receiver;
let admin: TestUser;
let responder: TestUser;

beforeAll(async () => {
  // The broken hook answers 500 every time; the others take the message.
  receiver = await startReceiver((request) =>
    request.url === '/broken' ? { status: 500, body: '{"error":"hook is down"}' } : undefined,
  );
  testApp = await buildIncidentTestApp();
  const pool = testApp.database.pool;
  admin = await createSignedInUser(testApp.app, pool, { email: 'admin@example.com', roles: ['admin'] });
  responder = await createSignedInUser(testApp.app, pool, { email: 'oncall@example.com', roles: ['responder'] });
}, 120_000);

afterAll(async () => {
  await testApp?.close();
  await receiver?.close();
});

const call = (method: 'POST', url: string, body: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: { ...bearer(responder), 'content-type': 'application/json', prefer: 'return=representation' },
    payload: JSON.stringify(body),
  });

async function teamWith(name: string, spec: unknown): Promise<string> {
  const { rows } = await testApp.database.pool.query<{ id: string }>(
    `INSERT INTO teams (name, spec, created_by) VALUES ($1, $2, $3) RETURNING id`,
    [name, JSON.stringify(spec), admin.id],
  );
  return rows[0]!.id;
}

async function addTeamResponder(incidentId: string, teamId: string, responderType: string): Promise<string> {
  const created = await call('POST', '/api/db/responders?select=*', {
    type: 'system',
    incident_id: incidentId,
    created_by: responder.id,
    team_id: teamId,
    properties: { responderType, category: 'Software', description: 'Backlog', body: 'Please look' },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json()[0].id as string;
}

async function dispatched(id: string) {
  return eventually(async () => {
    const { rows } = await testApp.database.pool.query<{ dispatch_status: string; dispatch_message: string }>(
      `SELECT dispatch_status, dispatch_message FROM responders WHERE id = $1 AND dispatch_status <> 'pending'`,
      [id],
    );
    return rows[0];
  });
}

describe('a team responder', () => {
  it("sends the incident's title, severity and link through the team's webhook channel", async () => {
    const teamId = await teamWith('payments', {
      notifications: [{ url: `${receiver.url}/payments-hook` }],
      responder_clients: { service_now: {} },
    });
    const created = await call('POST', '/api/incidents', { title: 'Card payments failing', severity: 'critical' });
    expect(created.statusCode, created.body).toBe(201);
    const incident = created.json() as { id: string };

    const id = await addTeamResponder(incident.id, teamId, 'service_now');
    const request = await eventually(async () => receiver.requests.find((r) => r.url === '/payments-hook'));
    expect(request.method).toBe('POST');
    expect(request.body).toContain('Card payments failing');
    expect(request.body).toContain('critical');
    expect(request.body).toContain(`http://lookout.test/incidents/${incident.id}`);
    // The ticket request is only recorded (no connection), but the team was reached: sent.
    expect(await dispatched(id)).toEqual({
      dispatch_status: 'sent',
      dispatch_message:
        'No service_now connection is configured for team payments; the request was recorded and not sent. ' +
        'Notified team payments through 1 channel (webhook).',
    });
  });

  it('records a failing channel without stopping the others, and fails when no channel took it', async () => {
    const mixed = await teamWith('storage', {
      notifications: [{ url: `${receiver.url}/broken` }, { url: `${receiver.url}/storage-hook` }, { other: 1 }],
    });
    const down = await teamWith('network', { notifications: [{ url: `${receiver.url}/broken` }] });
    const created = await call('POST', '/api/incidents', { title: 'Disk full', severity: 'high' });
    expect(created.statusCode, created.body).toBe(201);
    const incident = created.json() as { id: string };

    const mixedId = await addTeamResponder(incident.id, mixed, 'service_now');
    const mixedOutcome = await dispatched(mixedId);
    expect(mixedOutcome.dispatch_status).toBe('sent');
    expect(mixedOutcome.dispatch_message).toContain('Notified team storage through 1 channel (webhook).');
    expect(mixedOutcome.dispatch_message).toMatch(/Team channel 1 failed: .*500/);
    expect(receiver.requests.some((r) => r.url === '/storage-hook')).toBe(true);

    const downId = await addTeamResponder(incident.id, down, 'service_now');
    const downOutcome = await dispatched(downId);
    expect(downOutcome.dispatch_status).toBe('failed');
    expect(downOutcome.dispatch_message).toMatch(/Team channel 1 failed: .*500/);
  });

  it('a team without channels and a person responder send nothing to a channel', async () => {
    const quiet = await teamWith('quiet', { responder_clients: { service_now: {} } });
    const created = await call('POST', '/api/incidents', { title: 'Slow search', severity: 'low' });
    const incident = created.json() as { id: string };
    const before = receiver.requests.length;

    const teamOnly = await addTeamResponder(incident.id, quiet, 'service_now');
    expect(await dispatched(teamOnly)).toMatchObject({ dispatch_status: 'recorded' });
    const person = await call('POST', '/api/db/responders?select=*', {
      type: 'person',
      incident_id: incident.id,
      created_by: responder.id,
      person_id: responder.id,
      properties: { responderType: 'person' },
    });
    expect(person.statusCode, person.body).toBe(201);
    expect(await dispatched(person.json()[0].id as string)).toMatchObject({ dispatch_status: 'sent' });
    expect(receiver.requests.length).toBe(before);
  });
});

describe('teamChannelsOf', () => {
  it('keeps entries with a connection or url and their string properties', () => {
    expect(
      teamChannelsOf({
        notifications: [
          { connection: 'connection://default/slack', properties: { channel: '#ops', retries: 3 } },
          { url: 'https://hooks.example.com/x' },
          { name: 'neither' },
          null,
        ],
      }),
    ).toEqual([
      { connection: 'connection://default/slack', properties: { channel: '#ops' } },
      { url: 'https://hooks.example.com/x' },
    ]);
    expect(teamChannelsOf(null)).toEqual([]);
    expect(teamChannelsOf({ notifications: 'no' })).toEqual([]);
  });
});
