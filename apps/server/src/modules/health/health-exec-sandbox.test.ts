import { existsSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { createFakeDataDir, type FakeDataDir } from '../../../test/sandbox-helpers.js';
import { protectDataDir } from '../../sandbox/protect-data-dir.js';
import { createSandbox, sandboxWithPlan, type Sandbox } from '../../sandbox/sandbox.js';
import { runCheck } from './runners/runners.js';

/**
 * The attack a reviewer ran: an editor's exec check reads the data directory's
 * postgres-credentials.json and uses it with psql to give the editor the admin role. Here the
 * data directory holds the real credentials of this test's database.
 */

const silent = pino({ level: 'silent' });
let testApp: TestApp;
let data: FakeDataDir;
let sandbox: Sandbox;
let editor: TestUser;
let attackScript: string;
const psqlInstalled = ['/usr/bin/psql', '/usr/local/bin/psql'].some((file) => existsSync(file));

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: { ...bearer(editor), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

const canary = (name: string, spec: object) => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata: { name, namespace: 'default' },
  spec,
});

const rolesOfEditor = async () =>
  (
    await testApp.database.pool.query<{ role: string }>(
      'SELECT role FROM role_assignments WHERE person_id = $1 ORDER BY role',
      [editor.id],
    )
  ).rows.map((row) => row.role);

async function runNow(checkName: string) {
  const { rows } = await testApp.database.pool.query<{ id: string }>(
    'SELECT id FROM checks WHERE name = $1 AND deleted_at IS NULL',
    [checkName],
  );
  const response = await call('POST', `/api/canary/run/check/${rows[0]?.id}`);
  expect(response.statusCode).toBe(200);
  return response.json<{ result: { status: boolean; message: string; error: string; detail?: unknown } }>().result;
}

beforeAll(async () => {
  // The test server's superuser, as the embedded PostgreSQL's credentials file would hold it.
  const superuser = new URL(inject('testAdminDatabaseUrl'));
  data = await createFakeDataDir({
    user: decodeURIComponent(superuser.username),
    password: decodeURIComponent(superuser.password),
  });
  // What `lookout serve` does at start-up: protect the data directory, then pick the isolation.
  await protectDataDir(data.dir, silent);
  sandbox = await createSandbox({ privatePaths: [data.dir], allowUnsandboxed: false, logger: silent });
  testApp = await buildTestApp({ health: { sandbox } });
  editor = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'editor@example.com',
    roles: ['editor'],
  });
  const dbUrl = new URL(testApp.database.url);
  const credentials = path.join(data.dir, 'postgres-credentials.json');
  attackScript = [
    `cat ${credentials}`,
    `cat ${path.join(data.dir, 'secret-key')}`,
    `PGUSER=$(sed -e 's/.*"user":"\\([^"]*\\)".*/\\1/' ${credentials})`,
    `PGPASSWORD=$(sed -e 's/.*"password":"\\([^"]*\\)".*/\\1/' ${credentials})`,
    'export PGUSER PGPASSWORD PGCONNECT_TIMEOUT=5',
    `psql -h ${dbUrl.hostname} -p ${dbUrl.port} -d ${testApp.database.name} -v ON_ERROR_STOP=1 ` +
      `-c "INSERT INTO role_assignments (person_id, role) VALUES ('${editor.id}', 'admin')"`,
  ].join('\n');
});
afterAll(async () => {
  await testApp?.close();
  await data?.remove();
});

describe("an editor's exec check against Lookout's credentials", () => {
  it('cannot read them, reach the database with them, or gain a role', async () => {
    const applied = await call(
      'POST',
      '/api/canary/apply',
      canary('escalate', { exec: [{ name: 'escalate', script: attackScript }] }),
    );
    expect(applied.statusCode).toBe(200);
    const result = await runNow('escalate');
    expect(result.status).toBe(false);
    const everything = JSON.stringify(result);
    expect(everything).not.toContain(data.password);
    expect(everything).not.toContain(data.secretKey);
    expect(await rolesOfEditor()).toEqual(['editor']);
    if (sandbox.mode === 'refused') {
      console.warn(`SKIPPED exec attack in a sandbox: this machine has no isolation, so exec checks are refused`);
      expect(result.message).toContain('exec checks are off on this server');
    }
  });

  it('is a real attack: the same script without isolation makes the editor an admin', async () => {
    if (!psqlInstalled) {
      console.warn('SKIPPED unisolated control of the exec attack: psql is not installed');
      return;
    }
    const unsandboxed = await sandboxWithPlan({ mode: 'unsandboxed' }, { privatePaths: [data.dir] });
    const result = await runCheck(
      { type: 'exec', check: { name: 'escalate', script: attackScript } },
      { resolveSecret: () => Promise.reject(new Error('none')), timeoutMs: 20_000, sandbox: unsandboxed },
    );
    try {
      expect(result).toMatchObject({ pass: true });
      expect(await rolesOfEditor()).toEqual(['admin', 'editor']);
    } finally {
      await testApp.database.pool.query("DELETE FROM role_assignments WHERE person_id = $1 AND role = 'admin'", [
        editor.id,
      ]);
    }
  });

  it('still runs an ordinary script as before', async () => {
    if (sandbox.mode === 'refused') {
      console.warn('SKIPPED ordinary exec check through Run Now: no isolation for scripts on this machine');
      return;
    }
    const applied = await call(
      'POST',
      '/api/canary/apply',
      canary('ordinary', {
        exec: [{ name: 'ordinary', script: 'echo "backups: $COUNT"; exit 0', env: [{ name: 'COUNT', value: '3' }] }],
      }),
    );
    expect(applied.statusCode).toBe(200);
    expect(await runNow('ordinary')).toMatchObject({ status: true, message: 'backups: 3' });
  });
});

describe("an editor's folder check on Lookout's data directory", () => {
  it('is refused, also through a path that only leads there', async () => {
    const target = `${data.dir}/../${path.basename(data.dir)}`;
    const applied = await call(
      'POST',
      '/api/canary/apply',
      canary('snoop', { folder: [{ name: 'snoop', path: target }] }),
    );
    expect(applied.statusCode).toBe(200);
    const result = await runNow('snoop');
    expect(result).toMatchObject({
      status: false,
      message: `${target} is in Lookout's data directory, which checks may not list`,
    });
    expect(JSON.stringify(result)).not.toContain('postgres-credentials.json');
  });
});
