#!/usr/bin/env node
// Benchmark of GET /api/canary/api/summary on a large status history, against a plain
// count over the same table as the baseline.
//
//   npm run bench -- health          (builds first; runs this and scheduler.mjs)
//   node bench/health/summary.mjs    (after npm run build)
//
// It starts a throwaway embedded PostgreSQL (@lookout/embedded-postgres/testing), applies
// Lookout's migrations, creates BENCH_CHECKS http checks (in canaries of 100) and seeds
// BENCH_DAYS days of statuses at one per minute per check with generate_series (2,000 checks
// x 7 days = 20,160,000 rows by default), in time order as the scheduler writes them. The
// hourly and daily roll-ups are then built by the real roll-up jobs, the checks keep running (a
// row per check per minute, written every 10 s as the scheduler would), the last-hour summary is
// refreshed every 30 s as the workers of `lookout serve` do, and the real application serves
// the summary over HTTP on loopback: the default range (from that summary and the raw rows of
// the last minutes after its exact part), an explicit last
// hour (computed live), the last day and the last week. Each range is timed BENCH_ITERATIONS
// times after BENCH_WARMUP runs; the baseline, `SELECT count(*) FROM check_statuses`, runs on
// the same pool in the same process in alternating order. Results go to stdout and
// bench/results/health-summary.json.
//
// Environment: BENCH_CHECKS (2000), BENCH_DAYS (7), BENCH_ITERATIONS (40), BENCH_WARMUP (5).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { median, percentile, positiveIntEnv, round, timed } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/health-summary.json');

const CHECKS = positiveIntEnv('BENCH_CHECKS', 2000);
const DAYS = positiveIntEnv('BENCH_DAYS', 7);
const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 40);
const WARMUP = positiveIntEnv('BENCH_WARMUP', 5);
const PER_CANARY = 100;

const RANGES = [
  {
    name: 'lastHour',
    query: () => '',
    description:
      "default range, the last hour: the dashboard's default view, served from the last-hour summary the workers refresh every 30 s plus the raw rows after its exact part (the late margin, 90 s, and the summary's age), with status and last run from the same statement",
  },
  {
    name: 'lastHourLive',
    query: () => {
      const now = Date.now();
      return `?start=${new Date(now - 3_600_000).toISOString()}&end=${new Date(now).toISOString()}`;
    },
    description: 'an explicit last hour (start/end): computed live from ~120,000 raw rows, exact percentiles',
  },
  {
    name: 'lastDay',
    query: () => '?timeRange=1d',
    description: 'the last 24 hours: hourly buckets and recent raw rows',
  },
  {
    name: 'last7Days',
    query: () => '?timeRange=7d',
    description: 'the last 7 days: daily and hourly buckets, recent raw rows',
  },
];

const stats = (ms) => ({
  medianMs: round(median(ms)),
  p95Ms: round(percentile(ms, 95)),
  maxMs: round(Math.max(...ms)),
});

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { buildApp } = await import(dist('http/app.js'));
  const { createHealthJobs } = await import(dist('modules/health/health-jobs.js'));
  const { createHealthRepository } = await import(dist('modules/health/health-repository.js'));
  const { createJobs } = await import(dist('jobs/jobs.js'));

  const logger = pino({ level: 'warn' });
  // The seed is thrown away: durability off makes it faster. Reads are unaffected.
  const embedded = await startTestPostgres({
    prefix: 'lookout-bench-health-',
    logger,
    extraFlags: ['-c', 'max_wal_size=4GB'],
  });
  const database = createDatabase({ url: embedded.url, logger, max: 10 });
  let app;
  try {
    await runMigrations(database.pool, logger);
    const canaries = Math.ceil(CHECKS / PER_CANARY);
    console.log(
      `health summary bench: ${CHECKS.toLocaleString('en-US')} checks x ${DAYS} days x 1/min = ${(CHECKS * DAYS * 1440).toLocaleString('en-US')} statuses; seeding...`,
    );
    let started = Date.now();
    // The seed's last minute; the minutes after it are written as the checks keep running.
    let writtenThrough = (await database.pool.query("SELECT date_trunc('minute', now()) - interval '1 minute' AS t"))
      .rows[0].t;
    // Canaries through the derivation trigger, as the API writes them.
    await database.pool.query(
      `INSERT INTO canaries (name, spec)
       SELECT 'bench-' || g, jsonb_build_object('interval', 60, 'http',
         (SELECT jsonb_agg(jsonb_build_object('name', 'check-' || i, 'url', 'http://127.0.0.1:9/' || g || '/' || i,
                                              'labels', jsonb_build_object('shard', (i % 4)::text)))
          FROM generate_series(1, least(${PER_CANARY}, ${CHECKS} - (g - 1) * ${PER_CANARY})) i))
       FROM generate_series(1, ${canaries}) g`,
    );
    // One day per statement, in time order like real inserts (the BRIN index relies on it).
    // Foreign-key triggers are skipped for the seed (superuser, session_replication_role).
    const client = await database.pool.connect();
    try {
      await client.query('SET session_replication_role = replica');
      for (let day = DAYS; day >= 1; day--) {
        await client.query(
          `INSERT INTO check_statuses (check_id, time, status, duration, message)
           SELECT c.id, t, random() > 0.02, (5 + random() * random() * 400)::int, 'seeded'
           FROM generate_series(date_trunc('minute', now()) - make_interval(days => $1),
                                date_trunc('minute', now()) - make_interval(days => $1 - 1) - interval '1 minute',
                                interval '1 minute') t
           CROSS JOIN (SELECT id FROM checks WHERE deleted_at IS NULL) c
           ORDER BY t`,
          [day],
        );
        process.stdout.write(
          `  day ${DAYS - day + 1}/${DAYS} seeded (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
        );
      }
      await client.query('SET session_replication_role = DEFAULT');
    } finally {
      client.release();
    }
    await database.pool.query('VACUUM ANALYZE check_statuses');
    // The summary finds time slices through the BRIN index on check_statuses(time). One run of
    // this benchmark once found it matching every page after the seed and VACUUM (a rebuild
    // fixed it; not reproduced since). Check that it prunes, rebuild it if not, and say so.
    const brinPages = async () => {
      const { rows: plan } = await database.pool.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM check_statuses WHERE time >= now() - interval '10 minutes'`,
      );
      const find = (node) =>
        node['Node Type'] === 'Bitmap Heap Scan' ? node : (node.Plans ?? []).map(find).find(Boolean);
      const heap = find(plan[0]['QUERY PLAN'][0].Plan);
      return heap ? (heap['Lossy Heap Blocks'] ?? 0) + (heap['Exact Heap Blocks'] ?? 0) : undefined;
    };
    const tablePages = Number(
      (await database.pool.query("SELECT relpages FROM pg_class WHERE relname = 'check_statuses'")).rows[0].relpages,
    );
    let brinRebuilt = false;
    const scanned = await brinPages();
    if (scanned === undefined || scanned > tablePages / 10) {
      console.warn(
        `health summary bench: the BRIN index on check_statuses(time) matched ${scanned} of ${tablePages} pages for 10 minutes; rebuilding it`,
      );
      await database.pool.query('REINDEX INDEX check_statuses_time_brin');
      brinRebuilt = true;
    }
    const rows = Number((await database.pool.query('SELECT count(*) AS n FROM check_statuses')).rows[0].n);
    const seedSeconds = (Date.now() - started) / 1000;
    console.log(`health summary bench: ${rows.toLocaleString('en-US')} statuses seeded in ${seedSeconds.toFixed(0)} s`);

    // As the scheduler does: every check keeps running once a minute while requests run, so the
    // last minutes (which the default view reads live, after the refreshed hour's exact part)
    // hold their rows. Each tick writes the minutes since the last one.
    const writeRecentRuns = async () => {
      const { rows } = await database.pool.query("SELECT date_trunc('minute', now()) AS through");
      await database.pool.query(
        `INSERT INTO check_statuses (check_id, time, status, duration, message)
         SELECT c.id, t, random() > 0.02, (5 + random() * random() * 400)::int, 'running'
         FROM generate_series($1::timestamptz + interval '1 minute', $2::timestamptz, interval '1 minute') t
         CROSS JOIN (SELECT id FROM checks WHERE deleted_at IS NULL) c
         ORDER BY t
         ON CONFLICT (check_id, time) DO NOTHING`,
        [writtenThrough, rows[0].through],
      );
      writtenThrough = rows[0].through;
    };
    await writeRecentRuns();

    // The roll-ups, built by the jobs `lookout serve` runs (first run: the whole history).
    started = Date.now();
    const jobs = createHealthJobs({
      repository: createHealthRepository(database.pool),
      jobs: createJobs({ pool: database.pool, logger }),
      settings: {
        rollupIntervalMs: 300_000,
        summaryRefreshMs: 30_000,
        retentionDays: { raw: 30, hourly: 90, daily: 270 },
        lateMarginMs: 90_000,
      },
    });
    const hourly = await jobs.rollupHourly();
    const hourlySeconds = (Date.now() - started) / 1000;
    started = Date.now();
    const daily = await jobs.rollupDaily();
    const dailySeconds = (Date.now() - started) / 1000;
    await database.pool.query('ANALYZE check_statuses_1h; ANALYZE check_statuses_1d');
    console.log(
      `health summary bench: roll-ups built (hourly ${hourlySeconds.toFixed(1)} s, ${hourly.outcome?.successCount} buckets; daily ${dailySeconds.toFixed(1)} s, ${daily.outcome?.successCount} buckets)`,
    );
    // A steady-state hourly run (what happens every 5 minutes), after the minutes the roll-ups took.
    await writeRecentRuns();
    started = Date.now();
    await jobs.rollupHourly();
    const steadyHourlySeconds = (Date.now() - started) / 1000;

    app = await buildApp({
      logger,
      database,
      version: 'bench',
      webDir: path.join(embedded.dataDir, 'no-web'),
      // The benchmark measures the summary, not sign-in: every request acts as an admin.
      resolveRoles: async () => ['admin'],
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const writer = setInterval(() => void writeRecentRuns(), 10_000);
    // As `lookout serve` does: the last-hour summary is refreshed every 30 s while requests run.
    await jobs.refreshSummary();
    const refresher = setInterval(() => void jobs.refreshSummary(), 30_000);

    const baseline = async () => (await database.pool.query('SELECT count(*) AS n FROM check_statuses')).rows[0].n;
    const results = {};
    for (const range of RANGES) {
      const summary = async () => {
        const url = `${address}/api/canary/api/summary${range.query()}`;
        const response = await fetch(url, { headers: { accept: 'application/json' } });
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${range.name}: ${response.status} ${body.slice(0, 300)}`);
        return body;
      };
      const sample = JSON.parse(await summary());
      if (sample.checks_summary.length !== CHECKS) {
        throw new Error(`${range.name}: expected ${CHECKS} checks, got ${sample.checks_summary.length}`);
      }
      const first = sample.checks_summary[0];
      for (let i = 0; i < WARMUP; i++) await summary();
      const api = [];
      const base = [];
      let bytes = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        if (i % 2 === 0) {
          const [ms, body] = await timed(summary);
          api.push(ms);
          bytes = body.length;
          base.push((await timed(baseline))[0]);
        } else {
          base.push((await timed(baseline))[0]);
          api.push((await timed(summary))[0]);
        }
      }
      results[range.name] = {
        description: range.description,
        request: `GET /api/canary/api/summary${range.query().replace(/start=[^&]+&end=.+$/, 'start=<now-1h ISO>&end=<now ISO>')}`,
        checks: sample.checks_summary.length,
        responseBytes: bytes,
        example: { uptime: first.uptime, latency: first.latency },
        summary: stats(api),
        baselineCount: stats(base),
        ratioToBaseline: {
          median: round(median(api) / median(base)),
          p95: round(percentile(api, 95) / percentile(base, 95)),
        },
      };
      console.log(
        `  ${range.name.padEnd(10)} summary median ${results[range.name].summary.medianMs.toFixed(1)} ms, p95 ${results[range.name].summary.p95Ms.toFixed(1)} ms | count(*) median ${results[range.name].baselineCount.medianMs.toFixed(1)} ms, p95 ${results[range.name].baselineCount.p95Ms.toFixed(1)} ms | ratio ${results[range.name].ratioToBaseline.median}`,
      );
    }

    clearInterval(refresher);
    clearInterval(writer);
    started = Date.now();
    await jobs.refreshSummary();
    const refreshSeconds = (Date.now() - started) / 1000;
    const output = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      checks: CHECKS,
      days: DAYS,
      statuses: rows,
      iterations: ITERATIONS,
      warmup: WARMUP,
      seedSeconds: round(seedSeconds),
      brinRebuilt,
      rollups: {
        firstHourlySeconds: round(hourlySeconds),
        firstDailySeconds: round(dailySeconds),
        steadyHourlySeconds: round(steadyHourlySeconds),
        lastHourSummaryRefreshSeconds: round(refreshSeconds),
      },
      baseline: 'SELECT count(*) FROM check_statuses on the same pool (all statuses)',
      ranges: results,
    };
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
    console.log(`health summary bench: results in ${path.relative(process.cwd(), resultsFile)}`);
  } finally {
    await app?.close();
    await database.close();
    await embedded.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
