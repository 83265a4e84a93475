import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SELF_CANARY_NAME } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, readConfigInput } from '../config/config.js';
import { TEST_SECRET_KEY } from '../../test/build-test-app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createSealer } from '../crypto/sealed-values.js';
import { resolveSecretKeys } from '../crypto/secret-key.js';
import { readHealthSettings } from '../modules/health/health-settings.js';
import { refusingSandbox } from '../sandbox/sandbox.js';
import { SERVER_VERSION } from '../version.js';
import { createApp } from './app.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const jobRuns = async () =>
  (await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM job_history')).rows[0]!.n;

/** Resolves once `condition` holds (polled), so no test depends on how fast the machine is. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('createApp: the composition of the modules', () => {
  it("runs no module's background work until started (a --role api replica), then every module's, and stops it", async () => {
    const composed = await createApp({
      logger: pino({ level: 'silent' }),
      database,
      version: SERVER_VERSION,
      webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
      sealer: createSealer(TEST_SECRET_KEY),
      health: {
        sandbox: refusingSandbox('this test runs no scripts'),
        workers: readHealthSettings({}),
      },
    });
    try {
      await composed.app.ready();
      // Serving, but no job has run: the jobs and the workers wait for start().
      expect((await composed.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await jobRuns()).toBe(0);

      composed.start();
      await until(async () => (await jobRuns()) > 0);
      const names = await database.pool.query<{ name: string }>('SELECT DISTINCT name FROM job_history');
      expect(names.rows.map((row) => row.name)).toContain('RefreshCheckStatusSummary');
    } finally {
      await composed.stop();
      await composed.app.close();
    }
    // Stopped: nothing runs any more.
    const after = await jobRuns();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await jobRuns()).toBe(after);
  });

  it("runs every module's start-up step once bootstrapped (lookout serve), in module order, and none before", async () => {
    const fresh = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-bootstrap-'));
    const config = parseConfig(
      readConfigInput(
        { DATABASE_URL: fresh.url, LOOKOUT_DATA_DIR: dataDir, LOOKOUT_ADMIN_EMAIL: 'root@example.com' },
        {},
      ),
    );
    const count = async (sql: string, values: unknown[] = []) =>
      (await fresh.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]!.n;
    const composed = await createApp({
      logger: pino({ level: 'silent' }),
      database: fresh,
      version: SERVER_VERSION,
      webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
      sealer: createSealer(TEST_SECRET_KEY),
      serve: { config, databaseUrl: fresh.url, workers: false, secretKeys: await resolveSecretKeys(config) },
      health: { sandbox: refusingSandbox('this test runs no scripts'), selfCanary: true },
    });
    try {
      // The key was generated into the data directory (by resolveSecretKeys, as lookout serve does).
      expect(existsSync(path.join(dataDir, 'secret-key'))).toBe(true);
      expect(await count('identity_secret_key')).toBe(0);
      expect(await count('identities')).toBe(0);
      expect(await count('canaries WHERE name = $1', [SELF_CANARY_NAME])).toBe(0);

      await composed.bootstrap();
      // identity: the key is recorded and the first admin created; access (after it): the admin
      // role for that identity; health: the lookout-self canary.
      expect(await count('identity_secret_key')).toBe(1);
      const roles = await fresh.pool.query<{ roles: string[] }>('SELECT roles FROM people_roles WHERE email = $1', [
        'root@example.com',
      ]);
      expect(roles.rows.map((row) => row.roles)).toEqual([['admin']]);
      expect(await count('canaries WHERE name = $1 AND deleted_at IS NULL', [SELF_CANARY_NAME])).toBe(1);
    } finally {
      await composed.app.close();
      await fresh.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
