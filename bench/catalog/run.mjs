#!/usr/bin/env node
// Benchmark of the catalog's list pages (issue 13): at BENCH_ITEMS config items and
// BENCH_CHANGES changes, the calls the console makes for the table page, the summary view and
// the changes page, timed through the real application over loopback HTTP, each against a plain
// `SELECT count(*)` of its table measured alternately in the same run as the baseline.
//
//   npm run bench -- catalog            (builds first; runs this and scrape.mjs)
//   node bench/catalog/run.mjs          (after npm run build)
//
// A throwaway embedded PostgreSQL gets Lookout's migrations and the seed of seed.mjs (changes
// spread over the last BENCH_CHANGE_DAYS days); the per-item roll-ups are then built by the
// catalog summary job's own function, as `lookout serve` does every 5 minutes. Each call is
// timed BENCH_ITERATIONS times after BENCH_WARMUP runs. Results: stdout and
// bench/results/catalog.json.
//
// Environment: BENCH_ITEMS (100000), BENCH_CHANGES (1000000), BENCH_CHANGE_DAYS (30),
// BENCH_ITERATIONS (40), BENCH_WARMUP (5).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { median, percentile, positiveIntEnv, round, timed } from '../lib/stats.mjs';
import { seedCatalog } from './seed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/catalog.json');

const ITEMS = positiveIntEnv('BENCH_ITEMS', 100_000);
const CHANGES = positiveIntEnv('BENCH_CHANGES', 1_000_000);
const CHANGE_DAYS = positiveIntEnv('BENCH_CHANGE_DAYS', 30);
const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 40);
const WARMUP = positiveIntEnv('BENCH_WARMUP', 5);
const TARGETS_MS = { table: 100, summary: 300, changes: 100 };

// The console's select of the item table (apps/web/src/features/catalog/lib/catalog-params.ts):
// the shown columns only, no agent embed, so deep pages cost no embed per skipped row.
const CONFIGS_SELECT =
  'id,name,type,status,health,tags,created_at,updated_at,deleted_at,cost_total_1d,cost_total_30d,changes,analysis';
const configsUrl = (type, extra) =>
  `/api/db/configs?${new URLSearchParams([
    ['select', CONFIGS_SELECT],
    ['type', `eq.${type}`],
    ['order', 'type.asc,name.asc,id.asc'],
    ['deleted_at', 'is.null'],
    ...extra,
  ])}`;
const SUMMARY_BODY = {
  groupBy: [],
  deleted: false,
  filter: {},
  changes: { since: '30d' },
  analysis: { since: '30d' },
  cost: '30d',
};
const CHANGES_BODY = {
  from: 'now-7d',
  to: 'now',
  page: 1,
  page_size: 200,
  sort_by: '-created_at',
  recursive: 'none',
  include_deleted_configs: false,
};

/** Each call: the page it belongs to, its request, and the baseline table. */
const CALLS = [
  {
    name: 'tableFirstPage',
    page: 'table',
    description: 'the item table of the largest type (Kubernetes::Pod), sorted by type then name, first page of 200',
    get: configsUrl('Kubernetes::Pod', [['limit', '200']]),
    baseline: 'config_items',
  },
  {
    name: 'tableDeepPage',
    page: 'table',
    description: 'the same table scrolled to rows 15,001-15,200 (offset 15000)',
    get: configsUrl('Kubernetes::Pod', [
      ['limit', '200'],
      ['offset', '15000'],
    ]),
    baseline: 'config_items',
  },
  {
    name: 'tableWholeType',
    page: 'table',
    description: 'every live item of a mid-size type (Kubernetes::Deployment, ~6 % of the items) in one answer',
    get: configsUrl('Kubernetes::Deployment', []),
    baseline: 'config_items',
  },
  {
    name: 'configTypes',
    page: 'table',
    description: 'the type filter options (config_types)',
    get: '/api/db/config_types',
    baseline: 'config_items',
  },
  {
    name: 'configStatuses',
    page: 'table',
    description: 'the status filter options (config_statuses)',
    get: '/api/db/config_statuses',
    baseline: 'config_items',
  },
  {
    name: 'configLabels',
    page: 'table',
    description: 'the label filter options (config_labels)',
    get: '/api/db/config_labels',
    baseline: 'config_items',
  },
  {
    name: 'configTags',
    page: 'table',
    description: 'the tag and group-by options (config_tags)',
    get: '/api/db/config_tags',
    baseline: 'config_items',
  },
  {
    name: 'summary',
    page: 'summary',
    description: "the summary view: POST /api/catalog/summary with the console's default body (live items, 30 days)",
    post: ['/api/catalog/summary', SUMMARY_BODY],
    baseline: 'config_items',
  },
  {
    name: 'summaryByTeam',
    page: 'summary',
    description: 'the summary view grouped by the tag team',
    post: ['/api/catalog/summary', { ...SUMMARY_BODY, groupBy: ['team'] }],
    baseline: 'config_items',
  },
  {
    name: 'configSummaryView',
    page: 'summary',
    description: "the original's view through the data API: GET /api/db/config_summary",
    get: '/api/db/config_summary',
    baseline: 'config_items',
  },
  {
    name: 'changesFirstPage',
    page: 'changes',
    description:
      'the changes page: POST /api/catalog/changes, last 7 days, page 1 of 200, newest first, with total and counts by type',
    post: ['/api/catalog/changes', CHANGES_BODY],
    baseline: 'config_changes',
  },
  {
    name: 'changesPage10',
    page: 'changes',
    description: 'the same, page 10',
    post: ['/api/catalog/changes', { ...CHANGES_BODY, page: 10 }],
    baseline: 'config_changes',
  },
  {
    name: 'changesOfType',
    page: 'changes',
    description: 'the same filtered to Kubernetes::Pod items and change type BackOff',
    post: ['/api/catalog/changes', { ...CHANGES_BODY, config_type: 'Kubernetes::Pod', type: 'BackOff' }],
    baseline: 'config_changes',
  },
  {
    name: 'changeTypes',
    page: 'changes',
    description: 'the change type filter options (change_types)',
    get: '/api/db/change_types',
    baseline: 'config_changes',
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

  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({
    prefix: 'lookout-bench-catalog-',
    logger,
    extraFlags: ['-c', 'max_wal_size=4GB'],
  });
  const database = createDatabase({ url: embedded.url, logger, max: 10 });
  let app;
  try {
    await runMigrations(database.pool, logger);
    console.log(
      `catalog bench: seeding ${ITEMS.toLocaleString('en-US')} items, ${CHANGES.toLocaleString('en-US')} changes over ${CHANGE_DAYS} days...`,
    );
    const seed = await seedCatalog(database.pool, { items: ITEMS, changes: CHANGES, changeDays: CHANGE_DAYS });
    let started = Date.now();
    await database.pool.query('SELECT lookout_refresh_config_item_summaries()');
    const refreshSeconds = (Date.now() - started) / 1000;
    const counted = (
      await database.pool.query(
        `SELECT (SELECT count(*) FROM config_items)::int AS items, (SELECT count(*) FROM config_changes)::int AS changes,
                (SELECT count(*) FROM config_analysis)::int AS analysis,
                (SELECT count(*) FROM config_changes WHERE created_at > now() - interval '7 days')::int AS changes7d`,
      )
    ).rows[0];
    console.log(
      `catalog bench: seeded (${Object.entries(seed)
        .map(([k, s]) => `${k} ${s.toFixed(1)} s`)
        .join(', ')}); roll-ups refreshed in ${refreshSeconds.toFixed(1)} s; ${JSON.stringify(counted)}`,
    );

    app = await buildApp({
      logger,
      database,
      version: 'bench',
      webDir: path.join(embedded.dataDir, 'no-web'),
      // The benchmark measures the catalog's reads, not sign-in: every request acts as an admin.
      resolveRoles: async () => ['admin'],
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const request = async (call) => {
      const response = call.get
        ? await fetch(`${address}${call.get}`, { headers: { accept: 'application/json' } })
        : await fetch(`${address}${call.post[0]}`, {
            method: 'POST',
            headers: { accept: 'application/json', 'content-type': 'application/json' },
            body: JSON.stringify(call.post[1]),
          });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${call.name}: ${response.status} ${body.slice(0, 300)}`);
      return body;
    };
    const baselines = {
      config_items: async () => (await database.pool.query('SELECT count(*) FROM config_items')).rows[0],
      config_changes: async () => (await database.pool.query('SELECT count(*) FROM config_changes')).rows[0],
    };

    const results = {};
    for (const call of CALLS) {
      const sample = JSON.parse(await request(call));
      const rows = Array.isArray(sample) ? sample.length : sample.changes.length;
      if (rows === 0) throw new Error(`${call.name}: no rows (was the seed changed while running?)`);
      const baseline = baselines[call.baseline];
      for (let i = 0; i < WARMUP; i++) {
        await request(call);
        await baseline();
      }
      const api = [];
      const base = [];
      let bytes = 0;
      // Alternating order, so neither side always runs right after the other.
      for (let i = 0; i < ITERATIONS; i++) {
        if (i % 2 === 0) {
          const [ms, body] = await timed(() => request(call));
          api.push(ms);
          bytes = body.length;
          base.push((await timed(baseline))[0]);
        } else {
          base.push((await timed(baseline))[0]);
          api.push((await timed(() => request(call)))[0]);
        }
      }
      results[call.name] = {
        page: call.page,
        description: call.description,
        request: call.get
          ? `GET ${decodeURIComponent(call.get)}`
          : `POST ${call.post[0]} ${JSON.stringify(call.post[1])}`,
        rows,
        ...(sample.total !== undefined ? { total: sample.total } : {}),
        responseBytes: bytes,
        api: stats(api),
        baseline: { query: `SELECT count(*) FROM ${call.baseline}`, ...stats(base) },
        ratioToBaseline: {
          median: round(median(api) / median(base)),
          p95: round(percentile(api, 95) / percentile(base, 95)),
        },
      };
      const r = results[call.name];
      console.log(
        `  ${call.name.padEnd(18)} median ${r.api.medianMs.toFixed(1).padStart(7)} ms, p95 ${r.api.p95Ms.toFixed(1).padStart(7)} ms | count(*) ${call.baseline} median ${r.baseline.medianMs.toFixed(1)} ms, p95 ${r.baseline.p95Ms.toFixed(1)} ms | ratio ${r.ratioToBaseline.median} (p95 ${r.ratioToBaseline.p95}) | ${rows} rows`,
      );
    }
    started = Date.now();
    await database.pool.query('SELECT lookout_refresh_config_item_summaries()');
    const steadyRefreshSeconds = (Date.now() - started) / 1000;
    const output = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map(round),
      items: counted.items,
      changes: counted.changes,
      changesLast7Days: counted.changes7d,
      analysis: counted.analysis,
      changeDays: CHANGE_DAYS,
      iterations: ITERATIONS,
      warmup: WARMUP,
      seedSeconds: seed,
      rollupRefreshSeconds: { first: round(refreshSeconds), again: round(steadyRefreshSeconds) },
      targetsMs: TARGETS_MS,
      calls: results,
    };
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
    console.log(
      `catalog bench: load average ${output.loadAverage.join(', ')}; results in ${path.relative(process.cwd(), resultsFile)}`,
    );
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
