#!/usr/bin/env node
// Benchmark of the pgrest engine against the equivalent hand-written SQL.
//
//   npm run bench -- pgrest      (builds first)
//
// It starts an embedded PostgreSQL (or uses BENCH_DATABASE_URL, whose database it fills with a
// `bench` schema), loads 1,000,000 orders plus customers and products, then measures two
// requests through engine.handle() and, in the same process and on the same pool, the SQL a
// careful developer would write by hand to produce the same JSON, run two ways: node-postgres'
// plain call (text and values, parsed and planned each time; the target is judged against it)
// and a named statement (prepared once per connection, like the engine's own; the stricter
// baseline). The three take turns starting an iteration, so drift and caching hit all alike.
// Results go to stdout and to bench/results/pgrest.json.
//
// Environment: BENCH_DATABASE_URL, BENCH_ITERATIONS (default 1000), BENCH_WARMUP (default 500),
// BENCH_ROWS (default 1000000).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import pg from 'pg';
import { preparedQuery } from '../lib/prepared-query.mjs';
import { median, percentile, positiveIntEnv, round, timed } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const engineEntry = path.join(root, 'packages/pgrest/dist/index.js');
const resultsFile = path.join(root, 'bench/results/pgrest.json');

const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 1000);
const WARMUP = positiveIntEnv('BENCH_WARMUP', 500);
const ROWS = positiveIntEnv('BENCH_ROWS', 1_000_000);

/**
 * A database to benchmark on: BENCH_DATABASE_URL when given, else an embedded PostgreSQL in a
 * temporary folder with durability off (the data is thrown away).
 * @returns {Promise<{ url: string, stop: () => Promise<void>, kind: string }>}
 */
async function startDatabase() {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { url: given, stop: async () => undefined, kind: 'BENCH_DATABASE_URL' };

  const postgres = await startTestPostgres({
    prefix: 'pgrest-bench-',
    extraFlags: ['-c', 'shared_buffers=256MB', '-c', 'max_wal_size=4GB'],
  });
  return { url: postgres.url, kind: 'embedded PostgreSQL', stop: postgres.stop };
}

/** The data set: orders reference customers and products, with the indexes the reads use. */
function setupSql(rows) {
  return `
DROP SCHEMA IF EXISTS bench CASCADE;
CREATE SCHEMA bench;
CREATE TABLE bench.customers (id int PRIMARY KEY, name text NOT NULL, country text NOT NULL);
CREATE TABLE bench.products (id int PRIMARY KEY, name text NOT NULL, category text NOT NULL);
CREATE TABLE bench.orders (
  id bigint PRIMARY KEY,
  customer_id int NOT NULL REFERENCES bench.customers (id),
  product_id int NOT NULL REFERENCES bench.products (id),
  status text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  created_at timestamptz NOT NULL
);
INSERT INTO bench.customers
  SELECT g, 'customer ' || g, (ARRAY['US', 'DE', 'FR', 'JP', 'BR'])[1 + g % 5] FROM generate_series(1, 10000) g;
INSERT INTO bench.products
  SELECT g, 'product ' || g, (ARRAY['tools', 'toys', 'books', 'food'])[1 + g % 4] FROM generate_series(1, 1000) g;
INSERT INTO bench.orders
  SELECT g,
         (1 + (g * 7919) % 10000)::int,
         (1 + (g * 104729) % 1000)::int,
         (ARRAY['open', 'paid', 'shipped', 'cancelled'])[(1 + g % 4)::int],
         (g % 10000) / 100.0,
         timestamptz '2024-01-01' + make_interval(secs => g)
  FROM generate_series(1::bigint, ${rows}) g;
CREATE INDEX orders_status_created_at ON bench.orders (status, created_at DESC);
CREATE INDEX orders_customer_id ON bench.orders (customer_id);
CREATE INDEX orders_product_id ON bench.orders (product_id);
ANALYZE bench.customers, bench.products, bench.orders;
`;
}

/**
 * The two requests and the SQL producing the same JSON body. The SQL aggregates to JSON in the
 * database too (embeds as jsonb, as PostgREST renders them), so the comparison isolates what the
 * engine adds (parsing, planning, the transaction and its settings, response assembly).
 */
const SCENARIOS = [
  {
    name: 'filteredOrderedLimited',
    description: 'filtered, ordered, limited read of the 1M-row table',
    path: 'orders',
    query: 'select=id,status,amount,created_at&status=eq.paid&amount=gt.50&order=created_at.desc&limit=25',
    sql: `SELECT coalesce(json_agg(t), '[]')::text AS body FROM (
            SELECT o.id, o.status, o.amount, o.created_at
            FROM bench.orders o
            WHERE o.status = $1 AND o.amount > $2
            ORDER BY o.created_at DESC
            LIMIT 25) t`,
    params: ['paid', 50],
  },
  {
    name: 'twoEmbeds',
    description: 'read with two many-to-one embeds (customer and product)',
    path: 'orders',
    query: 'select=id,amount,customers(name,country),products(name)&status=eq.shipped&order=created_at.desc&limit=25',
    sql: `SELECT coalesce(json_agg(t), '[]')::text AS body FROM (
            SELECT o.id, o.amount,
                   (SELECT row_to_json(c)::jsonb FROM (SELECT c.name, c.country FROM bench.customers c WHERE c.id = o.customer_id) c) AS customers,
                   (SELECT row_to_json(p)::jsonb FROM (SELECT p.name FROM bench.products p WHERE p.id = o.product_id) p) AS products
            FROM bench.orders o
            WHERE o.status = $1
            ORDER BY o.created_at DESC
            LIMIT 25) t`,
    params: ['shipped'],
  },
];

/** @param {number[]} ms */
function summary(ms) {
  const total = ms.reduce((sum, v) => sum + v, 0);
  return {
    medianMs: round(median(ms)),
    p95Ms: round(percentile(ms, 95)),
    meanMs: round(total / ms.length),
    // Sequential throughput of one client: requests completed per second of time spent.
    requestsPerSecond: round((ms.length / total) * 1000),
  };
}

async function main() {
  if (!existsSync(engineEntry)) {
    throw new Error(
      `${path.relative(root, engineEntry)} is missing: build it first (npm run build -w @lookout/pgrest)`,
    );
  }
  const { createPgrest } = await import(pathToFileURL(engineEntry).href);

  const db = await startDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  let stopping = false;
  // An idle connection dropped by the server must not crash the run with an unhandled event;
  // once the database is being stopped, dropped connections are expected and not reported.
  pool.on('error', (error) => {
    if (!stopping) console.error(`pgrest bench: idle connection error: ${error.message}`);
  });
  try {
    console.log(`pgrest bench: ${db.kind}, loading ${ROWS.toLocaleString('en-US')} orders...`);
    const loadStart = Date.now();
    await pool.query(setupSql(ROWS));
    // Vacuumed now rather than by autovacuum in the middle of the timings (VACUUM cannot run in
    // the setup's implicit transaction).
    await pool.query('VACUUM bench.customers, bench.products, bench.orders');
    const { rows: versionRows } = await pool.query('SHOW server_version');
    console.log(`pgrest bench: data loaded in ${((Date.now() - loadStart) / 1000).toFixed(1)} s`);

    const engine = await createPgrest({ pool, schemas: ['bench'] });
    const results = {};
    try {
      for (const scenario of SCENARIOS) {
        const request = {
          method: 'GET',
          path: scenario.path,
          query: scenario.query,
          headers: { accept: 'application/json' },
        };
        const viaEngine = async () => {
          const res = await engine.handle(request);
          if (res.status !== 200) throw new Error(`${scenario.name}: engine answered ${res.status} ${res.body}`);
          return res.body;
        };
        const viaSql = async () => (await pool.query(scenario.sql, scenario.params)).rows[0].body;
        const prepared = preparedQuery(scenario);
        const viaPrepared = async () => (await pool.query(prepared)).rows[0].body;

        // All three must produce the same rows, or the comparison means nothing.
        const [engineBody, sqlBody, preparedBody] = [await viaEngine(), await viaSql(), await viaPrepared()];
        const canonical = (text) => JSON.stringify(JSON.parse(text));
        if (canonical(engineBody) !== canonical(sqlBody) || canonical(preparedBody) !== canonical(sqlBody))
          throw new Error(
            `${scenario.name}: engine and SQL results differ\nengine: ${engineBody.slice(0, 300)}\nsql:    ${sqlBody.slice(0, 300)}`,
          );

        const paths = { engine: viaEngine, sql: viaSql, prepared: viaPrepared };
        const names = Object.keys(paths);
        for (let i = 0; i < WARMUP; i++) for (const name of names) await paths[name]();
        const times = Object.fromEntries(names.map((name) => [name, []]));
        for (let i = 0; i < ITERATIONS; i++) {
          // Each iteration starts with another path, so drift and caching hit all three alike.
          for (let k = 0; k < names.length; k++) {
            const name = names[(i + k) % names.length];
            const [ms] = await timed(paths[name]);
            times[name].push(ms);
          }
        }
        const ratios = times.engine.map((ms, k) => ms / times.sql[k]);
        const preparedRatios = times.engine.map((ms, k) => ms / times.prepared[k]);
        const engineStats = summary(times.engine);
        const sqlStats = summary(times.sql);
        const preparedStats = summary(times.prepared);
        results[scenario.name] = {
          description: scenario.description,
          request: `GET /${scenario.path}?${scenario.query}`,
          sql: scenario.sql.replace(/\s+/g, ' ').trim(),
          engine: engineStats,
          directSql: sqlStats,
          preparedSql: preparedStats,
          overheadRatio: {
            medianOfPairRatios: round(median(ratios)),
            ratioOfMedians: round(engineStats.medianMs / sqlStats.medianMs),
          },
          overPrepared: {
            medianOfPairRatios: round(median(preparedRatios)),
            ratioOfMedians: round(engineStats.medianMs / preparedStats.medianMs),
          },
        };
        console.log(
          `${scenario.name.padEnd(24)} engine ${engineStats.medianMs.toFixed(3)} ms (${engineStats.requestsPerSecond.toFixed(0)} req/s) | ` +
            `SQL ${sqlStats.medianMs.toFixed(3)} ms (${sqlStats.requestsPerSecond.toFixed(0)} req/s) | ` +
            `overhead x${round(median(ratios)).toFixed(2)} | prepared SQL ${preparedStats.medianMs.toFixed(3)} ms, ` +
            `overhead x${round(median(preparedRatios)).toFixed(2)}`,
        );
      }
    } finally {
      await engine.close();
    }

    const report = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      postgres: versionRows[0]?.server_version ?? 'unknown',
      database: db.kind,
      rows: ROWS,
      iterations: ITERATIONS,
      warmup: WARMUP,
      scenarios: results,
    };
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`pgrest bench: results written to ${path.relative(root, resultsFile)}`);
  } finally {
    stopping = true;
    await pool.end();
    await db.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
