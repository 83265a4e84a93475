import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { eventually } from '../../../test/notification-helpers.js';
import { api, startEchoServer, workingSandbox } from '../../../test/playbook-helpers.js';
import { playbookApplier } from './playbook-cli.js';

/*
 * Actions reaching the outside through what Lookout stores: exec env from a secret and a
 * connection, files, http with a connection's credentials, a notification through the
 * senders; credentials masked in what is stored. And `lookout apply -f` of a Playbook.
 */

let testApp: TestApp;
let call: ReturnType<typeof api>;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let admin: TestUser;

beforeAll(async () => {
  const sandbox = await workingSandbox();
  if (!sandbox) throw new Error('no sandbox works on this machine (run scripts/ensure-test-tools.mjs)');
  testApp = await buildTestApp({ health: { sandbox }, playbooks: { workers: true, pollMs: 100 } });
  call = api(testApp.app);
  echo = await startEchoServer();
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'admin@example.com',
    roles: ['admin'],
  });
  const secret = await call(admin, 'POST', '/api/secrets', {
    kind: 'secret',
    name: 'app',
    data: { token: 'tok-5555' },
  });
  expect(secret.statusCode, secret.body).toBe(201);
  const connection = await call(admin, 'POST', '/api/db/connections', {
    namespace: 'default',
    name: 'echo',
    type: 'http',
    url: echo.url,
    username: 'bot',
    password: 'pw-9876',
    properties: {},
  });
  expect(connection.statusCode, connection.body).toBe(201);
}, 120_000);
afterAll(async () => {
  await echo?.close();
  await testApp?.close();
});

it('hands secrets, connections and files to actions and masks the credentials it stored', async () => {
  const created = await call(admin, 'POST', '/api/db/playbooks', {
    title: 'Outside',
    name: 'Outside',
    source: 'UI',
    spec: {
      parameters: [{ name: 'x', type: 'text' }],
      actions: [
        {
          name: 'script',
          exec: {
            script: 'echo "$GREETING"; cat conf/app.txt; echo; echo "$ECHO_USERNAME $ECHO_PASSWORD $TOKEN"',
            env: [
              { name: 'GREETING', value: 'hi {{ .params.x }}' },
              { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'app', key: 'token' } } },
            ],
            connections: [{ name: 'echo', connection: 'connection://default/echo' }],
            files: [{ path: 'conf/app.txt', content: 'v={{ .params.x }}' }],
          },
        },
        { name: 'call', http: { connection: 'connection://default/echo', url: '/hook', method: 'GET' } },
        {
          name: 'tell',
          notification: { url: `generic+${echo.url}/notify`, title: 'Done {{ .params.x }}', message: 'all good' },
        },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = (JSON.parse(created.body) as Array<{ id: string }>)[0]!.id;
  const run = await call(admin, 'POST', '/api/playbook/run', { id, params: { x: 'one' } });
  expect(run.statusCode, run.body).toBe(201);
  const runId = (JSON.parse(run.body) as { run_id: string }).run_id;
  const { rows } = await eventually(async () => {
    const answer = await testApp.database.pool.query<{ status: string; error: string | null }>(
      'SELECT status, error FROM playbook_runs WHERE id = $1',
      [runId],
    );
    return ['completed', 'failed'].includes(answer.rows[0]!.status) ? answer : undefined;
  }, 90_000);
  const actions = await testApp.database.pool.query<{ name: string; result: Record<string, unknown> }>(
    'SELECT name, result FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index',
    [runId],
  );
  expect(rows[0], JSON.stringify(actions.rows)).toMatchObject({ status: 'completed' });
  expect(actions.rows[0]!.result.stdout).toBe('hi one\nv=one\nbot *** ***\n');
  const answered = JSON.parse(String(actions.rows[1]!.result.body)) as { url: string; auth: string };
  expect(answered).toMatchObject({ url: '/hook', auth: 'Basic ***' });
  expect(String(actions.rows[2]!.result.logs)).toContain('generic_webhook');
  expect(JSON.stringify(actions.rows)).not.toContain('pw-9876');
});

it('applies Playbook documents, which are then read-only in the console', async () => {
  const applier = playbookApplier({ pool: testApp.database.pool, logger: pino({ level: 'silent' }) });
  const document = {
    apiVersion: 'mission-control.flanksource.com/v1',
    kind: 'Playbook',
    metadata: { name: 'restart-pod', namespace: 'ops' },
    spec: { title: 'Restart pod', category: 'Kubernetes', actions: [{ name: 'go', exec: { script: 'true' } }] },
  };
  expect(await applier.apply(document, 'ConfigFile')).toBe('playbook ops/restart-pod created');
  expect(await applier.apply(document, 'ConfigFile')).toBe('playbook ops/restart-pod updated');
  await expect(applier.apply({ ...document, spec: { actions: [] } }, 'ConfigFile')).rejects.toThrow(
    'spec.actions: needs at least one action',
  );
  const { rows } = await testApp.database.pool.query<{ id: string; title: string; category: string }>(
    `SELECT id, title, category FROM playbooks WHERE name = 'restart-pod'`,
  );
  expect(rows).toMatchObject([{ title: 'Restart pod', category: 'Kubernetes' }]);
  const patch = await call(admin, 'PATCH', `/api/db/playbooks?id=eq.${rows[0]!.id}`, { title: 'Renamed' });
  expect(patch.statusCode).toBe(403);
  expect(patch.body).toContain('ConfigFile');
});

it('answers bad input on every playbook endpoint with a 400 naming the field, never a 500', async () => {
  const unknown = '00000000-0000-4000-8000-0000000000aa';
  const cases: Array<[method: 'GET' | 'POST', url: string, body: unknown, status: number, text: string]> = [
    ['POST', '/api/playbook/not-an-id/params', {}, 400, 'id'],
    ['POST', '/api/playbook/run/cancel/nope', undefined, 400, 'run_id'],
    ['POST', '/api/playbook/run/approve/nope', undefined, 400, 'run_id'],
    ['POST', '/api/playbook/run/rerun/nope', undefined, 400, 'run_id'],
    ['GET', '/api/playbook/run/nope/logs', undefined, 400, 'run_id'],
    ['POST', '/api/playbook/run', { id: unknown, params: 'x' }, 400, 'params'],
    ['POST', '/api/playbook/run', { id: unknown, check_id: 'x' }, 400, 'check_id'],
    ['GET', `/api/playbook/list?check_id=${unknown}&config_id=${unknown}`, undefined, 400, 'at most one'],
    ['GET', `/api/playbook/list?config_id=${unknown}`, undefined, 404, 'config_id'],
    ['POST', `/api/playbook/run/cancel/${unknown}`, undefined, 404, unknown],
    ['POST', `/api/playbook/run/approve/${unknown}`, undefined, 404, unknown],
    ['GET', `/api/playbook/run/${unknown}/logs`, undefined, 404, unknown],
  ];
  for (const [method, url, body, status, text] of cases) {
    const response = await call(admin, method, url, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    expect(response.body, `${method} ${url}`).toContain(text);
  }
});
