import { AGENT_ONLINE_WINDOW_SECONDS, ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * The agents page through /api/db exactly as the console calls it (spec 2 sections 2.6, 4 and
 * 7.4; ui-calls 3.8; 32_agents_summary.sql): the paged, counted `agents_summary` with each
 * agent's counts, status and backlog, and the soft delete PATCH that expires the agent's
 * tokens and, with cleanup, removes what it pushed. As real signed-in users of each role.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const NIL = '00000000-0000-0000-0000-000000000000';

const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      prefer: 'return=representation,count=exact',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

const query = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<T[]> =>
  (await testApp.database.pool.query<T>(sql, values)).rows;

const insertId = async (sql: string, values: unknown[] = []) => (await query<{ id: string }>(sql, values))[0]!.id;

/** The list call of the agents page (ui-calls 3.8). */
const list = (params: string) =>
  `/api/db/agents_summary?select=*,created_by(id,name,avatar)&${params}&limit=50&offset=0`;

type SummaryRow = {
  id: string;
  name: string;
  status: string;
  health: string;
  config_count: number;
  checks_count: number;
  config_scrapper_count: number;
  playbook_runs_count: number;
  push_queue_length: number | null;
  push_oldest_unpushed_at: string | null;
  created_by: { id: string; name: string; avatar: string | null } | null;
};

/** An agent with its own service person and a live access token, as /api/agent/generate makes. */
async function seedAgent(name: string, lastSeen: string | null): Promise<{ id: string; person: string }> {
  const person = await insertId(
    `INSERT INTO people (name, email, type) VALUES ($1, $1 || '@local', 'agent') RETURNING id`,
    [`agent-${name}`],
  );
  await query(
    `INSERT INTO access_tokens (person_id, name, token_sha256, expires_at) VALUES ($1, 'agent', md5(random()::text), now() + interval '365 days')`,
    [person],
  );
  const id = await insertId(
    `INSERT INTO agents (name, person_id, created_by, last_seen) VALUES ($1, $2, $3, ${lastSeen ?? 'NULL'}) RETURNING id`,
    [name, person, users.admin.id],
  );
  return { id, person };
}

/** One of each row an agent pushes, stored under that agent (the nil agent for local rows). */
async function seedPushedRows(agent: string): Promise<Record<string, string>> {
  const canary = await insertId(
    `INSERT INTO canaries (name, spec, agent_id) VALUES ('c-' || $1::text, '{"http":[]}', $1::uuid) RETURNING id`,
    [agent],
  );
  const check = await insertId(
    `INSERT INTO checks (canary_id, type, name, spec, status, agent_id) VALUES ($1, 'http', 'web', '{}', 'healthy', $2) RETURNING id`,
    [canary, agent],
  );
  const scraper = await insertId(
    `INSERT INTO config_scrapers (name, spec, agent_id) VALUES ('s-' || $1::text, '{}', $1::uuid) RETURNING id`,
    [agent],
  );
  const item = await insertId(
    `INSERT INTO config_items (config_class, type, name, config, agent_id) VALUES ('Node', 'Kubernetes::Node', 'n1', '{}', $1) RETURNING id`,
    [agent],
  );
  await query(
    `INSERT INTO config_items (config_class, type, name, config, agent_id) VALUES ('Node', 'Kubernetes::Node', 'n2', '{}', $1)`,
    [agent],
  );
  const topology = await insertId(
    `INSERT INTO topologies (name, spec, agent_id) VALUES ('t-' || $1::text, '{}', $1::uuid) RETURNING id`,
    [agent],
  );
  const component = await insertId(
    `INSERT INTO components (name, external_id, status, topology_id, agent_id) VALUES ('svc', 'svc-' || $2::text, 'healthy', $1, $2::uuid) RETURNING id`,
    [topology, agent],
  );
  const playbook = await insertId(
    `INSERT INTO playbooks (name, spec, agent_id) VALUES ('p-' || $1, '{"actions":[]}', $1::uuid) RETURNING id`,
    [agent],
  );
  const run = await insertId(
    `INSERT INTO playbook_runs (playbook_id, spec, status, agent_id) VALUES ($1, '{}', 'completed', $2) RETURNING id`,
    [playbook, agent],
  );
  return { canary, check, scraper, item, topology, component, playbook, run };
}

/** Which of the seeded rows are still live (not soft-deleted, not gone). */
async function liveRows(rows: Record<string, string>): Promise<string[]> {
  const live: string[] = [];
  for (const [kind, table] of [
    ['canary', 'canaries'],
    ['check', 'checks'],
    ['scraper', 'config_scrapers'],
    ['item', 'config_items'],
    ['topology', 'topologies'],
    ['component', 'components'],
    ['playbook', 'playbooks'],
  ] as const) {
    const found = await query(`SELECT 1 FROM ${table} WHERE id = $1 AND deleted_at IS NULL`, [rows[kind]]);
    if (found.length > 0) live.push(kind);
  }
  if ((await query('SELECT 1 FROM playbook_runs WHERE id = $1', [rows.run])).length > 0) live.push('run');
  return live;
}

const liveTokens = async (person: string) =>
  (
    await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM access_tokens WHERE person_id = $1 AND expires_at > now()',
      [person],
    )
  )[0]!.n;

let online: { id: string; person: string };
let offline: { id: string; person: string };
let neverSeen: { id: string; person: string };

beforeAll(async () => {
  testApp = await buildTestApp({ background: false });
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
  online = await seedAgent('eu-west', `now() - interval '${AGENT_ONLINE_WINDOW_SECONDS - 2} seconds'`);
  offline = await seedAgent('us-east', `now() - interval '${AGENT_ONLINE_WINDOW_SECONDS + 2} seconds'`);
  neverSeen = await seedAgent('ap-south', null);
  await query(
    `UPDATE agents SET push_queue_length = 42, push_oldest_unpushed_at = now() - interval '5 minutes' WHERE id = $1`,
    [online.id],
  );
  await seedPushedRows(online.id);
  await seedPushedRows(NIL);
  await insertId(`INSERT INTO agents (name, deleted_at) VALUES ('retired', now()) RETURNING id`);
});
afterAll(() => testApp.close());

describe('agents_summary', () => {
  it('lists live agents with their pushed counts, the 60 s status rule and the backlog, counted and paged', async () => {
    const response = await call(users.viewer, 'GET', list('order=name.asc'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-range']).toBe('0-2/3');
    const rows = response.json<SummaryRow[]>();
    // Neither the nil agent (this instance) nor a deleted agent is listed.
    expect(rows.map((row) => row.name)).toEqual(['ap-south', 'eu-west', 'us-east']);
    const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
    expect(byName['eu-west']).toMatchObject({
      status: 'online',
      health: 'healthy',
      config_count: 2,
      checks_count: 1,
      config_scrapper_count: 1,
      playbook_runs_count: 1,
      push_queue_length: 42,
      created_by: { id: users.admin.id },
    });
    expect(byName['eu-west']!.push_oldest_unpushed_at).not.toBeNull();
    expect(byName['us-east']).toMatchObject({
      status: 'offline',
      health: 'unhealthy',
      checks_count: 0,
      config_count: 0,
    });
    expect(byName['ap-south']).toMatchObject({ status: 'unknown', health: 'unknown', push_queue_length: null });
  });

  it('sorts by the columns the page offers and pages with limit and offset', async () => {
    const byStatus = await call(users.viewer, 'GET', list('order=status.desc'));
    expect(byStatus.json<SummaryRow[]>().map((row) => row.status)).toEqual(['unknown', 'online', 'offline']);
    const page = await call(users.viewer, 'GET', '/api/db/agents_summary?select=name&order=name.desc&limit=1&offset=1');
    expect(page.headers['content-range']).toBe('1-1/3');
    expect(page.json()).toEqual([{ name: 'eu-west' }]);
  });

  it('is read by every role and written by none (a view: write agents instead)', async () => {
    for (const role of ROLES) {
      expect((await call(users[role], 'GET', list('order=name.asc'))).statusCode, role).toBe(200);
    }
    const write = await call(users.admin, 'PATCH', `/api/db/agents_summary?id=eq.${online.id}`, { name: 'x' });
    expect(write.statusCode).toBe(405);
    expect(write.json().message).toContain('write agents instead');
  });
});

describe('deleting an agent (PATCH agents {deleted_at, cleanup})', () => {
  it('refuses roles without write on agents and leaves the agent live', async () => {
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      const response = await call(users[role], 'PATCH', `/api/db/agents?id=eq.${neverSeen.id}`, {
        deleted_at: new Date().toISOString(),
      });
      expect(response.statusCode, role).toBe(403);
    }
    expect(await liveTokens(neverSeen.person)).toBe(1);
  });

  it('answers 400 naming the field for a deleted_at that is not a time', async () => {
    const response = await call(users.admin, 'PATCH', `/api/db/agents?id=eq.${neverSeen.id}`, { deleted_at: 'soon' });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('soon');
  });

  it('without cleanup expires the tokens and keeps what the agent pushed', async () => {
    const rows = await seedPushedRows(offline.id);
    const response = await call(users.editor, 'PATCH', `/api/db/agents?id=eq.${offline.id}`, {
      deleted_at: new Date().toISOString(),
      cleanup: false,
    });
    expect(response.statusCode).toBe(200);
    expect(await liveTokens(offline.person)).toBe(0);
    expect(await liveRows(rows)).toEqual([
      'canary',
      'check',
      'scraper',
      'item',
      'topology',
      'component',
      'playbook',
      'run',
    ]);
  });

  it('with cleanup also removes what the agent pushed, and nothing of this instance or other agents', async () => {
    const other = await seedAgent('keep-me', 'now()');
    const otherRows = await seedPushedRows(other.id);
    const localRows = await query<{ id: string }>(`SELECT id FROM checks WHERE agent_id = $1 AND deleted_at IS NULL`, [
      NIL,
    ]);
    const pushed = await query<{ id: string; kind: string }>(
      `SELECT id, 'check' AS kind FROM checks WHERE agent_id = $1 UNION ALL SELECT id, 'run' FROM playbook_runs WHERE agent_id = $1`,
      [online.id],
    );
    const response = await call(users.admin, 'PATCH', `/api/db/agents?id=eq.${online.id}`, {
      deleted_at: new Date().toISOString(),
      cleanup: true,
    });
    expect(response.statusCode).toBe(200);
    expect(await liveTokens(online.person)).toBe(0);
    expect(await liveTokens(other.person)).toBe(1);
    expect(pushed).toHaveLength(2);
    const gone = await query(`SELECT 1 FROM checks WHERE agent_id = $1 AND deleted_at IS NULL`, [online.id]);
    expect(gone).toEqual([]);
    for (const table of ['canaries', 'config_scrapers', 'config_items', 'topologies', 'components', 'playbooks']) {
      expect(
        await query(`SELECT 1 FROM ${table} WHERE agent_id = $1 AND deleted_at IS NULL`, [online.id]),
        table,
      ).toEqual([]);
    }
    expect(await query('SELECT 1 FROM playbook_runs WHERE agent_id = $1', [online.id])).toEqual([]);
    expect(await liveRows(otherRows)).toEqual([
      'canary',
      'check',
      'scraper',
      'item',
      'topology',
      'component',
      'playbook',
      'run',
    ]);
    expect(await query(`SELECT id FROM checks WHERE agent_id = $1 AND deleted_at IS NULL`, [NIL])).toEqual(localRows);
    const names = (await call(users.viewer, 'GET', list('order=name.asc'))).json<SummaryRow[]>().map((row) => row.name);
    expect(names).toEqual(['ap-south', 'keep-me']);
  });
});
