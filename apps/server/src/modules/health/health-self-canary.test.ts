import net, { type AddressInfo } from 'node:net';
import { SELF_CANARY_NAME } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { ensureSelfCanary, selfCanaryTargets } from './health-bootstrap.js';
import { createHealthRepository } from './health-repository.js';
import { checkEntryOf } from './health-run-fns.js';
import { secretsUnavailable } from './health-run-fns.js';
import { createCheckScheduler, type CheckScheduler } from './health-scheduler.js';
import { createHealthService } from './health-service.js';
import { runCheck } from './runners/runners.js';

/**
 * First run (issue 6 item 6): the lookout-self canary is created, kept pointed at the current
 * ports, checks a real Lookout (/api/health over HTTP, its PostgreSQL over TCP, localhost over
 * the system resolver) and passes; switching it off removes it.
 */

const logger = pino({ level: 'silent' });
let testApp: TestApp;
let port: number;

beforeAll(async () => {
  testApp = await buildTestApp();
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  port = (testApp.app.server.address() as AddressInfo).port;
});
afterAll(() => testApp?.close());

const selfCanary = async () =>
  (
    await testApp.database.pool.query<{ id: string; source: string; spec: Record<string, unknown>; deleted: boolean }>(
      'SELECT id, source, spec, deleted_at IS NOT NULL AS deleted FROM canaries WHERE name = $1 ORDER BY created_at DESC',
      [SELF_CANARY_NAME],
    )
  ).rows;

describe('the lookout-self canary', () => {
  it('is created on first start as a System canary whose three checks pass against this Lookout', async () => {
    await ensureSelfCanary({
      pool: testApp.database.pool,
      logger,
      enabled: true,
      host: '0.0.0.0',
      port,
      databaseUrl: testApp.database.url,
    });
    const [canary] = await selfCanary();
    expect(canary).toMatchObject({ source: 'System', deleted: false });
    const { rows } = await testApp.database.pool.query<{ type: string; spec: unknown }>(
      'SELECT type, spec FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY type',
      [canary!.id],
    );
    expect(rows.map((row) => row.type)).toEqual(['dns', 'http', 'tcp']);
    for (const row of rows) {
      const entry = checkEntryOf(row.type, row.spec);
      if (!entry.ok) throw new Error(entry.message);
      const result = await runCheck(entry.entry, { resolveSecret: secretsUnavailable, timeoutMs: 5_000 });
      expect(result, `${row.type}: ${result.message}`).toMatchObject({ pass: true });
    }
  });

  it('follows the ports on the next start instead of creating a second canary', async () => {
    await ensureSelfCanary({
      pool: testApp.database.pool,
      logger,
      enabled: true,
      host: '127.0.0.1',
      port: port + 1,
      databaseUrl: testApp.database.url.replace(/:(\d+)\//, ':65000/'),
    });
    const canaries = await selfCanary();
    expect(canaries).toHaveLength(1);
    const spec = canaries[0]!.spec as { http: { url: string }[]; tcp: { endpoint: string }[] };
    expect(spec.http[0]!.url).toBe(`http://127.0.0.1:${port + 1}/api/health`);
    expect(spec.tcp[0]!.endpoint).toMatch(/:65000$/);
  });

  it('is removed when LOOKOUT_SELF_CANARY is false', async () => {
    await ensureSelfCanary({
      pool: testApp.database.pool,
      logger,
      enabled: false,
      host: '127.0.0.1',
      port,
      databaseUrl: testApp.database.url,
    });
    expect((await selfCanary()).every((canary) => canary.deleted)).toBe(true);
  });
});

/** A port nothing listens on any more, like the one of a replica that was killed. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: closed } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return closed;
}

/**
 * Issue 20 item 7: replicas share one lookout-self canary, and the last one to start writes its
 * address into it. When that replica dies, the others must keep it healthy: each runs its
 * checks against itself.
 */
describe('the lookout-self canary with several replicas', () => {
  let scheduler: CheckScheduler | undefined;
  afterAll(() => scheduler?.stop());

  it('stays healthy after the replica that wrote it is gone, run by a replica against itself', async () => {
    const { pool } = testApp.database;
    const repository = createHealthRepository(pool);
    // The replica that started last wrote its address, then was killed.
    const gone = await deadPort();
    await ensureSelfCanary({
      pool,
      logger,
      enabled: true,
      host: '127.0.0.1',
      port: gone,
      databaseUrl: testApp.database.url,
    });
    // A canary someone wrote with the same names keeps the targets it names.
    const service = createHealthService({
      repository,
      runCheck,
      resolveSecret: secretsUnavailable,
      settings: { checkTimeoutMs: 5_000 },
      logger,
    });
    const copy = await service.apply(
      { kind: 'system' },
      {
        source: 'UI',
        document: {
          apiVersion: 'canaries.flanksource.com/v1',
          kind: 'Canary',
          metadata: { name: SELF_CANARY_NAME, namespace: 'team' },
          spec: { interval: 60, http: [{ name: 'lookout-api-health', url: `http://127.0.0.1:${gone}/api/health` }] },
        },
      },
    );
    const [self] = (await selfCanary()).filter((canary) => !canary.deleted && canary.source === 'System');
    expect((self!.spec as { http: { url: string }[] }).http[0]!.url).toBe(`http://127.0.0.1:${gone}/api/health`);
    const selfChecks = (
      await pool.query<{ id: string; type: string }>(
        'SELECT id, type FROM checks WHERE canary_id = $1 AND deleted_at IS NULL',
        [self!.id],
      )
    ).rows;
    const copyCheck = copy.checks[0]!.id;

    // The surviving replica: this app, listening on `port`, with its scheduler.
    const here = selfCanaryTargets({ host: '0.0.0.0', port, databaseUrl: testApp.database.url });
    expect(here?.healthUrl).toBe(`http://127.0.0.1:${port}/api/health`);
    await pool.query('UPDATE checks SET next_runtime = now() WHERE id = ANY ($1::uuid[])', [
      [...selfChecks.map((check) => check.id), copyCheck],
    ]);
    scheduler = createCheckScheduler({
      repository,
      runCheck,
      resolveSecret: secretsUnavailable,
      logger,
      settings: { concurrency: 4, checkTimeoutMs: 5_000, pollIntervalMs: 200, stopGraceMs: 200 },
      workerId: 'surviving-replica',
      ...(here ? { self: here } : {}),
    });
    scheduler.start();
    const statusOf = async (checkId: string) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const { rows } = await pool.query<{ status: boolean; message: string }>(
          'SELECT status, message FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 1',
          [checkId],
        );
        if (rows[0]) return rows[0];
        if (Date.now() > deadline) throw new Error(`check ${checkId} did not run`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    for (const check of selfChecks) {
      const status = await statusOf(check.id);
      expect(status, `${check.type}: ${status.message}`).toMatchObject({ status: true });
    }
    expect((await statusOf(copyCheck)).status).toBe(false);
    await scheduler.stop();
    scheduler = undefined;

    // Run Now answers the same way on the replica that serves it; without its own address
    // (the spec's, as before) it would call the dead replica.
    const apiCheck = selfChecks.find((check) => check.type === 'http')!.id;
    const serving = createHealthService({
      repository,
      runCheck,
      resolveSecret: secretsUnavailable,
      settings: { checkTimeoutMs: 5_000, ...(here ? { self: here } : {}) },
      logger,
    });
    expect((await serving.runNow(['admin'], apiCheck)).result.status).toBe(true);
    expect((await service.runNow(['admin'], apiCheck)).result.status).toBe(false);
    expect((await serving.runNow(['admin'], copyCheck)).result.status).toBe(false);
  });
});
