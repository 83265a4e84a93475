import { parseTopologySpec, type TopologyDocument } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatingSandboxCases } from '../../../test/sandbox-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createJobs } from '../../jobs/jobs.js';
import { sandboxWithPlan, type Sandbox } from '../../sandbox/sandbox.js';
import { ensureSelfTopology, SELF_TOPOLOGY_SPEC } from './self-topology.js';
import { topologyApplier } from './topology-cli.js';
import { topologySpecProblems } from './topology-data-api-guard.js';
import { fetchTopology } from './topology-query.js';
import { createTopologyRepository } from './topology-repository.js';
import { lockRollups, rollupUpwards } from './topology-rollup.js';
import { createTopologyRunner } from './topology-runner.js';

/*
 * Topology runs against a real PostgreSQL: the first-start `lookout` topology, `lookout apply`,
 * sql and exec lookups, component selectors across topologies, health and status expressions.
 */

let database: TestDatabase;
let sandbox: Sandbox;
const silent = pino({ level: 'silent' });

const query = <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
  database.pool.query<T>(sql, values).then((result) => result.rows);

const runner = () =>
  createTopologyRunner({
    pool: database.pool,
    logger: silent,
    jobs: createJobs({ pool: database.pool, logger: silent, hostname: 'test' }),
    repository: createTopologyRepository(database.pool),
    lookups: { sandbox },
    planIntervalMs: 3_600_000,
  });

const apply = (document: unknown) =>
  topologyApplier({ pool: database.pool, logger: silent }).apply(document, 'ConfigFile');
const doc = (name: string, spec: TopologyDocument['spec']) => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Topology',
  metadata: { name },
  spec,
});

async function runByName(name: string) {
  const [row] = await query<{ id: string }>('SELECT id FROM topologies WHERE name = $1 AND deleted_at IS NULL', [name]);
  const result = await runner().runNow(row!.id);
  expect(result).toMatchObject({ ran: true });
  const [job] = await query<{ status: string; details: { errors?: string[] } }>(
    `SELECT status, details FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1`,
    [row!.id],
  );
  return job!;
}

const component = async (name: string) =>
  (
    await query<{ id: string; health: string; status: string; properties: { name: string; value?: number }[] }>(
      'SELECT id, health, status, properties FROM components WHERE name = $1 AND deleted_at IS NULL',
      [name],
    )
  )[0]!;

beforeAll(async () => {
  database = await createTestDatabase();
  // A real sandbox: an isolating one where this machine has one, else the opted-in plain run.
  const cases = await isolatingSandboxCases([]);
  sandbox =
    cases.find((entry) => entry.sandbox)?.sandbox ??
    (await sandboxWithPlan({ mode: 'unsandboxed' }, { privatePaths: [] }));
  const [canary] = await query<{ id: string }>(
    `INSERT INTO canaries (name, spec) VALUES ('lookout-self', '{"http":[{"name":"x","url":"http://x"}]}') RETURNING id`,
  );
  for (const [name, status] of [
    ['lookout-api-health', 'healthy'],
    ['lookout-postgres', 'healthy'],
    ['disk', 'unhealthy'],
  ]) {
    await query(`INSERT INTO checks (canary_id, type, name, spec, status) VALUES ($1, 'http', $2, '{}', $3)`, [
      canary!.id,
      name,
      status,
    ]);
  }
  // The item the lookout-self scraper keeps for Lookout's database.
  await query(
    `INSERT INTO config_items (config_class, type, name, labels, config, health)
     VALUES ('Database', 'PostgreSQL::Database', 'lookout', '{"app.kubernetes.io/part-of": "lookout"}',
             '{"size_bytes": "8388608", "connections": 4}', 'healthy')`,
  );
}, 120_000);
afterAll(() => database.drop());

describe('the lookout topology of a fresh install', () => {
  it('is a valid spec, created once, and runs into the server and its database with their checks', async () => {
    expect(parseTopologySpec(SELF_TOPOLOGY_SPEC).ok).toBe(true);
    expect(topologySpecProblems(SELF_TOPOLOGY_SPEC)).toEqual([]);
    expect(await ensureSelfTopology(database.pool)).toBe(true);
    expect(await ensureSelfTopology(database.pool)).toBe(false);
    expect(await runner().runDue()).toBe(1);
    const root = await component('lookout');
    expect(root.health).toBe('healthy');
    const db = await component('Lookout database');
    expect(db.properties).toEqual([
      expect.objectContaining({ name: 'Size', value: 8388608, unit: 'bytes', headline: true }),
      expect.objectContaining({ name: 'Connections', value: 4 }),
    ]);
    const links = await query('SELECT 1 FROM checks_by_component WHERE component_id = $1', [db.id]);
    expect(links).toHaveLength(1);
    const top = await fetchTopology(database.pool, {});
    expect(top.components.map((c) => c.name)).toContain('lookout');
  });
});

describe('lookout apply -f with a Topology', () => {
  it('creates then configures, and refuses a bad document naming the field', async () => {
    const spec = { components: [{ name: 'a' }] };
    expect(await apply(doc('applied', spec))).toBe('topology default/applied created (components: 1)');
    expect(await apply(doc('applied', spec))).toBe('topology default/applied configured (components: 1)');
    const [row] = await query<{ source: string }>(`SELECT source::text FROM topologies WHERE name = 'applied'`);
    expect(row!.source).toBe('ConfigFile');
    await expect(apply(doc('applied', { components: [{ name: 'a', typo: 1 }] } as never))).rejects.toThrow(
      'invalid Topology: spec.components[0].typo: unknown field',
    );
    await expect(apply(doc('applied', { healthExpr: '((' }))).rejects.toThrow(
      'spec.healthExpr: is not a valid CEL expression',
    );
  });
});

describe('lookups, selectors and expressions', () => {
  it('builds components from a postgres and an exec lookup', async () => {
    await apply(
      doc('lookups', {
        components: [
          {
            name: 'Tables',
            lookup: {
              postgres: [
                {
                  connection: database.url,
                  query: "SELECT 'pg-a' AS name, 'Table' AS type UNION ALL SELECT 'pg-b', 'Table' ORDER BY 1",
                },
              ],
            },
          },
          { name: 'Scripts', lookup: { exec: [{ script: `echo '[{"name": "exec-1", "health": "unhealthy"}]'` }] } },
        ],
      }),
    );
    const job = await runByName('lookups');
    expect(job.status, JSON.stringify(job.details)).toBe('SUCCESS');
    expect((await component('pg-b')).health).toBe('unknown');
    expect((await component('exec-1')).health).toBe('unhealthy');
    expect((await component('Scripts')).health).toBe('unhealthy');
  });

  it('records a failing lookup in the run and keeps the rest', async () => {
    await apply(
      doc('failing', {
        components: [
          {
            name: 'Down',
            lookup: { postgres: [{ connection: 'postgres://nobody@127.0.0.1:1/none', query: 'SELECT 1' }] },
          },
          { name: 'Up' },
        ],
      }),
    );
    const job = await runByName('failing');
    expect(job.status).toBe('WARNING');
    expect(job.details.errors?.[0]).toMatch(/^spec\.components\[0\]\.lookup: postgres: /);
    expect(await component('Up')).toBeDefined();
  });

  it('adopts components of another topology by selector, and rolls their health up', async () => {
    await apply(
      doc('infra', {
        components: [
          { name: 'disk-a', type: 'Disk', labels: { tier: 'storage' }, checks: [{ selector: { name: 'disk' } }] },
        ],
      }),
    );
    await runByName('infra');
    await apply(doc('apps', { components: [{ name: 'Storage', selectors: [{ labelSelector: 'tier=storage' }] }] }));
    await runByName('apps');
    const storage = await component('Storage');
    expect(storage.health).toBe('unhealthy');
    const view = await fetchTopology(database.pool, { id: storage.id });
    expect(view.components[0]!.components!.map((c) => c.name)).toEqual(['disk-a']);
    // The disk recovers: the check's components and everyone above them follow.
    const [disk] = await query<{ id: string }>(`SELECT id FROM checks WHERE name = 'disk'`);
    await query(`UPDATE checks SET status = 'healthy' WHERE id = $1`, [disk!.id]);
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await lockRollups(client);
      const [diskComponent] = await query<{ id: string }>(`SELECT id FROM components WHERE name = 'disk-a'`);
      const outcome = await rollupUpwards(client, [diskComponent!.id]);
      await client.query('COMMIT');
      expect(outcome.healthChanged.length).toBeGreaterThanOrEqual(2);
    } finally {
      client.release();
    }
    expect((await component('Storage')).health).toBe('healthy');
  });

  it('lets healthExpr and statusExpr override the roll-up', async () => {
    await apply(
      doc('exprs', {
        components: [
          {
            name: 'Tolerant',
            checks: [{ selector: { name: 'lookout-*' } }],
            healthExpr: "has(summary.checks) && has(summary.checks.unhealthy) ? 'warning' : 'healthy'",
            statusExpr: "self.health == 'healthy' ? 'All good' : 'Degraded'",
          },
        ],
      }),
    );
    await runByName('exprs');
    expect(await component('Tolerant')).toMatchObject({ health: 'healthy', status: 'All good' });
    await query(`UPDATE checks SET status = 'unhealthy' WHERE name = 'lookout-postgres'`);
    const tolerant = await component('Tolerant');
    const client = await database.pool.connect();
    try {
      await rollupUpwards(client, [tolerant.id]);
    } finally {
      client.release();
    }
    expect(await component('Tolerant')).toMatchObject({ health: 'warning', status: 'Degraded' });
  });

  it('counts open incidents with evidence on a component in its summary and its ancestors', async () => {
    const tolerant = await component('Tolerant');
    const [incident] = await query<{ id: string }>(
      `INSERT INTO incidents (title, type, severity) VALUES ('Orders slow', 'performance', 'high') RETURNING id`,
    );
    const [hypothesis] = await query<{ id: string }>(`SELECT id FROM hypotheses WHERE incident_id = $1 LIMIT 1`, [
      incident!.id,
    ]);
    await query(`INSERT INTO evidences (hypothesis_id, type, component_id) VALUES ($1, 'topology', $2)`, [
      hypothesis!.id,
      tolerant.id,
    ]);
    const client = await database.pool.connect();
    try {
      await rollupUpwards(client, [tolerant.id]);
    } finally {
      client.release();
    }
    const summaryOf = async (name: string) =>
      (
        await query<{ summary: { incidents?: unknown } }>(
          'SELECT summary FROM components WHERE name = $1 AND deleted_at IS NULL',
          [name],
        )
      )[0]!.summary.incidents;
    expect(await summaryOf('Tolerant')).toEqual({ performance: { high: 1 } });
    expect(await summaryOf('exprs')).toEqual({ performance: { high: 1 } });
    await query(`UPDATE incidents SET status = 'resolved' WHERE id = $1`, [incident!.id]);
    const again = await database.pool.connect();
    try {
      await rollupUpwards(again, [tolerant.id]);
    } finally {
      again.release();
    }
    expect(await summaryOf('Tolerant')).toBeUndefined();
  });
});
