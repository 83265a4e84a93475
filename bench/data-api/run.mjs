#!/usr/bin/env node
// Benchmark of Lookout's /api/db against the same SQL run directly with node-postgres.
//
//   npm run bench -- data-api      (builds first)
//
// It starts a throwaway embedded PostgreSQL (@lookout/embedded-postgres/testing), applies
// Lookout's migrations, seeds 10,000 people and 1,000,000 agents (each agent references two
// people: created_by and person_id), and builds the real application. Two requests then go
// through /api/db — through Fastify's inject and over real HTTP on loopback — and the same SQL
// runs directly on the same pool in the same process. A control route (a bare Fastify
// instance whose handler runs that SQL) is reached both ways too, so the report separates
// what HTTP and Fastify cost from what Lookout adds. The SQL and the control run it twice
// over: as node-postgres' plain call (the baseline the targets are judged against) and as a
// named, prepared statement (the stricter baseline, reported beside it). Every iteration runs
// each path once, in an order that rotates, and the reported overhead is the median of
// per-iteration ratios.
// The HTTP client is undici's Client on one kept-alive connection (the client Node's own fetch
// is built on, and the leanest measured here: node:http's client spent ~0.1 ms more per
// request in this process). Then each request's throughput: requests per second answered by
// /api/db and by both control routes under BENCH_CONNECTIONS concurrent connections (a closed
// loop of undici clients in a worker thread), taking turns over BENCH_THROUGHPUT_ROUNDS rounds
// of BENCH_THROUGHPUT_SECONDS each. Results go to stdout and bench/results/data-api.json.
//
// Environment: BENCH_ITERATIONS (default 1000), BENCH_WARMUP (default 500), BENCH_ROWS (default
// 1000000), BENCH_CONNECTIONS (default 32), BENCH_THROUGHPUT_SECONDS (default 5),
// BENCH_THROUGHPUT_ROUNDS (default 2).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { Client } from 'undici';
import { preparedQuery } from '../lib/prepared-query.mjs';
import { median, percentile, positiveIntEnv, round, timed } from '../lib/stats.mjs';
import { measureThroughput } from '../lib/throughput.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/data-api.json');

const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 1000);
const WARMUP = positiveIntEnv('BENCH_WARMUP', 500);
const ROWS = positiveIntEnv('BENCH_ROWS', 1_000_000);
const CONNECTIONS = positiveIntEnv('BENCH_CONNECTIONS', 32);
const THROUGHPUT_SECONDS = positiveIntEnv('BENCH_THROUGHPUT_SECONDS', 5);
const THROUGHPUT_ROUNDS = positiveIntEnv('BENCH_THROUGHPUT_ROUNDS', 2);

const SCENARIOS = [
  {
    name: 'filteredOrderedLimited',
    description: 'filtered, ordered, limited read of the 1M-row agents table',
    url: '/api/db/agents?select=id,name,version,last_seen&version=eq.v3&cleanup=is.false&order=last_seen.desc&limit=25',
    sql: `SELECT coalesce(json_agg(t), '[]')::text AS body FROM (
            SELECT a.id, a.name, a.version, a.last_seen FROM agents a
            WHERE a.version = $1 AND a.cleanup IS FALSE
            ORDER BY a.last_seen DESC LIMIT 25) t`,
    params: ['v3'],
  },
  {
    name: 'twoEmbeds',
    description: 'read with two many-to-one embeds (created_by and person_id to people)',
    url: '/api/db/agents?select=id,name,created_by(name,email),person:person_id(name)&version=eq.v5&order=last_seen.desc&limit=25',
    sql: `SELECT coalesce(json_agg(t), '[]')::text AS body FROM (
            SELECT a.id, a.name,
              (SELECT row_to_json(c)::jsonb FROM (SELECT p.name, p.email FROM people p WHERE p.id = a.created_by) c) AS created_by,
              (SELECT row_to_json(c)::jsonb FROM (SELECT p.name FROM people p WHERE p.id = a.person_id) c) AS person
            FROM agents a WHERE a.version = $1
            ORDER BY a.last_seen DESC LIMIT 25) t`,
    params: ['v5'],
  },
];

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** GET through Fastify's inject (no socket). */
async function injected(app, url) {
  const response = await app.inject({ method: 'GET', url });
  if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
  return response.body;
}

/** GET over loopback HTTP on the client's one kept-alive connection. */
async function fetched(client, url) {
  const response = await client.request({ method: 'GET', path: url, headers: { accept: 'application/json' } });
  const body = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${body}`);
  return body;
}

const stats = (ms) => ({
  medianMs: round(median(ms)),
  p95Ms: round(percentile(ms, 95)),
  requestsPerSecond: round(1000 / median(ms)),
});

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { buildApp } = await import(dist('http/app.js'));

  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-', logger });
  const database = createDatabase({ url: embedded.url, logger, max: 10 });
  let app;
  let control;
  try {
    await runMigrations(database.pool, logger);
    console.log(`data-api bench: seeding ${ROWS.toLocaleString('en-US')} agents...`);
    const started = Date.now();
    await database.pool.query(`
      INSERT INTO people (id, name, email)
        SELECT ('00000000-0000-7000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'person ' || g, 'p' || g || '@example.com'
        FROM generate_series(1, 10000) g;
      INSERT INTO agents (name, version, cleanup, last_seen, created_by, person_id)
        SELECT 'agent-' || g, 'v' || (g % 10), g % 7 = 0, timestamptz '2026-01-01' + make_interval(secs => g),
               ('00000000-0000-7000-8000-' || lpad(to_hex(1 + g % 10000), 12, '0'))::uuid,
               ('00000000-0000-7000-8000-' || lpad(to_hex(1 + (g * 7) % 10000), 12, '0'))::uuid
        FROM generate_series(1, ${ROWS}) g;
      CREATE INDEX bench_agents_version_last_seen ON agents (version, last_seen DESC);
      ANALYZE people, agents;`);
    // Vacuumed now rather than by autovacuum in the middle of the timings (VACUUM cannot run in
    // the seed's implicit transaction).
    await database.pool.query('VACUUM people, agents');
    console.log(`data-api bench: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    app = await buildApp({
      logger,
      database,
      version: 'bench',
      webDir: path.join(embedded.dataDir, 'no-web'),
      // The benchmark measures the data path, not sign-in: every request acts as an admin.
      resolveRoles: async () => ['admin'],
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // The control: the scenario's SQL behind a bare Fastify route (no Lookout code at all),
    // reached the same two ways. It shows what HTTP and Fastify cost by themselves.
    control = Fastify({ logger: false });
    control.get('/sql/:scenario', async (request, reply) => {
      const scenario = SCENARIOS.find((one) => one.name === request.params.scenario);
      const { rows } = await database.pool.query(scenario.sql, scenario.params);
      return reply.type('application/json; charset=utf-8').send(rows[0].body);
    });
    control.get('/prepared/:scenario', async (request, reply) => {
      const scenario = SCENARIOS.find((one) => one.name === request.params.scenario);
      const { rows } = await database.pool.query(preparedQuery(scenario));
      return reply.type('application/json; charset=utf-8').send(rows[0].body);
    });
    const controlAddress = await control.listen({ port: 0, host: '127.0.0.1' });
    const lookoutClient = new Client(address, { pipelining: 1 });
    const controlClient = new Client(controlAddress, { pipelining: 1 });

    // The machine may be shared: the load around the run says how far to trust absolute times
    // (the ratios are measured side by side, so both paths meet the same load).
    const loadAtStart = os.loadavg();
    const results = {};
    for (const scenario of SCENARIOS) {
      const controlUrl = `/sql/${scenario.name}`;
      const preparedUrl = `/prepared/${scenario.name}`;
      const paths = {
        sql: async () => (await database.pool.query(scenario.sql, scenario.params)).rows[0].body,
        preparedSql: async () => (await database.pool.query(preparedQuery(scenario))).rows[0].body,
        inject: () => injected(app, scenario.url),
        http: () => fetched(lookoutClient, scenario.url),
        controlInject: () => injected(control, controlUrl),
        controlHttp: () => fetched(controlClient, controlUrl),
        preparedControlInject: () => injected(control, preparedUrl),
        preparedControlHttp: () => fetched(controlClient, preparedUrl),
      };
      const canonical = (text) => JSON.stringify(JSON.parse(text));
      const expected = canonical(await paths.sql());
      for (const [name, run] of Object.entries(paths)) {
        const body = await run();
        if (canonical(body) !== expected) {
          throw new Error(
            `${scenario.name}: ${name} and SQL differ\n${name}: ${body.slice(0, 300)}\nsql: ${expected.slice(0, 300)}`,
          );
        }
      }
      const names = Object.keys(paths);
      // Enough rounds for V8 to optimise every path before anything is recorded.
      for (let i = 0; i < WARMUP; i++) for (const name of names) await paths[name]();
      const times = Object.fromEntries(names.map((name) => [name, []]));
      for (let i = 0; i < ITERATIONS; i++) {
        // Each iteration starts with another path, so no path always follows the same one.
        const order = names.map((_, k) => names[(i + k) % names.length]);
        const t = {};
        for (const name of order) {
          // Let the previous request's tail (the server finishing its response after the
          // client already has it) run before the clock starts, instead of inside the next path.
          await settle();
          [t[name]] = await timed(paths[name]);
        }
        for (const name of names) times[name].push(t[name]);
      }
      const ratioOf = (a, b) => round(median(times[a].map((value, k) => value / times[b][k])));
      results[scenario.name] = {
        description: scenario.description,
        request: `GET ${scenario.url}`,
        directSql: stats(times.sql),
        preparedSql: stats(times.preparedSql),
        inject: stats(times.inject),
        http: stats(times.http),
        controlInject: stats(times.controlInject),
        controlHttp: stats(times.controlHttp),
        preparedControlInject: stats(times.preparedControlInject),
        preparedControlHttp: stats(times.preparedControlHttp),
        // Median of per-iteration ratios against the direct SQL of the same iteration.
        overheadRatio: {
          inject: ratioOf('inject', 'sql'),
          http: ratioOf('http', 'sql'),
          controlInject: ratioOf('controlInject', 'sql'),
          controlHttp: ratioOf('controlHttp', 'sql'),
        },
        // /api/db against the bare route reached the same way: what Lookout adds on top.
        overControl: { inject: ratioOf('inject', 'controlInject'), http: ratioOf('http', 'controlHttp') },
        // The same against the bare route running the SQL as a prepared statement.
        overPreparedControl: {
          inject: ratioOf('inject', 'preparedControlInject'),
          http: ratioOf('http', 'preparedControlHttp'),
        },
      };
      const r = results[scenario.name];
      console.log(
        `${scenario.name}: SQL ${r.directSql.medianMs.toFixed(3)} ms\n` +
          `  /api/db inject ${r.inject.medianMs.toFixed(3)} ms (x${r.overheadRatio.inject}), ` +
          `HTTP ${r.http.medianMs.toFixed(3)} ms (x${r.overheadRatio.http}) | ` +
          `${r.http.requestsPerSecond} req/s over HTTP\n` +
          `  control (bare Fastify route running the SQL) inject x${r.overheadRatio.controlInject}, ` +
          `HTTP x${r.overheadRatio.controlHttp} | /api/db over control: inject x${r.overControl.inject}, HTTP x${r.overControl.http}\n` +
          `  prepared SQL ${r.preparedSql.medianMs.toFixed(3)} ms | /api/db over the prepared control: ` +
          `inject x${r.overPreparedControl.inject}, HTTP x${r.overPreparedControl.http}`,
      );
    }
    await lookoutClient.close();
    await controlClient.close();

    // Throughput: both targets under the same concurrent load, alternating which goes first.
    for (const scenario of SCENARIOS) {
      const targets = {
        apiDb: { origin: address, path: scenario.url },
        control: { origin: controlAddress, path: `/sql/${scenario.name}` },
        preparedControl: { origin: controlAddress, path: `/prepared/${scenario.name}` },
      };
      const names = Object.keys(targets);
      const runs = Object.fromEntries(names.map((name) => [name, []]));
      for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
        // Each round starts with another target.
        const order = names.map((_, k) => names[(round + k) % names.length]);
        for (const name of order) {
          runs[name].push(
            await measureThroughput({
              ...targets[name],
              connections: CONNECTIONS,
              warmupMs: 1000,
              durationMs: THROUGHPUT_SECONDS * 1000,
            }),
          );
        }
      }
      const mean = (list) => round(list.reduce((sum, run) => sum + run.requestsPerSecond, 0) / list.length);
      const apiDb = mean(runs.apiDb);
      const bare = mean(runs.control);
      const prepared = mean(runs.preparedControl);
      results[scenario.name].throughput = {
        connections: CONNECTIONS,
        seconds: THROUGHPUT_SECONDS,
        rounds: THROUGHPUT_ROUNDS,
        apiDbRequestsPerSecond: apiDb,
        controlRequestsPerSecond: bare,
        // How much of the bare route's throughput /api/db keeps (1 = all of it).
        apiDbShareOfControl: round(apiDb / bare),
        preparedControlRequestsPerSecond: prepared,
        apiDbShareOfPreparedControl: round(apiDb / prepared),
        apiDbMedianMs: round(median(runs.apiDb.map((run) => run.medianMs))),
        controlMedianMs: round(median(runs.control.map((run) => run.medianMs))),
        preparedControlMedianMs: round(median(runs.preparedControl.map((run) => run.medianMs))),
      };
      console.log(
        `${scenario.name}: ${CONNECTIONS} connections: /api/db ${apiDb} req/s, control ${bare} req/s ` +
          `(/api/db keeps ${round((apiDb / bare) * 100)} %), prepared control ${prepared} req/s ` +
          `(/api/db keeps ${round((apiDb / prepared) * 100)} %)`,
      );
    }

    const loadAtEnd = os.loadavg();
    const loadText = (load) => load.map((value) => value.toFixed(2)).join(', ');
    console.log(
      `data-api bench: load average (1, 5, 15 min) ${loadText(loadAtStart)} at the start of the timings, ` +
        `${loadText(loadAtEnd)} at the end, on ${os.availableParallelism()} cores`,
    );
    const report = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cores: os.availableParallelism(),
      loadAverage: { start: loadAtStart.map(round), end: loadAtEnd.map(round) },
      rows: ROWS,
      iterations: ITERATIONS,
      warmup: WARMUP,
      scenarios: results,
    };
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`data-api bench: results written to ${path.relative(root, resultsFile)}`);
  } finally {
    await control?.close();
    await app?.close();
    await database.close();
    await embedded.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
