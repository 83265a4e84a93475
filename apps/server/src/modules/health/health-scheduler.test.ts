import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createHealthRepository } from './health-repository.js';
import { secretsUnavailable } from './health-run-fns.js';
import { createCheckScheduler, type CheckScheduler } from './health-scheduler.js';
import { createHealthService } from './health-service.js';
import { createNotificationListener } from '../../db/notification-listener.js';
import { runCheck } from './runners/runners.js';

/**
 * The scheduler end to end: real PostgreSQL, real HTTP checks against a server this test runs,
 * NOTIFY wake-ups, results written in batches, a status change, and a check that times out.
 */

const logger = pino({ level: 'silent' });
let database: TestDatabase;
let target: http.Server;
let base: string;
let answer = 200;
const hung: http.ServerResponse[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  target = http.createServer((request, response) => {
    if (request.url === '/hang') {
      hung.push(response);
      return;
    }
    response.writeHead(answer);
    response.end(answer === 200 ? 'ok' : 'server error');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of hung) response.destroy();
  await new Promise((resolve) => target.close(resolve));
  await database.drop();
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('check scheduler', () => {
  let scheduler: CheckScheduler;
  let listener: ReturnType<typeof createNotificationListener>;

  afterAll(async () => {
    await scheduler?.stop();
    await listener?.close();
  });

  it('runs due checks on schedule, records a failure with its reason, a transition, and a timeout', async () => {
    const repository = createHealthRepository(database.pool);
    listener = createNotificationListener(database.pool, logger);
    scheduler = createCheckScheduler({
      repository,
      runCheck,
      resolveSecret: secretsUnavailable,
      subscribe: listener.subscribe,
      logger,
      // A long poll interval: prompt runs come from NOTIFY and the next due time, not polling.
      settings: { concurrency: 8, checkTimeoutMs: 500, pollIntervalMs: 10_000, stopGraceMs: 200 },
      workerId: 'test-worker',
    });
    scheduler.start();
    // Let the listener connect before the canary is applied.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const service = createHealthService({
      repository,
      runCheck,
      resolveSecret: secretsUnavailable,
      settings: { checkTimeoutMs: 500 },
      logger,
    });
    const applied = await service.apply(
      { kind: 'system' },
      {
        source: 'UI',
        document: {
          apiVersion: 'canaries.flanksource.com/v1',
          kind: 'Canary',
          metadata: { name: 'scheduled' },
          spec: {
            interval: 1,
            http: [
              { name: 'api', url: `${base}/health`, responseCodes: [200] },
              { name: 'stuck', url: `${base}/hang` },
            ],
          },
        },
      },
    );
    const api = applied.checks.find((check) => check.name === 'api')!.id;
    const stuck = applied.checks.find((check) => check.name === 'stuck')!.id;

    const statusesOf = async (checkId: string) =>
      (
        await database.pool.query<{ status: boolean; message: string; time: Date }>(
          'SELECT status, message, time FROM check_statuses WHERE check_id = $1 ORDER BY time',
          [checkId],
        )
      ).rows;
    const checkRow = async (checkId: string) =>
      (
        await database.pool.query<{
          status: string | null;
          last_transition_time: Date | null;
          last_runtime: Date | null;
          next_runtime: Date | null;
        }>('SELECT status, last_transition_time, last_runtime, next_runtime FROM checks WHERE id = $1', [checkId])
      ).rows[0]!;

    // The first run follows the apply at once (the trigger's NOTIFY), then every second.
    const passing = await waitFor('two passing runs', async () => {
      const rows = await statusesOf(api);
      return rows.length >= 2 ? rows : undefined;
    });
    expect(passing.every((row) => row.status)).toBe(true);
    expect(passing[1]!.time.getTime() - passing[0]!.time.getTime()).toBeLessThan(2_500);
    const healthy = await checkRow(api);
    expect(healthy.status).toBe('healthy');
    expect(healthy.next_runtime!.getTime()).toBeGreaterThan(healthy.last_runtime!.getTime());

    answer = 500;
    const unhealthy = await waitFor('the check to fail', async () => {
      const row = await checkRow(api);
      return row.status === 'unhealthy' ? row : undefined;
    });
    expect(unhealthy.last_transition_time!.getTime()).toBeGreaterThan(healthy.last_transition_time!.getTime());
    const failure = (await statusesOf(api)).find((row) => !row.status);
    expect(failure?.message).toMatch(/500/);

    const timedOut = await waitFor('the hung check to time out', async () => (await statusesOf(stuck))[0]);
    expect(timedOut).toMatchObject({ status: false, message: 'timed out after 500 ms' });

    const stats = scheduler.stats();
    expect(stats.runs).toBeGreaterThanOrEqual(4);
    expect(stats.lagMs.p95).toBeLessThan(1_000);
    answer = 200;
  });

  it('stops cleanly and gives the checks under way back', async () => {
    await scheduler.stop();
    const { rows } = await database.pool.query<{ claimed: number }>(
      'SELECT count(*)::int AS claimed FROM checks WHERE claimed_by IS NOT NULL',
    );
    expect(rows[0]!.claimed).toBe(0);
    const runs = scheduler.stats().runs;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(scheduler.stats().runs).toBe(runs);
  });
});
