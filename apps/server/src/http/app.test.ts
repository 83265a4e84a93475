import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
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
});
