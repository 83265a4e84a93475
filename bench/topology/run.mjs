#!/usr/bin/env node
// Benchmark of the topology (issue 14 item 8; docs/topology.md): BENCH_COMPONENTS components in
// 5 levels (10, 90, 900, 3,000, 6,000 at the default size) with two check links each (20,000
// links over 2,000 checks), then:
//
//   - the top-level fetch, GET /api/canary/api/topology over real HTTP on loopback;
//   - one component with its children, GET /api/canary/api/topology?id=<a top-level component>;
//     each against a baseline measured in the same run, alternating: the bare SQL that lists the
//     same rows (what any implementation must at least read);
//   - the roll-up after one check changes: UPDATE checks.status (a check linked to leaves),
//     then the time until the top-level component above them shows the new health, through the
//     event queue (trigger → check.failed/check.passed → the topology's consumer → roll-up of the
//     linked components and their ancestors), BENCH_ROLLUPS times alternating fail and recover.
//
//   npm run bench -- topology            (builds first)
//   BENCH_COMPONENTS=2000 node bench/topology/run.mjs
//
// It starts a throwaway embedded PostgreSQL, applies Lookout's migrations and runs the app in
// this process (every request acts as an admin: the bench measures the topology, not sign-in).
// Results go to stdout and bench/results/topology.json. Targets (issue 14): top-level fetch
// p95 < 150 ms; roll-up visible within 2 s.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { median, percentile, positiveIntEnv, round, timed } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/topology.json');

const COMPONENTS = positiveIntEnv('BENCH_COMPONENTS', 10_000);
const CHECKS = positiveIntEnv('BENCH_CHECKS', 2_000);
const LINKS_PER_COMPONENT = positiveIntEnv('BENCH_LINKS_PER_COMPONENT', 2);
const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 60);
const WARMUP = positiveIntEnv('BENCH_WARMUP', 10);
const ROLLUPS = positiveIntEnv('BENCH_ROLLUPS', 20);
const TARGETS_MS = { topLevelP95: 150, rollupVisible: 2000 };
// Level sizes as shares of the total: 10, 90, 900, 3,000, 6,000 of 10,000.
const SHARES = [0.001, 0.009, 0.09, 0.3, 0.6];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const statsOf = (ms) => ({
  medianMs: round(median(ms)),
  p95Ms: round(percentile(ms, 95)),
  maxMs: round(Math.max(...ms)),
});

async function seed(pool) {
  const sizes = SHARES.map((share) => Math.max(1, Math.round(COMPONENTS * share)));
  // The components are written straight into the table, so the topology's own spec must not run
  // over them: a yearly schedule and a run recorded now keep the planner away.
  const { rows } = await pool.query(
    `INSERT INTO topologies (name, spec, schedule) VALUES ('bench', '{"schedule": "@yearly"}', '@yearly') RETURNING id`,
  );
  const topologyId = rows[0].id;
  await pool.query(
    `INSERT INTO job_history (name, status, resource_type, resource_id, time_start, time_end)
     VALUES ('TopologyRun', 'SUCCESS', 'topology', $1, now() + interval '1 minute', now() + interval '1 minute')`,
    [topologyId],
  );
  await pool.query(
    `DO $$
     DECLARE sizes int[] := ARRAY[${sizes.join(',')}]; previous uuid[]; current_ids uuid[];
     BEGIN
       FOR lvl IN 1..5 LOOP
         WITH inserted AS (
           INSERT INTO components (topology_id, external_id, name, type, status, health, own_health, parent_id,
                                   summary, properties, is_leaf, labels)
           SELECT '${topologyId}', 'c' || lvl || '-' || g, 'component ' || lvl || '-' || g, 'Level' || lvl, 'healthy',
                  'healthy', 'healthy', CASE WHEN lvl = 1 THEN NULL ELSE previous[1 + (g % array_length(previous, 1))] END,
                  '{}', '[{"name": "cpu", "value": 10, "unit": "millicores", "max": 100, "headline": true}]', lvl = 5,
                  jsonb_build_object('level', lvl::text)
           FROM generate_series(1, sizes[lvl]) g
           RETURNING id)
         SELECT array_agg(id) INTO current_ids FROM inserted;
         previous := current_ids;
       END LOOP;
     END $$`,
  );
  await pool.query(
    `WITH RECURSIVE p(id, path) AS (
       SELECT id, NULL::text FROM components WHERE parent_id IS NULL AND topology_id = $1
       UNION ALL
       SELECT c.id, coalesce(p.path || '.', '') || p.id::text FROM components c JOIN p ON c.parent_id = p.id)
     UPDATE components SET path = p.path FROM p WHERE components.id = p.id`,
    [topologyId],
  );
  const canary = (
    await pool.query(
      `INSERT INTO canaries (name, spec) VALUES ('bench', '{"http":[{"name":"x","url":"http://x"}]}') RETURNING id`,
    )
  ).rows[0].id;
  await pool.query(
    `INSERT INTO checks (canary_id, type, name, spec, status) SELECT $1, 'http', 'check-' || g, '{}', 'healthy' FROM generate_series(1, $2) g`,
    [canary, CHECKS],
  );
  // Links to the seeded checks only (the canary's spec adds one of its own, which never runs here).
  await pool.query(
    `WITH c AS (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM components WHERE topology_id = $1),
          k AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS rn FROM checks WHERE canary_id = $2 AND name LIKE 'check-%')
     INSERT INTO check_component_relationships (component_id, check_id, canary_id, selector_id)
     SELECT c.id, k.id, $2, 'bench' FROM c CROSS JOIN generate_series(0, $3 - 1) n
     JOIN k ON k.rn = ((c.rn * $3 + n) % $4)`,
    [topologyId, canary, LINKS_PER_COMPONENT, CHECKS],
  );
  await pool.query('ANALYZE components; ANALYZE check_component_relationships; ANALYZE checks');
  return { topologyId, sizes };
}

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { createApp } = await import(dist('http/app.js'));
  const { withTransaction } = await import(dist('db/transaction.js'));
  const { lockRollups, rollupTopology } = await import(dist('modules/topology/topology-rollup.js'));

  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-topology-', logger });
  const database = createDatabase({ url: embedded.url, logger, max: 10 });
  let composed;
  try {
    await runMigrations(database.pool, logger);
    let started = Date.now();
    const { topologyId, sizes } = await seed(database.pool);
    const counts = (
      await database.pool.query(
        `SELECT (SELECT count(*) FROM components)::int AS components,
                (SELECT count(*) FROM check_component_relationships)::int AS links`,
      )
    ).rows[0];
    console.log(
      `topology bench: seeded ${JSON.stringify(counts)} in levels ${sizes.join('/')} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    const full = await withTransaction(database.pool, async (tx) => {
      await lockRollups(tx);
      return rollupTopology(tx, topologyId);
    });
    const fullRollupMs = Date.now() - started;
    console.log(`topology bench: full roll-up of ${full.recomputed} components in ${fullRollupMs} ms`);

    composed = await createApp({
      logger,
      database,
      version: 'bench',
      webDir: path.join(embedded.dataDir, 'no-web'),
      resolveRoles: async () => ['admin'],
      // The planner has nothing to run here; keep it quiet.
      topology: { planIntervalMs: 3_600_000 },
    });
    await composed.app.ready();
    composed.start();
    const address = await composed.app.listen({ port: 0, host: '127.0.0.1' });
    const get = async (url) => {
      const response = await fetch(`${address}${url}`, { headers: { accept: 'application/json' } });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body.slice(0, 300)}`);
      return body;
    };
    const top = (
      await database.pool.query(
        `SELECT id FROM components WHERE parent_id IS NULL AND topology_id = $1 ORDER BY name LIMIT 1`,
        [topologyId],
      )
    ).rows[0].id;
    const columns =
      'id, name, text, icon, type, status, status_reason, health, labels, properties, summary, agent_id, topology_id, parent_id, external_id, path, is_leaf, hidden, created_at, updated_at';
    const calls = [
      {
        name: 'topLevel',
        url: '/api/canary/api/topology',
        baseline: () =>
          database.pool.query(`SELECT ${columns} FROM components WHERE parent_id IS NULL AND deleted_at IS NULL`),
      },
      {
        name: 'componentWithChildren',
        url: `/api/canary/api/topology?id=${top}`,
        baseline: () =>
          database.pool.query(
            `SELECT ${columns} FROM components WHERE (id = $1 OR parent_id = $1) AND deleted_at IS NULL`,
            [top],
          ),
      },
    ];
    const results = {};
    for (const call of calls) {
      const sample = JSON.parse(await get(call.url));
      const listed =
        call.name === 'topLevel' ? sample.components.length : (sample.components[0]?.components?.length ?? 0);
      for (let i = 0; i < WARMUP; i++) {
        await get(call.url);
        await call.baseline();
      }
      const api = [];
      const base = [];
      for (let i = 0; i < ITERATIONS; i++) {
        // Alternating order, so neither side always runs right after the other.
        if (i % 2 === 0) {
          api.push((await timed(() => get(call.url)))[0]);
          base.push((await timed(call.baseline))[0]);
        } else {
          base.push((await timed(call.baseline))[0]);
          api.push((await timed(() => get(call.url)))[0]);
        }
      }
      results[call.name] = {
        listed,
        api: statsOf(api),
        baseline: statsOf(base),
        medianRatio: round(median(api) / median(base)),
      };
      console.log(
        `  ${call.name}: ${listed} components, median ${results[call.name].api.medianMs} ms, p95 ${results[call.name].api.p95Ms} ms ` +
          `(baseline SQL median ${results[call.name].baseline.medianMs} ms, p95 ${results[call.name].baseline.p95Ms} ms)`,
      );
    }

    // Roll-up latency: a check linked to a leaf, watched at the leaf's top-level ancestor.
    const { rows: picked } = await database.pool.query(
      `SELECT r.check_id, split_part(c.path, '.', 1)::uuid AS root
       FROM check_component_relationships r JOIN components c ON c.id = r.component_id
       WHERE c.is_leaf AND c.topology_id = $1 ORDER BY c.name LIMIT 1`,
      [topologyId],
    );
    const { check_id: checkId, root: rootId } = picked[0];
    const healthOf = async (id) =>
      (await database.pool.query('SELECT health FROM components WHERE id = $1', [id])).rows[0].health;
    const latencies = [];
    for (let i = 0; i < ROLLUPS; i++) {
      const status = i % 2 === 0 ? 'unhealthy' : 'healthy';
      const begin = performance.now();
      await database.pool.query('UPDATE checks SET status = $2 WHERE id = $1', [checkId, status]);
      for (;;) {
        if ((await healthOf(rootId)) === status) break;
        if (performance.now() - begin > 30_000) {
          const queue = (
            await database.pool.query('SELECT name, attempts, error FROM event_queue ORDER BY created_at DESC LIMIT 5')
          ).rows;
          throw new Error(`the roll-up did not reach ${status} within 30 s; queue: ${JSON.stringify(queue)}`);
        }
        await sleep(2);
      }
      latencies.push(performance.now() - begin);
      await sleep(50);
    }
    const linkedToCheck = (
      await database.pool.query('SELECT count(*)::int AS n FROM check_component_relationships WHERE check_id = $1', [
        checkId,
      ])
    ).rows[0].n;
    results.rollup = { linkedComponents: linkedToCheck, visible: statsOf(latencies) };
    console.log(
      `  roll-up after one check change (${linkedToCheck} linked components and their ancestors): median ${results.rollup.visible.medianMs} ms, ` +
        `p95 ${results.rollup.visible.p95Ms} ms, max ${results.rollup.visible.maxMs} ms`,
    );

    const verdict = {
      topLevelP95: results.topLevel.api.p95Ms < TARGETS_MS.topLevelP95,
      rollupVisible: results.rollup.visible.maxMs < TARGETS_MS.rollupVisible,
    };
    console.log(
      `  targets: top-level p95 < ${TARGETS_MS.topLevelP95} ms ${verdict.topLevelP95 ? 'met' : 'MISSED'}; roll-up < ${TARGETS_MS.rollupVisible} ms ${verdict.rollupVisible ? 'met' : 'MISSED'}`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(
      resultsFile,
      `${JSON.stringify(
        {
          when: new Date().toISOString(),
          machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((n) => round(n)) },
          settings: {
            components: counts.components,
            links: counts.links,
            levels: sizes,
            checks: CHECKS,
            iterations: ITERATIONS,
          },
          fullRollupMs,
          results,
          targetsMs: TARGETS_MS,
          verdict,
        },
        null,
        2,
      )}\n`,
    );
    if (!verdict.topLevelP95 || !verdict.rollupVisible) process.exitCode = 1;
  } finally {
    await composed?.app.close();
    await database.close();
    await embedded.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
