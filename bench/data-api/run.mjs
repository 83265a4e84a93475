#!/usr/bin/env node
// Benchmark of Lookout's /api/db against the same SQL run directly with node-postgres.
//
//   npm run bench -- data-api      (builds first)
//
// It starts the built server's embedded PostgreSQL in a temporary data directory, applies
// Lookout's migrations, seeds 10,000 people and 1,000,000 agents (each agent references two
// people: created_by and person_id), and builds the real application. Two requests then go
// through /api/db — over real HTTP on loopback and through Fastify's inject — and the
// equivalent SQL runs on the same pool in the same process, alternating order each iteration.
// The HTTP client is node:http with one kept-alive connection, the leanest client Node has, so
// that the figure is mostly the server's work (fetch spends about as much again on its side).
// Results go to stdout and bench/results/data-api.json.
//
// Environment: BENCH_ITERATIONS (default 300), BENCH_WARMUP (default 50), BENCH_ROWS (default 1000000).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent as HttpAgent, get as httpGet } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { median, percentile, positiveIntEnv, round, timed } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/data-api.json');

const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 300);
const WARMUP = positiveIntEnv('BENCH_WARMUP', 50);
const ROWS = positiveIntEnv('BENCH_ROWS', 1_000_000);

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
              (SELECT row_to_json(c) FROM (SELECT p.name, p.email FROM people p WHERE p.id = a.created_by) c) AS created_by,
              (SELECT row_to_json(c) FROM (SELECT p.name FROM people p WHERE p.id = a.person_id) c) AS person
            FROM agents a WHERE a.version = $1
            ORDER BY a.last_seen DESC LIMIT 25) t`,
    params: ['v5'],
  },
];

const stats = (ms) => ({
  medianMs: round(median(ms)),
  p95Ms: round(percentile(ms, 95)),
  requestsPerSecond: round(1000 / median(ms)),
});

async function main() {
  const { startEmbeddedPostgres } = await import(dist('db/embedded-postgres.js'));
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { buildApp } = await import(dist('http/app.js'));

  const logger = pino({ level: 'warn' });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-bench-'));
  const embedded = await startEmbeddedPostgres({
    dataDir,
    logger,
    extraFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  const database = createDatabase({ url: embedded.url, logger, max: 10 });
  let app;
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
    console.log(`data-api bench: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    app = await buildApp({
      logger,
      database,
      version: 'bench',
      webDir: path.join(dataDir, 'no-web'),
      // The benchmark measures the data path, not sign-in: every request acts as an admin.
      resolveRoles: async () => ['admin'],
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });

    const results = {};
    for (const scenario of SCENARIOS) {
      const viaHttp = () =>
        new Promise((resolve, reject) => {
          const request = httpGet(
            `${address}${scenario.url}`,
            { agent, headers: { accept: 'application/json' } },
            (response) => {
              let body = '';
              response.setEncoding('utf8');
              response.on('data', (chunk) => (body += chunk));
              response.on('end', () =>
                response.statusCode === 200
                  ? resolve(body)
                  : reject(new Error(`${scenario.name}: ${response.statusCode} ${body}`)),
              );
            },
          );
          request.on('error', reject);
        });
      const viaInject = async () => {
        const response = await app.inject({ method: 'GET', url: scenario.url });
        if (response.statusCode !== 200) throw new Error(`${scenario.name}: ${response.statusCode} ${response.body}`);
        return response.body;
      };
      const viaSql = async () => (await database.pool.query(scenario.sql, scenario.params)).rows[0].body;

      const canonical = (text) => JSON.stringify(JSON.parse(text));
      const [httpBody, sqlBody] = [await viaHttp(), await viaSql()];
      if (canonical(httpBody) !== canonical(sqlBody)) {
        throw new Error(
          `${scenario.name}: /api/db and SQL differ\napi: ${httpBody.slice(0, 300)}\nsql: ${sqlBody.slice(0, 300)}`,
        );
      }
      for (let i = 0; i < WARMUP; i++) {
        await viaHttp();
        await viaInject();
        await viaSql();
      }
      const http = [];
      const inject = [];
      const sql = [];
      const httpRatios = [];
      const injectRatios = [];
      for (let i = 0; i < ITERATIONS; i++) {
        const order = i % 2 === 0 ? ['h', 'i', 's'] : ['s', 'i', 'h'];
        const t = {};
        for (const which of order)
          [t[which]] = await timed(which === 'h' ? viaHttp : which === 'i' ? viaInject : viaSql);
        http.push(t.h);
        inject.push(t.i);
        sql.push(t.s);
        httpRatios.push(t.h / t.s);
        injectRatios.push(t.i / t.s);
      }
      results[scenario.name] = {
        description: scenario.description,
        request: `GET ${scenario.url}`,
        http: stats(http),
        inject: stats(inject),
        directSql: stats(sql),
        overheadRatio: { http: round(median(httpRatios)), inject: round(median(injectRatios)) },
      };
      console.log(
        `${scenario.name.padEnd(24)} http ${median(http).toFixed(3)} ms | inject ${median(inject).toFixed(3)} ms | ` +
          `SQL ${median(sql).toFixed(3)} ms | overhead http x${round(median(httpRatios))}, inject x${round(median(injectRatios))}`,
      );
    }
    agent.destroy();
    const report = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      rows: ROWS,
      iterations: ITERATIONS,
      warmup: WARMUP,
      scenarios: results,
    };
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`data-api bench: results written to ${path.relative(root, resultsFile)}`);
  } finally {
    await app?.close();
    await database.close();
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
