import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { claimDueAction, claimDueRun, failLapsedActions, timeOutRuns } from './playbook-runs-repository.js';

/*
 * The executor's claims on a real PostgreSQL: runs and actions an agent pushed (agent_id set
 * by /upstream/push) are the agent's to execute, never the upstream's.
 */

let database: TestDatabase;
let agentRun: string;
let localRun: string;

const sql = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await database.pool.query<T>(text, values)).rows;

beforeAll(async () => {
  database = await createTestDatabase();
  const [agent] = await sql<{ id: string }>(`INSERT INTO agents (name) VALUES ('edge') RETURNING id::text`);
  const [playbook] = await sql<{ id: string }>(
    `INSERT INTO playbooks (name, namespace, spec) VALUES ('restart', 'default', '{}') RETURNING id::text`,
  );
  const insertRun = async (agentId: string | null) =>
    (
      await sql<{ id: string }>(
        `INSERT INTO playbook_runs (playbook_id, spec, status, scheduled_time, start_time, timeout, agent_id)
         VALUES ($1, '{}', 'scheduled', now() - interval '1 hour', now() - interval '1 hour', 1000000000, $2)
         RETURNING id::text`,
        [playbook!.id, agentId],
      )
    )[0]!.id;
  agentRun = await insertRun(agent!.id);
  localRun = await insertRun(null);
  await sql(
    `INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, status, scheduled_time, lease_until, agent_id)
     VALUES ($1, 'scheduled', 0, 'scheduled', now() - interval '1 hour', NULL, $2),
            ($1, 'running', 1, 'running', now() - interval '1 hour', now() - interval '1 minute', $2)`,
    [agentRun, agent!.id],
  );
});

afterAll(async () => {
  await database?.drop();
});

describe("the executor leaves an agent's runs and actions alone", () => {
  it('claims only local runs and actions', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      expect((await claimDueRun(client))?.id).toBe(localRun);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await claimDueAction(database.pool, 'worker-1', 60_000)).toBeUndefined();
  });

  it("neither times out an agent's run nor fails its running action", async () => {
    await timeOutRuns(database.pool);
    expect(await failLapsedActions(database.pool)).toEqual([]);
    const rows = await sql(`SELECT id::text, status FROM playbook_runs ORDER BY id`);
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: agentRun, status: 'scheduled' },
        { id: localRun, status: 'timed_out' },
      ]),
    );
    expect(await sql(`SELECT status FROM playbook_run_actions WHERE name = 'running'`)).toEqual([
      { status: 'running' },
    ]);
  });
});
