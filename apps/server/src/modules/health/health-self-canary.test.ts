import type { AddressInfo } from 'node:net';
import { SELF_CANARY_NAME } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { ensureSelfCanary } from './health-bootstrap.js';
import { checkEntryOf } from './health-run-fns.js';
import { secretsUnavailable } from './health-run-fns.js';
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
