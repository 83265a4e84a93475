import { ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { eventually, insertCheck } from '../../../test/notification-helpers.js';
import { api, processWith, startEchoServer, workingSandbox } from '../../../test/playbook-helpers.js';

/*
 * Playbooks end to end on real PostgreSQL, a real sandbox and a real HTTP server: documents
 * through /api/db, the run API as the console calls it (ui-calls 3.7), the executor running
 * exec, http and sql actions, failure handling, cancel (the script's process is gone),
 * approvals, webhooks, dry runs, logs and event triggers.
 */

let testApp: TestApp;
let call: ReturnType<typeof api>;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let checkId: string;
const users = {} as Record<Role, TestUser>;

beforeAll(async () => {
  const sandbox = await workingSandbox();
  if (!sandbox) throw new Error('no sandbox works on this machine (run scripts/ensure-test-tools.mjs)');
  testApp = await buildTestApp({
    health: { sandbox },
    playbooks: { workers: true, pollMs: 100, leaseMs: 3000, reapEveryMs: 500 },
  });
  call = api(testApp.app);
  echo = await startEchoServer();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
  ({ checkId } = await insertCheck(testApp.database.pool, 'api'));
}, 120_000);
afterAll(async () => {
  await echo?.close();
  await testApp?.close();
});

async function createPlaybook(title: string, spec: Record<string, unknown>, user = users.admin): Promise<string> {
  const response = await call(user, 'POST', '/api/db/playbooks', {
    title,
    name: title,
    source: 'UI',
    spec,
    created_by: user.id,
  });
  expect(response.statusCode, response.body).toBe(201);
  return (JSON.parse(response.body) as Array<{ id: string }>)[0]!.id;
}

const runOf = async (id: string) =>
  (
    await testApp.database.pool.query<{ status: string; error: string | null }>(
      'SELECT status, error FROM playbook_runs WHERE id = $1',
      [id],
    )
  ).rows[0]!;
const actionsOf = async (id: string) =>
  (
    await testApp.database.pool.query<{
      name: string;
      status: string;
      result: Record<string, unknown>;
      error: string | null;
    }>(
      'SELECT name, status, result, error FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, created_at',
      [id],
    )
  ).rows;
const finished = (id: string) =>
  eventually(async () => {
    const run = await runOf(id);
    return ['completed', 'failed', 'cancelled', 'timed_out'].includes(run.status) ? run : undefined;
  }, 90_000);

describe('a run of exec, http and sql actions', () => {
  let playbookId: string;
  beforeAll(async () => {
    playbookId = await createPlaybook('Restart api', {
      category: 'Ops',
      checks: [{ types: ['http'] }],
      parameters: [
        { name: 'who', label: 'Who', type: 'text', default: 'world', properties: { format: 'dns1123' } },
        { name: 'count', type: 'text', properties: { min: 1, max: 5 } },
      ],
      actions: [
        { name: 'greet', exec: { script: 'echo "hello {{ .params.who }} on $(check.name) x$(params.count)"' } },
        { name: 'call', http: { url: `${echo.url}/restart`, method: 'POST', body: '{"who": "{{ .params.who }}"}' } },
        { name: 'query', sql: { url: testApp.database.url, query: "SELECT 1 AS one, 'x' AS letter" } },
        { name: 'report', exec: { script: 'echo "{{ .actions.call.result.code }}"' } },
      ],
    });
  });

  it('lists the playbook for a matching check, and its parameters', async () => {
    const list = await call(users.viewer, 'GET', `/api/playbook/list?check_id=${checkId}`);
    expect(list.statusCode, list.body).toBe(200);
    const item = (JSON.parse(list.body) as Array<{ id: string; category: string; parameters: unknown[] }>).find(
      (p) => p.id === playbookId,
    );
    expect(item?.category).toBe('Ops');
    expect(item?.parameters).toHaveLength(2);
    const params = await call(users.viewer, 'POST', `/api/playbook/${playbookId}/params`, {
      id: playbookId,
      check_id: checkId,
    });
    expect(params.statusCode).toBe(200);
    expect((JSON.parse(params.body) as { params: Array<{ name: string; default?: string }> }).params[0]).toMatchObject({
      name: 'who',
      default: 'world',
    });
    const none = await call(users.viewer, 'GET', '/api/playbook/list');
    expect((JSON.parse(none.body) as Array<{ id: string }>).some((p) => p.id === playbookId)).toBe(false);
  });

  it('runs every action in order and records their results', async () => {
    const response = await call(users.editor, 'POST', '/api/playbook/run', {
      id: playbookId,
      check_id: checkId,
      params: { who: 'ops-team', count: '3' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { run_id: runId, starts_at: startsAt } = JSON.parse(response.body) as { run_id: string; starts_at: string };
    expect(Date.parse(startsAt)).not.toBeNaN();
    const run = await finished(runId);
    const actions = await actionsOf(runId);
    expect(run, JSON.stringify(actions)).toMatchObject({ status: 'completed', error: null });
    expect(actions.map((a) => [a.name, a.status])).toEqual([
      ['greet', 'completed'],
      ['call', 'completed'],
      ['query', 'completed'],
      ['report', 'completed'],
    ]);
    expect(actions[0]!.result.stdout).toBe('hello ops-team on api x3\n');
    expect(actions[1]!.result.code).toBe(200);
    expect(JSON.parse(String(actions[1]!.result.body))).toMatchObject({ method: 'POST', body: '{"who": "ops-team"}' });
    expect(actions[2]!.result).toMatchObject({ rows: [{ one: 1, letter: 'x' }], count: 1 });
    expect(actions[3]!.result.stdout).toBe('200\n');

    // The run pages' reads, as the console makes them (ui-calls 3.7).
    const list = await testApp.app.inject({
      method: 'GET',
      url:
        '/api/db/playbook_runs?select=*,playbooks(id,name,title,spec,icon),component:components(id,name,icon),' +
        'check:checks(id,name,icon),config:config_items(id,name,type,config_class)&&order=created_at.desc' +
        `&playbook_id=eq.${playbookId}&limit=150&offset=0`,
      headers: { ...bearer(users.viewer), prefer: 'count=exact' },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['content-range']).toMatch(/\/1$/);
    expect((JSON.parse(list.body) as Array<Record<string, unknown>>)[0]).toMatchObject({
      id: runId,
      status: 'completed',
      playbooks: { id: playbookId, title: 'Restart api' },
      check: { id: checkId, name: 'api' },
      component: null,
      config: null,
    });
    const steps = await call(
      users.viewer,
      'GET',
      `/api/db/playbook_run_actions?select=id,name,status,start_time,end_time,scheduled_time&order=start_time.asc&playbook_run_id=eq.${runId}`,
    );
    expect((JSON.parse(steps.body) as Array<{ name: string }>).map((step) => step.name)).toEqual([
      'greet',
      'call',
      'query',
      'report',
    ]);
    const names = await call(
      users.viewer,
      'GET',
      '/api/db/playbook_names?select=id,name,title,icon,category&order=title.asc',
    );
    expect(JSON.parse(names.body)).toContainEqual(expect.objectContaining({ id: playbookId, title: 'Restart api' }));

    const logs = await call(users.viewer, 'GET', `/api/playbook/run/${runId}/logs`);
    expect(logs.statusCode).toBe(200);
    expect(logs.headers['content-disposition']).toContain('attachment');
    expect(logs.body).toContain('hello ops-team on api x3');
  });

  it('refuses bad input with a 400 naming the field, and callers without write on playbook_runs', async () => {
    const bad = await call(users.admin, 'POST', '/api/playbook/run', {
      id: playbookId,
      check_id: checkId,
      params: { who: 'Not_DNS', count: '9' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('params.who');
    expect(bad.body).toContain('params.count: must be at most 5');
    const noId = await call(users.admin, 'POST', '/api/playbook/run', { params: {} });
    expect(noId.statusCode).toBe(400);
    expect(noId.body).toContain('id');
    const wrongTarget = await call(users.admin, 'POST', '/api/playbook/run', { id: playbookId });
    expect(wrongTarget.statusCode).toBe(400);
    const unknown = await call(users.admin, 'POST', '/api/playbook/run', {
      id: '00000000-0000-4000-8000-000000000001',
    });
    expect(unknown.statusCode).toBe(404);
    for (const role of ROLES) {
      const response = await call(users[role], 'POST', '/api/playbook/run/dry-run', {
        id: playbookId,
        check_id: checkId,
        params: { count: '2' },
      });
      expect(response.statusCode, role).toBe(role === 'admin' || role === 'editor' ? 200 : 403);
    }
    expect((await call(undefined, 'GET', '/api/playbook/list')).statusCode).toBe(401);
  });

  it('dry-runs: every action rendered, nothing executed', async () => {
    const before = echo.hits();
    const response = await call(users.admin, 'POST', '/api/playbook/run/dry-run', {
      id: playbookId,
      check_id: checkId,
      params: { count: '2' },
    });
    const body = JSON.parse(response.body) as {
      actions: Array<{ name: string; rendered: { exec?: { script: string } } }>;
    };
    expect(body.actions[0]!.rendered.exec?.script).toBe('echo "hello world on api x2"');
    expect(echo.hits()).toBe(before);
  });
});

describe('documents', () => {
  it('refuses an invalid spec naming the field, and needs title and spec', async () => {
    const bad = await call(users.admin, 'POST', '/api/db/playbooks', {
      title: 'Bad',
      name: 'Bad',
      source: 'UI',
      spec: { actions: [{ name: 'x', exec: { script: 'true' }, pod: {} }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('spec.actions[0].pod: unknown field');
    const empty = await call(users.admin, 'POST', '/api/db/playbooks', { name: 'x', source: 'UI' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('title: This field is required');
    const viewer = await call(users.viewer, 'POST', '/api/db/playbooks', {
      title: 'V',
      name: 'V',
      source: 'UI',
      spec: { actions: [] },
    });
    expect(viewer.statusCode).toBe(403);
    const runs = await call(users.admin, 'POST', '/api/db/playbook_runs', {
      playbook_id: '00000000-0000-4000-8000-000000000001',
    });
    expect(runs.statusCode).toBe(405);
  });
});

describe('failures, cancel and approvals', () => {
  it('skips the actions after a failure except those with an if, and fails the run', async () => {
    const id = await createPlaybook('Fails', {
      actions: [
        { name: 'boom', exec: { script: 'echo oops >&2; exit 3' } },
        { name: 'never', exec: { script: 'echo never' } },
        { name: 'cleanup', if: 'always()', exec: { script: 'echo cleaned' } },
        { name: 'only-on-success', if: 'success()', exec: { script: 'echo no' } },
      ],
    });
    const { run_id: runId } = JSON.parse((await call(users.admin, 'POST', '/api/playbook/run', { id })).body) as {
      run_id: string;
    };
    const run = await finished(runId);
    expect(run.status).toBe('failed');
    expect(run.error).toContain('boom: script exited with code 3: oops');
    expect((await actionsOf(runId)).map((a) => [a.name, a.status])).toEqual([
      ['boom', 'failed'],
      ['never', 'skipped'],
      ['cleanup', 'completed'],
      ['only-on-success', 'skipped'],
    ]);
  });

  it('sleeps through an action delay, then runs it; a re-run repeats the parameters', async () => {
    const id = await createPlaybook('Delayed', {
      parameters: [{ name: 'n', type: 'text' }],
      actions: [
        { name: 'first', exec: { script: 'true' } },
        { name: 'later', delay: '2s', exec: { script: 'echo "n={{ .params.n }}"' } },
      ],
    });
    const { run_id: runId } = JSON.parse(
      (await call(users.admin, 'POST', '/api/playbook/run', { id, params: { n: '7' } })).body,
    ) as {
      run_id: string;
    };
    await eventually(
      async () => (await actionsOf(runId)).find((a) => a.name === 'later')?.status === 'sleeping',
      60_000,
    );
    expect((await finished(runId)).status).toBe('completed');
    const rerun = await call(users.editor, 'POST', `/api/playbook/run/rerun/${runId}`);
    expect(rerun.statusCode, rerun.body).toBe(200);
    const again = (JSON.parse(rerun.body) as { id: string }).id;
    expect((await finished(again)).status).toBe('completed');
    expect((await actionsOf(again))[1]!.result.stdout).toBe('n=7\n');
  });

  it('retries a failed action up to its limit', async () => {
    const id = await createPlaybook('Retries', {
      actions: [{ name: 'flaky', retry: { limit: 2, duration: '10ms' }, exec: { script: 'exit 1' } }],
    });
    const { run_id: runId } = JSON.parse((await call(users.admin, 'POST', '/api/playbook/run', { id })).body) as {
      run_id: string;
    };
    expect((await finished(runId)).status).toBe('failed');
    const { rows } = await testApp.database.pool.query(
      'SELECT retry_count FROM playbook_run_actions WHERE playbook_run_id = $1',
      [runId],
    );
    expect(rows).toEqual([{ retry_count: 2 }]);
  });

  it('cancels a running script: its process is gone and the run is cancelled', async () => {
    const marker = `lookout-cancel-${Date.now()}`;
    const id = await createPlaybook('Long', {
      actions: [
        { name: 'sleep', exec: { script: `sleep 300 # ${marker}` } },
        { name: 'after', exec: { script: 'true' } },
      ],
    });
    const { run_id: runId } = JSON.parse((await call(users.admin, 'POST', '/api/playbook/run', { id })).body) as {
      run_id: string;
    };
    await eventually(() => processWith(marker), 60_000);
    const cancel = await call(users.editor, 'POST', `/api/playbook/run/cancel/${runId}`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    await eventually(async () => (await actionsOf(runId))[0]?.status === 'cancelled', 60_000);
    expect(await processWith(marker)).toBe(false);
    expect((await runOf(runId)).status).toBe('cancelled');
    expect((await actionsOf(runId)).map((a) => a.name)).toEqual(['sleep']);
    expect((await call(users.editor, 'POST', `/api/playbook/run/cancel/${runId}`)).statusCode).toBe(409);
    expect((await call(users.viewer, 'POST', `/api/playbook/run/cancel/${runId}`)).statusCode).toBe(403);
  });

  it('times a run out: the run is timed_out and its script killed', async () => {
    const marker = `lookout-timeout-${Date.now()}`;
    const id = await createPlaybook('Slow', {
      timeout: '2s',
      actions: [{ name: 'slow', exec: { script: `sleep 300 # ${marker}` } }],
    });
    const { run_id: runId } = JSON.parse((await call(users.admin, 'POST', '/api/playbook/run', { id })).body) as {
      run_id: string;
    };
    expect((await finished(runId)).status).toBe('timed_out');
    await eventually(async () => (await actionsOf(runId))[0]?.status === 'cancelled', 60_000);
    expect(await processWith(marker)).toBe(false);
  });

  it('waits for an approver other than the requester', async () => {
    const id = await createPlaybook('Approved', {
      approval: { type: 'any', approvers: { people: ['editor@example.com', 'admin@example.com'] } },
      actions: [{ name: 'go', exec: { script: 'echo approved' } }],
    });
    const { run_id: runId } = JSON.parse((await call(users.admin, 'POST', '/api/playbook/run', { id })).body) as {
      run_id: string;
    };
    expect((await runOf(runId)).status).toBe('pending_approval');
    const self = await call(users.admin, 'POST', `/api/playbook/run/approve/${runId}`);
    expect(self.statusCode).toBe(403);
    expect(self.body).toContain('another approver');
    const approve = await call(users.editor, 'POST', `/api/playbook/run/approve/${runId}`);
    expect(approve.statusCode, approve.body).toBe(200);
    expect((await finished(runId)).status).toBe('completed');
    expect((await call(users.editor, 'POST', `/api/playbook/run/approve/${runId}`)).statusCode).toBe(409);
    const queued = await testApp.database.pool.query<{ properties: Record<string, string> }>(
      `SELECT properties FROM event_queue WHERE name = 'playbook.approval.inserted'`,
    );
    expect(queued.rows).toEqual([{ properties: { run_id: runId } }]);
  });
});

describe('triggers', () => {
  it('runs a webhook playbook only with its token', async () => {
    const id = await createPlaybook('Hook', {
      on: { webhook: { path: 'deploy-hook', authentication: { token: 's3cret-token' } } },
      actions: [{ name: 'show', exec: { script: "echo '{{ .request.body.ref }}'" } }],
    });
    const refused = await testApp.app.inject({
      method: 'POST',
      url: '/api/playbook/webhook/deploy-hook',
      payload: { ref: 'main' },
    });
    expect(refused.statusCode).toBe(401);
    // The token is masked for those who may not write playbooks, shown to those who may.
    const asViewer = await call(users.viewer, 'GET', `/api/db/playbooks?id=eq.${id}&select=spec`);
    expect(asViewer.body).not.toContain('s3cret-token');
    const asEditor = await call(users.editor, 'GET', `/api/db/playbooks?id=eq.${id}&select=spec`);
    expect(asEditor.body).toContain('s3cret-token');
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/playbook/webhook/deploy-hook',
      headers: { authorization: 'Bearer s3cret-token' },
      payload: { ref: 'main' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const runId = (JSON.parse(response.body) as { run_id: string }).run_id;
    expect((await finished(runId)).status).toBe('completed');
    expect((await actionsOf(runId))[0]!.result.stdout).toBe('main\n');
    expect(id).toBeTruthy();
    expect((await testApp.app.inject({ method: 'POST', url: '/api/playbook/webhook/nothing-here' })).statusCode).toBe(
      404,
    );
  });

  it('starts a run when a config item turns unhealthy, with its labels matched', async () => {
    const id = await createPlaybook('On unhealthy config', {
      on: { config: [{ event: 'unhealthy', labels: { app: 'web' } }] },
      actions: [{ name: 'note', exec: { script: 'echo "{{ .config.name }} is {{ .config.health }}"' } }],
    });
    const { rows } = await testApp.database.pool.query<{ id: string }>(
      `INSERT INTO config_items (type, config_class, name, health, labels)
       VALUES ('Kubernetes::Pod', 'Pod', 'web-1', 'healthy', '{"app": "web"}')
       RETURNING id`,
    );
    await testApp.database.pool.query(`UPDATE config_items SET health = 'unhealthy' WHERE id = $1`, [rows[0]!.id]);
    const run = await eventually(async () => {
      const answer = await testApp.database.pool.query<{ id: string; config_id: string }>(
        'SELECT id, config_id FROM playbook_runs WHERE playbook_id = $1',
        [id],
      );
      return answer.rows[0];
    }, 60_000);
    expect(run.config_id).toBe(rows[0]!.id);
    expect((await finished(run.id)).status).toBe('completed');
    expect((await actionsOf(run.id))[0]!.result.stdout).toBe('web-1 is unhealthy\n');
  });

  it('starts a run when a check fails', async () => {
    const id = await createPlaybook('On failure', {
      on: { canary: [{ event: 'failed', filter: "check.type == 'http'" }] },
      actions: [{ name: 'note', exec: { script: 'echo "$(check.name) failed"' } }],
    });
    await testApp.database.pool.query(`UPDATE checks SET status = 'unhealthy', last_runtime = now() WHERE id = $1`, [
      checkId,
    ]);
    const run = await eventually(async () => {
      const { rows } = await testApp.database.pool.query<{ id: string }>(
        'SELECT id FROM playbook_runs WHERE playbook_id = $1',
        [id],
      );
      return rows[0];
    }, 60_000);
    expect((await finished(run.id)).status).toBe('completed');
    expect((await actionsOf(run.id))[0]!.result.stdout).toBe('api failed\n');
  });
});

describe("an agent's playbooks (pushed to this Lookout)", () => {
  it('are not listed, run, triggered by events or answered by webhooks here', async () => {
    const pool = testApp.database.pool;
    const { rows: agents } = await pool.query<{ id: string }>(
      `INSERT INTO agents (name) VALUES ('edge-eu') RETURNING id`,
    );
    const agentId = agents[0]!.id;
    const spec = {
      checks: [{ types: ['http'] }],
      on: { canary: [{ event: 'failed' }], webhook: { path: 'agent-hook' } },
      actions: [{ name: 'note', exec: { script: 'echo agent' } }],
    };
    const { rows: pushed } = await pool.query<{ id: string }>(
      `INSERT INTO playbooks (name, title, spec, agent_id) VALUES ('Agent restart', 'Agent restart', $1, $2) RETURNING id`,
      [spec, agentId],
    );
    const agentPlaybookId = pushed[0]!.id;
    // A local playbook with the same trigger shows when the event has been handled.
    const localId = await createPlaybook('Local on failure', {
      on: { canary: [{ event: 'failed' }] },
      actions: [{ name: 'note', exec: { script: 'echo local' } }],
    });

    const list = await call(users.viewer, 'GET', `/api/playbook/list?check_id=${checkId}`);
    expect((JSON.parse(list.body) as Array<{ id: string }>).map((p) => p.id)).not.toContain(agentPlaybookId);
    const run = await call(users.editor, 'POST', '/api/playbook/run', { id: agentPlaybookId, check_id: checkId });
    expect(run.statusCode).toBe(400);
    expect(run.body).toContain('belongs to agent edge-eu');
    const hook = await testApp.app.inject({ method: 'POST', url: '/api/playbook/webhook/agent-hook' });
    expect(hook.statusCode).toBe(404);

    await pool.query(`UPDATE checks SET status = 'healthy', last_runtime = now() WHERE id = $1`, [checkId]);
    await pool.query(`UPDATE checks SET status = 'unhealthy', last_runtime = now() WHERE id = $1`, [checkId]);
    await eventually(async () => {
      const { rows } = await pool.query('SELECT id FROM playbook_runs WHERE playbook_id = $1', [localId]);
      return rows[0];
    }, 60_000);
    const { rows: agentRuns } = await pool.query('SELECT id FROM playbook_runs WHERE playbook_id = $1', [
      agentPlaybookId,
    ]);
    expect(agentRuns).toEqual([]);
  });
});
