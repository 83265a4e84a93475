import { randomUUID } from 'node:crypto';
import {
  AGENT_PING_PATH,
  AGENT_PUSH_PATH,
  AGENT_PUSH_TABLES,
  NIL_AGENT_ID,
  type AgentGenerateResponse,
  type AgentPushConflict,
  type AgentPushData,
  type AgentPushResult,
} from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * The upstream side of the push protocol on a real PostgreSQL over real HTTP injection: an
 * agent registered through /api/agent/generate pushes rows of every table, resends them,
 * refers to parents the upstream lacks, sends bad bodies, and loses its token.
 */

let testApp: TestApp;
let admin: TestUser;
let agent: AgentGenerateResponse;
const agentName = 'edge-cluster';

const basic = (password: string, username = 'token') => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
});

const push = (body: unknown, headers: Record<string, string> = basic(agent.access_token), name = agentName) =>
  testApp.app.inject({
    method: 'POST',
    url: `${AGENT_PUSH_PATH}?agent_name=${encodeURIComponent(name)}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const ping = (query = '', headers: Record<string, string> = basic(agent.access_token)) =>
  testApp.app.inject({ method: 'GET', url: `${AGENT_PING_PATH}?agent_name=${agentName}${query}`, headers });

const sql = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await testApp.database.pool.query<T>(text, values)).rows;

async function generate(name: string): Promise<AgentGenerateResponse> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/agent/generate',
    headers: { ...bearer(admin), 'content-type': 'application/json' },
    payload: JSON.stringify({ name }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<AgentGenerateResponse>();
}

const ids = {
  canary: randomUUID(),
  check: randomUUID(),
  scraper: randomUUID(),
  item: randomUUID(),
  related: randomUUID(),
  change: randomUUID(),
  analysis: randomUUID(),
  topology: randomUUID(),
  parent: randomUUID(),
  child: randomUUID(),
  playbook: randomUUID(),
  run: randomUUID(),
  action: randomUUID(),
};
const statusTime = '2026-11-20T10:00:00.000Z';
const otherAgent = randomUUID();

/** One push with rows of all 17 tables, as an agent's database would send them. */
function fullPush(): AgentPushData {
  return {
    canaries: [
      {
        id: ids.canary,
        name: 'edge-web',
        namespace: 'default',
        spec: { http: [{ name: 'web', url: 'http://edge.local' }] },
        source: 'UI',
        agent_id: NIL_AGENT_ID,
        // A person of the agent's own database: unknown upstream, stored as NULL.
        created_by: randomUUID(),
        // A column a newer agent might have: ignored.
        future_column: 'from a newer agent',
      },
    ],
    checks: [
      {
        id: ids.check,
        canary_id: ids.canary,
        type: 'http',
        name: 'web',
        spec: { url: 'http://edge.local' },
        status: 'healthy',
        agent_id: otherAgent,
        last_transition_time: '2026-11-20T09:00:00.000Z',
      },
    ],
    check_statuses: [{ check_id: ids.check, time: statusTime, status: true, duration: 12, message: 'ok' }],
    config_scrapers: [{ id: ids.scraper, name: 'edge-scraper', spec: { kubernetes: [] }, is_pushed: false }],
    config_items: [
      {
        id: ids.item,
        config_class: 'Node',
        type: 'Kubernetes::Node',
        name: 'node-1',
        scraper_id: ids.scraper,
        external_id: ['node-1', 'i-0abc'],
        tags: { cluster: 'edge' },
      },
      { id: ids.related, config_class: 'Pod', type: 'Kubernetes::Pod', name: 'pod-1', scraper_id: ids.scraper },
    ],
    config_changes: [
      { id: ids.change, config_id: ids.item, change_type: 'diff', fingerprint: 'f1', external_change_id: null },
    ],
    config_analysis: [
      {
        id: ids.analysis,
        config_id: ids.item,
        analyzer: 'trivy',
        analysis_type: 'security',
        severity: 'low',
        status: 'open',
      },
    ],
    config_relationships: [{ config_id: ids.item, related_id: ids.related, relation: 'NodePod' }],
    topologies: [{ id: ids.topology, name: 'edge', namespace: 'default', spec: {} }],
    components: [
      // The child first: its parent comes later in the same push.
      {
        id: ids.child,
        external_id: 'child',
        name: 'child',
        status: 'healthy',
        topology_id: ids.topology,
        parent_id: ids.parent,
      },
      { id: ids.parent, external_id: 'parent', name: 'parent', status: 'healthy', topology_id: ids.topology },
    ],
    component_relationships: [{ component_id: ids.parent, relationship_id: ids.child, selector_id: null }],
    check_component_relationships: [{ component_id: ids.parent, check_id: ids.check, canary_id: ids.canary }],
    check_config_relationships: [{ config_id: ids.item, check_id: ids.check, canary_id: ids.canary }],
    config_component_relationships: [{ component_id: ids.parent, config_id: ids.item }],
    playbooks: [{ id: ids.playbook, name: 'restart', namespace: 'default', spec: {} }],
    playbook_runs: [{ id: ids.run, playbook_id: ids.playbook, spec: {}, status: 'completed' }],
    playbook_run_actions: [
      { id: ids.action, name: 'restart', playbook_run_id: ids.run, action_index: 0, status: 'completed' },
    ],
  };
}

/** How many rows each pushed table holds for the fixture's keys. */
async function fixtureCounts(): Promise<Record<string, number>> {
  const [row] = await sql<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM canaries WHERE id = $1) AS canaries,
            (SELECT count(*)::int FROM checks WHERE canary_id = $1) AS checks,
            (SELECT count(*)::int FROM check_statuses WHERE check_id = $2) AS check_statuses,
            (SELECT count(*)::int FROM config_items WHERE scraper_id = $3) AS config_items,
            (SELECT count(*)::int FROM config_changes WHERE config_id = $4) AS config_changes,
            (SELECT count(*)::int FROM config_analysis WHERE config_id = $4) AS config_analysis,
            (SELECT count(*)::int FROM config_relationships WHERE config_id = $4) AS config_relationships,
            (SELECT count(*)::int FROM components WHERE topology_id = $5) AS components,
            (SELECT count(*)::int FROM component_relationships WHERE component_id = $6) AS component_relationships,
            (SELECT count(*)::int FROM check_component_relationships WHERE check_id = $2) AS check_component_relationships,
            (SELECT count(*)::int FROM check_config_relationships WHERE check_id = $2) AS check_config_relationships,
            (SELECT count(*)::int FROM config_component_relationships WHERE config_id = $4) AS config_component_relationships,
            (SELECT count(*)::int FROM playbook_runs WHERE playbook_id = $7) AS playbook_runs,
            (SELECT count(*)::int FROM playbook_run_actions WHERE playbook_run_id = $8) AS playbook_run_actions`,
    [ids.canary, ids.check, ids.scraper, ids.item, ids.topology, ids.parent, ids.playbook, ids.run],
  );
  return row!;
}

beforeAll(async () => {
  testApp = await buildTestApp({ background: false });
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'agents-admin@example.com',
    roles: ['admin'],
  });
  agent = await generate(agentName);
  await sql(`INSERT INTO agents (id, name) VALUES ($1, 'another-agent')`, [otherAgent]);
});

afterAll(async () => {
  await testApp?.close();
});

describe('POST /upstream/push', () => {
  it('stores rows of every table under the caller, whatever agent_id they carry, and marks it received', async () => {
    const response = await push({ ...fullPush(), backlog: { queue_length: 7, oldest_unpushed_at: statusTime } });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<AgentPushResult>().saved;
    expect(Object.keys(saved).sort()).toEqual([...AGENT_PUSH_TABLES].sort());
    expect(saved.config_items).toBe(2);
    expect(saved.components).toBe(2);

    for (const table of ['canaries', 'checks', 'config_scrapers', 'config_items', 'topologies', 'components']) {
      const owners = await sql<{ agent_id: string }>(
        `SELECT DISTINCT agent_id::text FROM ${table} WHERE id = ANY($1)`,
        [Object.values(ids)],
      );
      expect(owners, table).toEqual([{ agent_id: agent.id }]);
    }
    const runs = await sql(`SELECT agent_id::text FROM playbook_runs WHERE id = $1`, [ids.run]);
    expect(runs).toEqual([{ agent_id: agent.id }]);
    const [item] = await sql(`SELECT external_id, tags FROM config_items WHERE id = $1`, [ids.item]);
    expect(item).toEqual({ external_id: ['node-1', 'i-0abc'], tags: { cluster: 'edge' } });
    const [canary] = await sql(`SELECT created_by FROM canaries WHERE id = $1`, [ids.canary]);
    expect(canary).toEqual({ created_by: null });
    // is_pushed is the upstream's own bookkeeping (migration 35 stores received rows as pushed),
    // never the agent's value.
    const [scraper] = await sql(`SELECT is_pushed FROM config_scrapers WHERE id = $1`, [ids.scraper]);
    expect(scraper).toEqual({ is_pushed: true });
    const [check] = await sql<{ last_transition_time: Date }>(`SELECT last_transition_time FROM checks WHERE id = $1`, [
      ids.check,
    ]);
    expect(check!.last_transition_time.toISOString()).toBe('2026-11-20T09:00:00.000Z');

    const [row] = await sql<{
      last_seen: Date | null;
      last_received: Date | null;
      push_queue_length: number;
      push_oldest_unpushed_at: Date;
    }>(`SELECT last_seen, last_received, push_queue_length, push_oldest_unpushed_at FROM agents WHERE id = $1`, [
      agent.id,
    ]);
    expect(Date.now() - row!.last_seen!.getTime()).toBeLessThan(10_000);
    expect(Date.now() - row!.last_received!.getTime()).toBeLessThan(10_000);
    expect(row!.push_queue_length).toBe(7);
    expect(row!.push_oldest_unpushed_at.toISOString()).toBe(statusTime);
  });

  it('stores a resent push once: the same rows twice are one row each, and the canary derives no checks', async () => {
    const before = await fixtureCounts();
    expect(Object.values(before).every((count) => count >= 1)).toBe(true);
    expect(before.checks).toBe(1);
    const again = await push(fullPush());
    expect(again.statusCode, again.body).toBe(200);
    expect(await fixtureCounts()).toEqual(before);
    const [change] = await sql(`SELECT count FROM config_changes WHERE id = $1`, [ids.change]);
    expect(change).toEqual({ count: 1 });
  });

  it('updates what changed and raises one event per check transition, none for a resend', async () => {
    const unhealthy = { ...fullPush().checks![0]!, status: 'unhealthy' };
    const events = () => sql(`SELECT name FROM event_queue WHERE event_id = $1 AND name LIKE 'check.%'`, [ids.check]);
    expect(await events()).toEqual([]);
    expect((await push({ checks: [unhealthy] })).statusCode).toBe(200);
    expect((await push({ checks: [unhealthy] })).statusCode).toBe(200);
    expect(await events()).toEqual([{ name: 'check.failed' }]);
    const [check] = await sql(`SELECT status FROM checks WHERE id = $1`, [ids.check]);
    expect(check).toEqual({ status: 'unhealthy' });
  });

  it('answers 409 with the ids of rows whose parents the upstream lacks, and stores nothing of that push', async () => {
    const missingCheck = randomUUID();
    const orphan = await push({
      canaries: [{ ...fullPush().canaries![0]!, name: 'renamed-in-refused-push' }],
      check_statuses: [{ check_id: missingCheck, time: statusTime, status: false }],
    });
    expect(orphan.statusCode, orphan.body).toBe(409);
    expect(orphan.json<AgentPushConflict>().data).toEqual({
      ids: [`${missingCheck},${statusTime}`],
      table: 'check_statuses',
    });
    const [canary] = await sql(`SELECT name FROM canaries WHERE id = $1`, [ids.canary]);
    expect(canary).toEqual({ name: 'edge-web' });

    const lostCanary = randomUUID();
    const checkId = randomUUID();
    const checks = await push({
      checks: [
        { ...fullPush().checks![0]! },
        { id: checkId, canary_id: lostCanary, type: 'http', name: 'lost', spec: {} },
      ],
    });
    expect(checks.statusCode, checks.body).toBe(409);
    expect(checks.json<AgentPushConflict>()).toMatchObject({ data: { ids: [checkId], table: 'checks' } });
  });

  it("refuses rows whose id belongs to this Lookout's own rows or another agent's (409)", async () => {
    const [local] = await sql<{ id: string }>(
      `INSERT INTO topologies (name, namespace, spec) VALUES ('local-topology', 'default', '{}') RETURNING id::text`,
    );
    const response = await push({ topologies: [{ id: local!.id, name: 'hijacked', spec: {} }] });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json<AgentPushConflict>().data).toEqual({ ids: [local!.id], table: 'topologies' });
    const [topology] = await sql(`SELECT name, agent_id::text FROM topologies WHERE id = $1`, [local!.id]);
    expect(topology).toEqual({ name: 'local-topology', agent_id: NIL_AGENT_ID });
  });

  it("refuses rows without agent_id that refer to another owner's parents (409)", async () => {
    const [local] = await sql<{ id: string }>(
      `INSERT INTO config_items (config_class, type, name) VALUES ('Node', 'Kubernetes::Node', 'local-node') RETURNING id::text`,
    );
    const changeId = randomUUID();
    const response = await push({
      config_changes: [
        { id: ids.change, config_id: ids.item, change_type: 'diff' },
        { id: changeId, config_id: local!.id, change_type: 'diff' },
      ],
    });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json<AgentPushConflict>().data).toEqual({ ids: [changeId], table: 'config_changes' });
    expect(await sql(`SELECT id FROM config_changes WHERE config_id = $1`, [local!.id])).toEqual([]);
  });

  it.each([
    [{ nope: [] }, "Unknown table 'nope'"],
    [{ checks: { id: 'x' } }, "'checks' must be an array of rows"],
    [{ checks: [1] }, 'checks[0] must be an object'],
    [{ checks: [{ name: 'no id' }] }, 'checks[0] has no id'],
    [{ check_statuses: [{ check_id: randomUUID(), status: true }] }, 'check_statuses[0] has no time'],
    [{ canaries: [{ id: 'not-a-uuid', name: 'x', spec: {} }] }, 'canaries: invalid input syntax for type uuid'],
    [{ canaries: [{ id: randomUUID(), name: 'x', spec: 'not an object' }] }, 'canaries:'],
    [{ backlog: { queue_length: -1, oldest_unpushed_at: null } }, 'backlog.queue_length'],
    [[{ checks: [] }], 'must be a JSON object'],
  ])('answers 400 naming what is wrong in %j', async (body, message) => {
    const response = await push(body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toContain(message);
  });

  it('takes a body far larger than the rest of the API allows', async () => {
    const statuses = Array.from({ length: 500 }, (_, i) => ({
      check_id: ids.check,
      time: new Date(Date.parse(statusTime) + (i + 1) * 1000).toISOString(),
      status: true,
      duration: i,
      message: 'x'.repeat(12_000),
    }));
    const response = await push({ check_statuses: statuses });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AgentPushResult>().saved).toEqual({ check_statuses: 500 });
  });
});

describe('GET /upstream/ping', () => {
  it('marks the agent seen, stores its backlog and leaves last_received alone', async () => {
    await sql(
      `UPDATE agents SET last_seen = now() - interval '1 hour', last_received = now() - interval '1 hour' WHERE id = $1`,
      [agent.id],
    );
    const response = await ping('&queue_length=0');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ id: agent.id, name: agentName });
    const [row] = await sql<{
      seen: number;
      received: number;
      push_queue_length: number;
      push_oldest_unpushed_at: null;
    }>(
      `SELECT extract(epoch FROM now() - last_seen)::int AS seen, extract(epoch FROM now() - last_received)::int AS received,
              push_queue_length, push_oldest_unpushed_at FROM agents WHERE id = $1`,
      [agent.id],
    );
    expect(row!.seen).toBeLessThan(10);
    expect(row!.received).toBeGreaterThan(3000);
    expect(row!.push_queue_length).toBe(0);
    expect(row!.push_oldest_unpushed_at).toBeNull();
  });

  it('answers 400 for a backlog that is not a number', async () => {
    expect((await ping('&queue_length=many')).statusCode).toBe(400);
  });
});

describe('agent authentication', () => {
  it('refuses calls without the agent token (401), naming the username to use', async () => {
    const kubeconfig = await testApp.app.inject({ method: 'GET', url: '/api/kubeconfig', headers: bearer(admin) });
    const kubeToken = /token: (\S+)/.exec(kubeconfig.body)![1]!;
    for (const headers of [
      {},
      basic('lka_wrong'),
      basic(agent.access_token, 'admin'),
      basic(kubeToken),
      bearer(admin),
    ]) {
      const response = await ping('', headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.headers['www-authenticate']).toContain('Basic');
      expect(response.json<{ message: string }>().message).toContain("username 'token'");
      expect((await push({}, headers)).statusCode).toBe(401);
    }
  });

  it("answers 403 when agent_name names another agent than the token's", async () => {
    const response = await push({}, basic(agent.access_token), 'another-agent');
    expect(response.statusCode).toBe(403);
    expect(response.json<{ message: string }>().message).toContain(`belongs to the agent '${agentName}'`);
  });

  it("does not let an agent's token into the Kubernetes API", async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/kubernetes/apis',
      headers: { authorization: `Bearer ${agent.access_token}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a revoked or expired token, and a deleted agent, on the very next call', async () => {
    const revoked = await generate('revoked-agent');
    const callAs = (token: string) =>
      testApp.app.inject({ method: 'GET', url: `${AGENT_PING_PATH}?agent_name=revoked-agent`, headers: basic(token) });
    expect((await callAs(revoked.access_token)).statusCode).toBe(200);
    await sql(`DELETE FROM access_tokens WHERE person_id = (SELECT person_id FROM agents WHERE id = $1)`, [revoked.id]);
    expect((await callAs(revoked.access_token)).statusCode).toBe(401);

    const expiring = await generate('expiring-agent');
    const callExpiring = () =>
      testApp.app.inject({ method: 'GET', url: AGENT_PING_PATH, headers: basic(expiring.access_token) });
    expect((await callExpiring()).statusCode).toBe(200);
    await sql(
      `UPDATE access_tokens SET expires_at = now() WHERE person_id = (SELECT person_id FROM agents WHERE id = $1)`,
      [expiring.id],
    );
    expect((await callExpiring()).statusCode).toBe(401);

    const deleted = await generate('deleted-agent');
    const callDeleted = () =>
      testApp.app.inject({ method: 'POST', url: AGENT_PUSH_PATH, headers: basic(deleted.access_token), payload: {} });
    expect((await callDeleted()).statusCode).toBe(200);
    await sql(`UPDATE agents SET deleted_at = now() WHERE id = $1`, [deleted.id]);
    expect((await callDeleted()).statusCode).toBe(401);
  });
});
