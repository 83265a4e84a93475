import {
  AGENT_GENERATE_PATH,
  AGENT_MESSAGES,
  AGENT_PING_PATH,
  AGENT_TOKEN_PATH,
  type AgentGenerateResponse,
  type Role,
} from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Registration on a real PostgreSQL: POST /api/agent/generate and /api/agent/token per role
 * (write on agents: admin and editor; spec 2 section 6), what they store, and bad input.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const ROLES_ALLOWED: readonly Role[] = ['admin', 'editor'];
const ROLES_REFUSED: readonly Role[] = ['viewer', 'commander', 'responder'];

const post = (user: TestUser | undefined, url: string, body: unknown) =>
  testApp.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(user), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const sql = async (text: string, values: unknown[] = []) => (await testApp.database.pool.query(text, values)).rows;

const pingWith = (token: string) =>
  testApp.app.inject({
    method: 'GET',
    url: AGENT_PING_PATH,
    headers: { authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` },
  });

beforeAll(async () => {
  testApp = await buildTestApp({ background: false });
  for (const role of [...ROLES_ALLOWED, ...ROLES_REFUSED]) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `agents-${role}@example.com`,
      roles: [role],
    });
  }
});

afterAll(async () => {
  await testApp?.close();
});

describe('POST /api/agent/generate', () => {
  it('creates the agent, its service person and a token valid 365 days; the options go into properties', async () => {
    const response = await post(users.admin, AGENT_GENERATE_PATH, {
      name: '  prod-eu  ',
      properties: { region: 'eu' },
      kubernetes: { enabled: true, interval: '30m' },
      pushTelemetry: { enabled: false, topologyName: '' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<AgentGenerateResponse>();
    expect(created.username).toMatch(/^agent-[0-9a-f]{16}$/);
    expect(created.access_token).toMatch(/^lka_/);

    const [agent] = await sql(
      `SELECT a.name, a.username, a.properties, a.created_by::text, p.name AS person, p.email, p.type
         FROM agents a JOIN people p ON p.id = a.person_id WHERE a.id = $1`,
      [created.id],
    );
    expect(agent).toEqual({
      name: 'prod-eu',
      username: created.username,
      properties: {
        region: 'eu',
        kubernetes: { enabled: true, interval: '30m' },
        pushTelemetry: { enabled: false, topologyName: '' },
      },
      created_by: users.admin.id,
      person: created.username,
      email: `${created.username}@local`,
      type: 'agent',
    });
    const [token] = await sql(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days, token_sha256 <> $2 AS hashed
         FROM access_tokens WHERE person_id = (SELECT person_id FROM agents WHERE id = $1)`,
      [created.id, created.access_token],
    );
    expect(token).toEqual({ days: 365, hashed: true });
    expect((await pingWith(created.access_token)).statusCode).toBe(200);
  });

  it.each(ROLES_ALLOWED)('is allowed for %s (write on agents)', async (role) => {
    expect((await post(users[role], AGENT_GENERATE_PATH, { name: `by-${role}` })).statusCode).toBe(201);
  });

  it.each(ROLES_REFUSED)('is refused for %s (403) and creates nothing', async (role) => {
    const response = await post(users[role], AGENT_GENERATE_PATH, { name: `by-${role}` });
    expect(response.statusCode).toBe(403);
    expect(await sql(`SELECT id FROM agents WHERE name = $1`, [`by-${role}`])).toEqual([]);
  });

  it('is refused without a session (401)', async () => {
    expect((await post(undefined, AGENT_GENERATE_PATH, { name: 'anonymous' })).statusCode).toBe(401);
  });

  it('refuses a name a live agent has (409), and takes it again once that agent is deleted', async () => {
    expect((await post(users.admin, AGENT_GENERATE_PATH, { name: 'twice' })).statusCode).toBe(201);
    const again = await post(users.admin, AGENT_GENERATE_PATH, { name: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(AGENT_MESSAGES.nameTaken('twice'));
    await sql(`UPDATE agents SET deleted_at = now() WHERE name = 'twice'`);
    expect((await post(users.admin, AGENT_GENERATE_PATH, { name: 'twice' })).statusCode).toBe(201);
  });

  it.each([
    [{}, AGENT_MESSAGES.nameRequired],
    [{ name: '   ' }, AGENT_MESSAGES.nameRequired],
    [{ name: 'x'.repeat(256) }, AGENT_MESSAGES.nameTooLong],
    [{ name: 'labels', properties: { region: 3 } }, 'must be a string'],
    [{ name: 'k8s', kubernetes: { enabled: 'yes' } }, 'must be true or false'],
  ])('answers 400 for %j', async (body, message) => {
    const response = await post(users.admin, AGENT_GENERATE_PATH, body);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain(message);
  });
});

describe('POST /api/agent/token', () => {
  it('issues another working token for an agent; the first one keeps working', async () => {
    const first = (await post(users.admin, AGENT_GENERATE_PATH, { name: 'tokens' })).json<AgentGenerateResponse>();
    const response = await post(users.editor, AGENT_TOKEN_PATH, { name: 'tokens' });
    expect(response.statusCode, response.body).toBe(201);
    const second = response.json<AgentGenerateResponse>();
    expect(second).toMatchObject({ id: first.id, username: first.username });
    expect(second.access_token).not.toBe(first.access_token);
    expect((await pingWith(second.access_token)).statusCode).toBe(200);
    expect((await pingWith(first.access_token)).statusCode).toBe(200);
  });

  it('gives an agent created without a service person (through the data API) one', async () => {
    await sql(`INSERT INTO agents (name) VALUES ('bare')`);
    const response = await post(users.admin, AGENT_TOKEN_PATH, { name: 'bare' });
    expect(response.statusCode, response.body).toBe(201);
    expect((await pingWith(response.json<AgentGenerateResponse>().access_token)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown agent, 400 without a name, 403 for a viewer', async () => {
    const unknown = await post(users.admin, AGENT_TOKEN_PATH, { name: 'nobody' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe(AGENT_MESSAGES.notFound('nobody'));
    expect((await post(users.admin, AGENT_TOKEN_PATH, {})).statusCode).toBe(400);
    expect((await post(users.viewer, AGENT_TOKEN_PATH, { name: 'tokens' })).statusCode).toBe(403);
  });
});
