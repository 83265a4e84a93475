import type { AddressInfo } from 'node:net';
import { AGENT_GENERATE_PATH, type AgentGenerateResponse } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobs } from '../src/jobs/jobs.js';
import { createAgentPushModule, AGENT_PUSH_JOB } from '../src/modules/agent-push/agent-push-module.js';
import { createAgentPushRepository } from '../src/modules/agent-push/agent-push-repository.js';
import { createAgentPusher } from '../src/modules/agent-push/agent-pusher.js';
import { createUpstreamClient, type UpstreamSettings } from '../src/modules/agent-push/upstream-client.js';
import { bearer, createSignedInUser } from './access-helpers.js';
import { buildTestApp, type TestApp } from './build-test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * The agent side against a real upstream: this app (with the agents module's receiver) on one
 * database and port, the agent's repository, pusher and module on another database.
 */
let upstream: TestApp;
let agentDb: TestDatabase;
let settings: UpstreamSettings;
let agentId: string;
let port: number;
const logger = pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });

const CANARY = {
  tcp: [
    { name: 'alpha', endpoint: 'localhost:1' },
    { name: 'beta', endpoint: 'localhost:2' },
  ],
};

async function generateAgent(app: TestApp, name: string): Promise<AgentGenerateResponse> {
  const admin = await createSignedInUser(app.app, app.database.pool, {
    email: `admin-${name}@x.test`,
    roles: ['admin'],
  });
  const created = await app.app.inject({
    method: 'POST',
    url: AGENT_GENERATE_PATH,
    headers: bearer(admin),
    payload: { name },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<AgentGenerateResponse>();
}

async function listen(app: TestApp, at = 0): Promise<number> {
  await app.app.listen({ host: '127.0.0.1', port: at });
  return (app.app.server.address() as AddressInfo).port;
}

async function addStatuses(count: number, offsetMs = 0) {
  await agentDb.pool.query(
    `INSERT INTO check_statuses (check_id, time, status, duration, message)
     SELECT c.id, now() - make_interval(secs => ($2::int + g) / 1000.0), g % 2 = 0, 3, 'run ' || g
     FROM checks c CROSS JOIN generate_series(1, $1::int) g`,
    [count, offsetMs],
  );
}

/** Check statuses per check name, of the checks and statuses `where` selects. */
const countsOf = async (db: TestDatabase['pool'], where = 'true') => {
  const { rows } = await db.query<{ name: string; statuses: number }>(
    `SELECT c.name, count(*)::int AS statuses FROM checks c JOIN check_statuses s ON s.check_id = c.id
     WHERE ${where} GROUP BY c.name ORDER BY c.name`,
  );
  return rows;
};

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  upstream = await buildTestApp();
  port = await listen(upstream);
  const agent = await generateAgent(upstream, 'edge-1');
  agentId = agent.id;
  settings = { url: `http://127.0.0.1:${port}`, agentName: 'edge-1', token: agent.access_token };
  agentDb = await createTestDatabase();
  await agentDb.pool.query(`INSERT INTO canaries (name, namespace, spec) VALUES ('edge', 'default', $1)`, [CANARY]);
  await addStatuses(3);
}, 60_000);

describe('becoming an agent', () => {
  it('queues, the first time, every row written before; a Lookout that is no agent keeps no queue', async () => {
    const repository = createAgentPushRepository(agentDb.pool);
    // Not an agent yet: the rows were born pushed.
    expect(await repository.backlog()).toEqual({ queue_length: 0, oldest_unpushed_at: null });
    // The canary, its two checks and their six statuses.
    expect(await repository.startPushing()).toBe(9);
    expect(await repository.startPushing()).toBe(0);
    const { rows } = await agentDb.pool.query<{ updated_at: Date; created_at: Date }>(
      `SELECT updated_at, created_at FROM canaries WHERE name = 'edge'`,
    );
    // Queueing a row changes nothing else of it.
    expect(rows[0]!.updated_at.getTime()).toBe(rows[0]!.created_at.getTime());

    const upstreamRepository = createAgentPushRepository(upstream.database.pool);
    await upstream.database.pool.query(`INSERT INTO canaries (name, spec) VALUES ('own', $1)`, [
      { tcp: [{ name: 'own-port', endpoint: 'localhost:3' }] },
    ]);
    await upstream.database.pool.query(
      `UPDATE checks SET description = 'changed' WHERE canary_id IN (SELECT id FROM canaries WHERE name = 'own')`,
    );
    expect(await upstreamRepository.backlog()).toEqual({ queue_length: 0, oldest_unpushed_at: null });
    expect(await upstreamRepository.stopPushing()).toBe(false);
  });
});

afterAll(async () => {
  await upstream?.close();
  await agentDb?.drop();
});

describe('the agent pusher against a real upstream', () => {
  it('pushes the canary, its checks and statuses under the agent, marks them, and then has nothing to push', async () => {
    const repository = createAgentPushRepository(agentDb.pool);
    const pusher = createAgentPusher({ repository, client: createUpstreamClient(settings), limit: 500 });
    expect(await repository.backlog()).toMatchObject({ queue_length: 9 });

    const round = await pusher.pushOnce();
    expect(round).toMatchObject({
      outcome: 'pushed',
      rows: 9,
      marked: 9,
      tables: { canaries: 1, checks: 2, check_statuses: 6 },
      more: false,
    });
    const upstreamChecks = await upstream.database.pool.query<{ agent_id: string }>(
      `SELECT DISTINCT agent_id FROM checks WHERE name IN ('alpha', 'beta')`,
    );
    expect(upstreamChecks.rows).toEqual([{ agent_id: agentId }]);
    expect(await countsOf(upstream.database.pool, `c.agent_id = '${agentId}'`)).toEqual(await countsOf(agentDb.pool));
    // Received rows are the agent's: the upstream keeps them out of its own pushes.
    const unpushedUpstream = await upstream.database.pool.query(
      `SELECT 1 FROM check_statuses WHERE NOT is_pushed AND check_id IN (SELECT id FROM checks WHERE agent_id = $1)`,
      [agentId],
    );
    expect(unpushedUpstream.rowCount).toBe(0);

    expect(await pusher.pushOnce()).toEqual({ outcome: 'idle' });
    expect(await repository.backlog()).toEqual({ queue_length: 0, oldest_unpushed_at: null });
  });

  it('leaves a row that changed while its push was under way unpushed, and sends it again', async () => {
    const repository = createAgentPushRepository(agentDb.pool);
    await agentDb.pool.query(`UPDATE checks SET description = 'first' WHERE name = 'alpha'`);
    const client = createUpstreamClient(settings);
    const pusher = createAgentPusher({
      repository,
      limit: 500,
      client: {
        push: async (data) => {
          await agentDb.pool.query(`UPDATE checks SET description = 'second' WHERE name = 'alpha'`);
          return client.push(data);
        },
      },
    });
    expect(await pusher.pushOnce()).toMatchObject({ outcome: 'pushed', rows: 1, marked: 0 });
    const again = createAgentPusher({ repository, client, limit: 500 });
    expect(await again.pushOnce()).toMatchObject({ outcome: 'pushed', rows: 1, marked: 1 });
    const { rows } = await upstream.database.pool.query(`SELECT description FROM checks WHERE name = 'alpha'`);
    expect(rows).toEqual([{ description: 'second' }]);
  });

  it('does not push again for the scheduler claim of a check, but does for a run', async () => {
    const repository = createAgentPushRepository(agentDb.pool);
    await agentDb.pool.query(`UPDATE checks SET claimed_by = 'worker-1', claimed_until = now(), next_runtime = now()`);
    expect(await repository.backlog()).toMatchObject({ queue_length: 0 });
    await agentDb.pool.query(`UPDATE checks SET last_runtime = now(), status = 'healthy' WHERE name = 'beta'`);
    expect(await repository.backlog()).toMatchObject({ queue_length: 1 });
    const pusher = createAgentPusher({ repository, client: createUpstreamClient(settings), limit: 500 });
    expect(await pusher.pushOnce()).toMatchObject({ outcome: 'pushed', tables: { checks: 1 } });
  });

  it('sends the parents again when the upstream lacks them (409), pushed before or not', async () => {
    // The upstream lost the agent's canary and checks (restored from an older backup, say).
    await upstream.database.pool.query(`DELETE FROM canaries WHERE agent_id = $1`, [agentId]);
    await addStatuses(2, 10_000);
    const repository = createAgentPushRepository(agentDb.pool);
    const pusher = createAgentPusher({ repository, client: createUpstreamClient(settings), limit: 500 });
    expect(await pusher.pushOnce()).toMatchObject({
      outcome: 'pushed',
      tables: { canaries: 1, checks: 2, check_statuses: 4 },
    });
    const { rows } = await upstream.database.pool.query(
      `SELECT count(*)::int AS n FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.agent_id = $1`,
      [agentId],
    );
    // Only the statuses of this push: the ones the upstream lost went with their checks.
    expect(rows).toEqual([{ n: 4 }]);
  });

  it('reports a refused token as unauthorized and pushes nothing', async () => {
    await addStatuses(1, 20_000);
    const repository = createAgentPushRepository(agentDb.pool);
    const pusher = createAgentPusher({
      repository,
      client: createUpstreamClient({ ...settings, token: 'lka_not-a-token' }),
      limit: 500,
    });
    expect(await pusher.pushOnce()).toMatchObject({ outcome: 'failed', kind: 'unauthorized' });
    expect(await repository.backlog()).toMatchObject({ queue_length: 2 });
  });

  it('pushes the other tables when the upstream refuses one (400), and that one again after its back-off', async () => {
    await agentDb.pool.query(`UPDATE checks SET description = 'refused for now' WHERE name = 'alpha'`);
    await addStatuses(1, 25_000);
    const repository = createAgentPushRepository(agentDb.pool);
    const client = createUpstreamClient(settings);
    let clock = Date.now();
    let refuseChecks = true;
    const pusher = createAgentPusher({
      repository,
      limit: 500,
      now: () => clock,
      client: {
        push: async (data) =>
          refuseChecks && data.checks
            ? { kind: 'refused', status: 400, message: '400 checks[0].spec: not what this upstream takes' }
            : client.push(data),
      },
    });
    // The upstream already has both checks: their statuses (these and the two the refused token
    // left) go without them.
    expect(await pusher.pushOnce()).toMatchObject({
      outcome: 'pushed',
      tables: { check_statuses: 4 },
      refused: { checks: '400 checks[0].spec: not what this upstream takes' },
    });
    expect(await pusher.pushOnce()).toEqual({ outcome: 'idle' });
    refuseChecks = false;
    clock += 1_500;
    expect(await pusher.pushOnce()).toMatchObject({ outcome: 'pushed', tables: { checks: 1 }, refused: {} });
  });

  it('keeps pushing through an upstream outage: queued rows arrive once each after it is back', async () => {
    const jobs = createJobs({ pool: agentDb.pool, logger });
    const module = createAgentPushModule({
      pool: agentDb.pool,
      logger,
      jobs,
      settings: { ...settings, intervalMs: 100, pingIntervalMs: 300, summaryEveryMs: 60_000 },
    });
    jobs.start();
    try {
      await waitFor(async () => (await createAgentPushRepository(agentDb.pool).backlog()).queue_length === 0, 10_000);

      // The upstream stops; the agent goes on writing results.
      await upstream.app.close();
      // Runs of an hour and more ago, told apart from the other tests' below.
      await addStatuses(5, 3_600_000);
      await waitFor(async () => {
        const { rows } = await agentDb.pool.query(`SELECT 1 FROM job_history WHERE name = $1 AND status = 'FAILED'`, [
          AGENT_PUSH_JOB,
        ]);
        return rows.length > 0;
      }, 10_000);
      await addStatuses(5, 7_200_000);

      // Back on the same database and port.
      const restarted = await buildTestApp({ database: upstream.database });
      try {
        await listen(restarted, port);
        await waitFor(async () => (await createAgentPushRepository(agentDb.pool).backlog()).queue_length === 0, 20_000);
        const queued = `s.time < now() - interval '30 minutes'`;
        expect(await countsOf(upstream.database.pool, `c.agent_id = '${agentId}' AND ${queued}`)).toEqual([
          { name: 'alpha', statuses: 10 },
          { name: 'beta', statuses: 10 },
        ]);
        expect(await countsOf(agentDb.pool, queued)).toEqual(await countsOf(upstream.database.pool, queued));
      } finally {
        await restarted.app.close();
        await restarted.database.drop();
      }
    } finally {
      await jobs.stop();
      await module.stop();
    }
    const summary = await agentDb.pool.query<{ status: string; success_count: number }>(
      `SELECT status, success_count FROM job_history WHERE name = $1 ORDER BY status`,
      [AGENT_PUSH_JOB],
    );
    // One FAILED row when the outage began, one summary row at the stop: not a row per push.
    // (The summary's period began before the failure.)
    expect(summary.rows.map((row) => row.status)).toEqual(['FAILED', 'WARNING']);
    expect(summary.rows[1]!.success_count).toBeGreaterThanOrEqual(20);
  }, 60_000);
});
