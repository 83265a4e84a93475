#!/usr/bin/env node
// Benchmark of the incidents pages (issue 17 item 7; docs/incidents.md): BENCH_INCIDENTS
// incidents (10,000) with BENCH_PER_INCIDENT hypotheses and as many evidences each (100,000 of
// each), two responders on every other incident, written through the real triggers (root
// hypothesis, changelog). Then, over real HTTP on loopback, the calls the console makes
// (ui-calls 3.6), each against a baseline measured in the same run, alternating:
//
//   - list:        GET /api/db/incident_summary with the page's filters (status, severity,
//                  order created_at.desc, 50 rows, Prefer count=exact); baseline: the bare SQL
//                  that reads the same page of incidents;
//   - list search: the same with title=ilike.*<word>*;
//   - list by component: component_ids=cs.{<id>} (the column the evidence trigger keeps), and
//                  the original's embedded filter hypotheses.evidences.component_id=eq.<id>
//                  (reported; it walks every incident's tree);
//   - detail:      GET /api/db/incidents?id=eq.<id> with the page's embeds (hypotheses,
//                  evidences, comments, people, responders); baseline: the bare SQL reading the
//                  incident, its hypotheses and their evidences;
//   - changelog:   GET /api/db/incident_histories of one incident with the page's embeds.
//
//   npm run bench -- incidents            (builds first)
//   BENCH_INCIDENTS=1000 node bench/incidents/run.mjs
//
// Results go to stdout and bench/results/incidents.json. Target (issue 17): list and detail
// p95 < 100 ms.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { median, percentile, positiveIntEnv, round, timed } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/incidents.json');

const INCIDENTS = positiveIntEnv('BENCH_INCIDENTS', 10_000);
const PER_INCIDENT = positiveIntEnv('BENCH_PER_INCIDENT', 10);
const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 60);
const WARMUP = positiveIntEnv('BENCH_WARMUP', 10);
const TARGET_P95_MS = 100;

const statsOf = (ms) => ({
  medianMs: round(median(ms)),
  p95Ms: round(percentile(ms, 95)),
  maxMs: round(Math.max(...ms)),
});

async function seed(pool) {
  const person = (
    await pool.query(
      `INSERT INTO people (name, email, avatar) VALUES ('Bench Commander', 'bench@example.com', 'a.png') RETURNING id`,
    )
  ).rows[0].id;
  const responder = (
    await pool.query(`INSERT INTO people (name, email) VALUES ('Bench Responder', 'oncall@example.com') RETURNING id`)
  ).rows[0].id;
  const component = (
    await pool.query(
      `INSERT INTO components (name, type, status, external_id) VALUES ('bench-db', 'database', 'unhealthy', 'bench-db') RETURNING id`,
    )
  ).rows[0].id;
  // Incidents in batches: the insert trigger makes each one's root hypothesis and changelog row.
  const batch = 1000;
  for (let start = 0; start < INCIDENTS; start += batch) {
    await pool.query(
      `INSERT INTO incidents (title, description, severity, status, type, created_by, commander_id, created_at)
       SELECT 'incident ' || g || ' ' || (ARRAY['disk','latency','errors','memory','dns'])[1 + g % 5],
              'seeded', (ARRAY['low','medium','high','blocker','critical'])[1 + g % 5],
              (ARRAY['open','investigating','mitigated','resolved','closed'])[1 + (g / 5) % 5],
              (ARRAY['availability','cost','performance','security'])[1 + g % 4], $3, $3,
              now() - (g || ' minutes')::interval
       FROM generate_series($1::int, $2::int) g`,
      [start + 1, Math.min(INCIDENTS, start + batch), person],
    );
  }
  // The other hypotheses: factors under each root (root + factors = PER_INCIDENT per incident).
  await pool.query(
    `INSERT INTO hypotheses (incident_id, parent_id, type, title, status, created_by)
     SELECT h.incident_id, h.id, 'factor', 'factor ' || n, 'likely', $2
     FROM hypotheses h CROSS JOIN generate_series(1, $1::int - 1) n WHERE h.type = 'root'`,
    [PER_INCIDENT, person],
  );
  // PER_INCIDENT evidences per incident, one per hypothesis; every 50th incident's first one is
  // the component (the list's component filter finds those).
  await pool.query(
    `INSERT INTO evidences (hypothesis_id, type, description, evidence, component_id, definition_of_done, created_by)
     SELECT h.id, CASE WHEN h.type = 'root' AND i.n % 50 = 0 THEN 'topology' ELSE 'log' END, 'evidence of ' || h.title,
            '{"lines": ["a", "b", "c"]}', CASE WHEN h.type = 'root' AND i.n % 50 = 0 THEN $2::uuid END,
            h.type = 'root', $1
     FROM hypotheses h JOIN (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM incidents) i ON i.id = h.incident_id`,
    [person, component],
  );
  await pool.query(
    `INSERT INTO responders (incident_id, type, person_id, properties, created_by)
     SELECT i.id, 'person', $1, '{"responderType": "person"}', $2
     FROM incidents i CROSS JOIN generate_series(1, 2) WHERE i.severity IN ('high', 'critical')`,
    [responder, person],
  );
  // The queue rows the responder trigger wrote are not what this bench measures.
  await pool.query(`DELETE FROM event_queue`);
  await pool.query('ANALYZE');
  return { component };
}

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { createApp } = await import(dist('http/app.js'));

  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-incidents-', logger });
  const database = createDatabase({ url: embedded.url, logger, max: 10 });
  let composed;
  try {
    await runMigrations(database.pool, logger);
    const started = Date.now();
    const { component } = await seed(database.pool);
    const counts = (
      await database.pool.query(
        `SELECT (SELECT count(*) FROM incidents)::int AS incidents, (SELECT count(*) FROM hypotheses)::int AS hypotheses,
                (SELECT count(*) FROM evidences)::int AS evidences, (SELECT count(*) FROM responders)::int AS responders,
                (SELECT count(*) FROM incident_histories)::int AS histories`,
      )
    ).rows[0];
    console.log(`incidents bench: seeded ${JSON.stringify(counts)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    composed = await createApp({
      logger,
      database,
      version: 'bench',
      webDir: path.join(embedded.dataDir, 'no-web'),
      resolveRoles: async () => ['admin'],
      incidents: { workers: false },
    });
    await composed.app.ready();
    const address = await composed.app.listen({ port: 0, host: '127.0.0.1' });
    const get = async (url, headers = {}) => {
      const response = await fetch(`${address}${url}`, { headers: { accept: 'application/json', ...headers } });
      const body = await response.text();
      if (response.status !== 200 && response.status !== 206)
        throw new Error(`${url}: ${response.status} ${body.slice(0, 300)}`);
      return body;
    };
    const target = (
      await database.pool.query(
        `SELECT i.id FROM incidents i JOIN hypotheses h ON h.incident_id = i.id JOIN evidences e ON e.hypothesis_id = h.id
         WHERE e.component_id IS NOT NULL ORDER BY i.created_at DESC LIMIT 1`,
      )
    ).rows[0].id;
    const avatar = 'id,name,avatar';
    const listSelect = 'id,incident_id,title,type,severity,status,created_at,responders';
    const listBase = (where) =>
      database.pool.query(
        `SELECT id, incident_id, title, type, severity, status, created_at FROM incidents WHERE ${where}
         ORDER BY created_at DESC LIMIT 50`,
      );
    const calls = [
      {
        name: 'list',
        url: `/api/db/incident_summary?select=${listSelect}&status=eq.open&severity=eq.high&order=created_at.desc&limit=50&offset=0`,
        headers: { prefer: 'count=exact' },
        baseline: () => listBase(`status = 'open' AND severity = 'high'`),
      },
      {
        name: 'listSearch',
        url: `/api/db/incident_summary?select=${listSelect}&title=ilike.*latency*&status=eq.open&order=created_at.desc&limit=50&offset=0`,
        headers: { prefer: 'count=exact' },
        baseline: () => listBase(`title ILIKE '%latency%' AND status = 'open'`),
      },
      {
        name: 'listByComponent',
        url: `/api/db/incident_summary?select=${listSelect}&component_ids=cs.{${component}}&order=created_at.desc&limit=50&offset=0`,
        headers: {},
        baseline: () => listBase(`component_ids @> ARRAY['${component}'::uuid]`),
      },
      {
        name: 'listByComponentEmbed',
        url: `/api/db/incident_summary?select=${listSelect},hypotheses!inner(id,evidences!inner(component_id))&hypotheses.evidences.component_id=eq.${component}&order=created_at.desc&limit=50&offset=0`,
        headers: {},
        baseline: () =>
          database.pool.query(
            `SELECT DISTINCT i.id, i.created_at FROM incidents i JOIN hypotheses h ON h.incident_id = i.id
             JOIN evidences e ON e.hypothesis_id = h.id WHERE e.component_id = $1 ORDER BY i.created_at DESC LIMIT 50`,
            [component],
          ),
      },
      {
        name: 'detail',
        url: `/api/db/incidents?id=eq.${target}&select=*,hypotheses(*,created_by(${avatar}),evidences(*,created_by(${avatar})),comments(created_at,comment,external_created_by,responder_id(team_id(*)),created_by(${avatar}),id)),commander:commander_id(${avatar}),communicator_id(${avatar}),responders(created_by(${avatar}))`,
        headers: {},
        baseline: async () => {
          await database.pool.query(`SELECT * FROM incidents WHERE id = $1`, [target]);
          await database.pool.query(
            `SELECT h.*, e.* FROM hypotheses h LEFT JOIN evidences e ON e.hypothesis_id = h.id WHERE h.incident_id = $1`,
            [target],
          );
        },
      },
      {
        name: 'changelog',
        url: `/api/db/incident_histories?incident_id=eq.${target}&select=*,evidence:evidences(id,description,type,components(id,name,icon),configs(id,name),config_changes(id,change_type),config_analysis(id,analyzer,message,analysis),checks(id,icon,name)),hypothesis:hypotheses(id,title),responder:responders(id,person:person_id(${avatar}),team:team_id(id,name,icon)),comment:comments(id,comment),created_by(${avatar}))&order=created_at.desc`,
        headers: {},
        baseline: () =>
          database.pool.query(`SELECT * FROM incident_histories WHERE incident_id = $1 ORDER BY created_at DESC`, [
            target,
          ]),
      },
    ];
    const results = {};
    for (const call of calls) {
      const rows = JSON.parse(await get(call.url, call.headers)).length;
      for (let i = 0; i < WARMUP; i++) {
        await get(call.url, call.headers);
        await call.baseline();
      }
      const api = [];
      const base = [];
      for (let i = 0; i < ITERATIONS; i++) {
        // Alternating order, so neither side always runs right after the other.
        if (i % 2 === 0) {
          api.push((await timed(() => get(call.url, call.headers)))[0]);
          base.push((await timed(call.baseline))[0]);
        } else {
          base.push((await timed(call.baseline))[0]);
          api.push((await timed(() => get(call.url, call.headers)))[0]);
        }
      }
      results[call.name] = {
        rows,
        api: statsOf(api),
        baseline: statsOf(base),
        medianRatio: round(median(api) / median(base)),
      };
      console.log(
        `  ${call.name}: ${rows} rows, median ${results[call.name].api.medianMs} ms, p95 ${results[call.name].api.p95Ms} ms ` +
          `(baseline SQL median ${results[call.name].baseline.medianMs} ms, p95 ${results[call.name].baseline.p95Ms} ms)`,
      );
    }
    const verdict = Object.fromEntries(
      Object.entries(results)
        .filter(([name]) => name !== 'listByComponentEmbed')
        .map(([name, r]) => [name, r.api.p95Ms < TARGET_P95_MS]),
    );
    console.log(
      `  target p95 < ${TARGET_P95_MS} ms: ${Object.entries(verdict)
        .map(([name, met]) => `${name} ${met ? 'met' : 'MISSED'}`)
        .join(', ')}`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(
      resultsFile,
      `${JSON.stringify(
        {
          when: new Date().toISOString(),
          machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((n) => round(n)) },
          settings: { ...counts, iterations: ITERATIONS },
          results,
          targetP95Ms: TARGET_P95_MS,
          verdict,
        },
        null,
        2,
      )}\n`,
    );
    if (!verdict.list || !verdict.listSearch || !verdict.listByComponent || !verdict.detail) process.exitCode = 1;
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
