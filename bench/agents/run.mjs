#!/usr/bin/env node
// Benchmark of an agent pushing to its upstream (issue 18 item 6): an agent Lookout runs
// BENCH_CHECKS tcp checks every BENCH_INTERVAL_S seconds against a local TCP listener and
// pushes its checks and results to an upstream Lookout on the same machine, for
// BENCH_DURATION_S seconds after a warm-up.
//
//   npm run bench -- agents                                      (builds first)
//   BENCH_DURATION_S=60 BENCH_WARMUP_S=30 node bench/agents/run.mjs   (a quick check)
//
// One throwaway embedded PostgreSQL (durable settings, track_commit_timestamp on) holds the two
// databases; the upstream (upstream-server.mjs) and the agent (agent-server.mjs: the app, its
// check scheduler and the agent-push module) run in child processes of their own, so each one's
// CPU time and memory are its own. Measured over the window:
// - rows pushed per second (the agent's PushToUpstream summaries in Job History);
// - the lag from a check's run (check_statuses.time, when the run started) to its status
//   stored upstream (the commit time of the upstream's row): p50/p95/p99 and max, over every
//   run of the window, after waiting for the last of them to arrive;
// - the upstream's CPU (percent of one core) and RSS (peak and at the end);
// - that every run of the window arrived once (the agent's count equals the upstream's).
// Results go to stdout and bench/results/agents.json.
//
// Environment: BENCH_CHECKS (5000), BENCH_INTERVAL_S (30), BENCH_DURATION_S (300),
// BENCH_WARMUP_S (60), LOOKOUT_AGENT_PUSH_INTERVAL_MS (1000), and the scheduler's own
// settings such as LOOKOUT_CHECK_CONCURRENCY.
import { fork } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import pg from 'pg';
import { pino } from 'pino';
import { positiveIntEnv, round } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/agents.json');

const CHECKS = positiveIntEnv('BENCH_CHECKS', 5000);
const INTERVAL_S = positiveIntEnv('BENCH_INTERVAL_S', 30);
const DURATION_S = positiveIntEnv('BENCH_DURATION_S', 300);
const WARMUP_S = positiveIntEnv('BENCH_WARMUP_S', 60);
const PER_CANARY = 100;
const AGENT_NAME = 'bench-agent';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function ask(child, message, type) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`a Lookout process exited with ${code}`));
    const onMessage = (reply) => {
      if (reply?.type === type) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply);
      }
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (message) child.send(message);
  });
}

const urlOf = (base, name) => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Runs of the window (by start time) stored on each side, and the lag percentiles upstream. */
async function windowFigures(agentDb, upstreamDb, from, to) {
  const agentRuns = await agentDb.query(
    'SELECT count(*)::int AS n FROM check_statuses WHERE time >= $1 AND time < $2',
    [from, to],
  );
  const upstream = await upstreamDb.query(
    `WITH lag AS (
       SELECT extract(epoch FROM pg_xact_commit_timestamp(xmin) - time) * 1000 AS ms
       FROM check_statuses WHERE time >= $1 AND time < $2
     )
     SELECT count(*)::int AS n,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99,
            max(ms) AS max
     FROM lag`,
    [from, to],
  );
  const row = upstream.rows[0];
  return {
    agentRuns: agentRuns.rows[0].n,
    upstreamRuns: row.n,
    lagMs: { p50: round(row.p50 ?? 0), p95: round(row.p95 ?? 0), p99: round(row.p99 ?? 0), max: round(row.max ?? 0) },
  };
}

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));

  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({
    prefix: 'lookout-bench-agents-',
    durable: true,
    logger,
    extraFlags: ['-c', 'track_commit_timestamp=on', '-c', 'max_connections=200'],
  });
  const admin = new pg.Client({ connectionString: embedded.url });
  await admin.connect();
  for (const name of ['lookout_upstream', 'lookout_agent']) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const upstreamUrl = urlOf(embedded.url, 'lookout_upstream');
  const agentUrl = urlOf(embedded.url, 'lookout_agent');
  const upstreamDb = createDatabase({ url: upstreamUrl, logger, max: 2 });
  const agentDb = createDatabase({ url: agentUrl, logger, max: 2 });

  // The checks' target: a listener that accepts every connection and closes it.
  const target = net.createServer((socket) => socket.end());
  await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
  const endpoint = `127.0.0.1:${target.address().port}`;

  const children = [];
  try {
    await runMigrations(upstreamDb.pool, logger);
    await runMigrations(agentDb.pool, logger);
    const canaries = Math.ceil(CHECKS / PER_CANARY);
    await agentDb.pool.query(
      `INSERT INTO canaries (name, spec)
       SELECT 'bench-' || g, jsonb_build_object('interval', $2::int, 'tcp',
         (SELECT jsonb_agg(jsonb_build_object('name', 'port-' || i, 'endpoint', $1::text))
          FROM generate_series(1, least(${PER_CANARY}, ${CHECKS} - (g - 1) * ${PER_CANARY})) i))
       FROM generate_series(1, ${canaries}) g`,
      [endpoint, INTERVAL_S],
    );
    console.log(
      `agents bench: an agent with ${CHECKS.toLocaleString('en-US')} tcp checks every ${INTERVAL_S} s (${round(CHECKS / INTERVAL_S)} runs/s) pushing to an upstream on this machine; warm-up ${WARMUP_S} s, window ${DURATION_S} s`,
    );

    const upstream = fork(path.join(here, 'upstream-server.mjs'), [], {
      env: { ...process.env, BENCH_DATABASE_URL: upstreamUrl, BENCH_AGENT_NAME: AGENT_NAME },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(upstream);
    const ready = await ask(upstream, undefined, 'ready');
    const agent = fork(path.join(here, 'agent-server.mjs'), [], {
      env: {
        ...process.env,
        BENCH_DATABASE_URL: agentUrl,
        BENCH_UPSTREAM_URL: ready.url,
        BENCH_AGENT_NAME: ready.agent.name,
        BENCH_AGENT_TOKEN: ready.agent.token,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(agent);
    await ask(agent, undefined, 'ready');

    // Warm-up: every check was due at creation; the first burst runs and is pushed.
    await sleep(WARMUP_S * 1000);
    await ask(upstream, 'reset', 'reset');
    await ask(agent, 'reset', 'reset');
    const windowStart = new Date();
    for (let elapsed = 0; elapsed < DURATION_S; elapsed += 30) {
      await sleep(Math.min(30, DURATION_S - elapsed) * 1000);
      const now = new Date();
      // Runs that started more than 10 s ago have had their time to arrive.
      const settled = new Date(now.getTime() - 10_000);
      const figures =
        settled > windowStart ? await windowFigures(agentDb.pool, upstreamDb.pool, windowStart, settled) : undefined;
      const report = await ask(upstream, 'report', 'report');
      process.stdout.write(
        `  ${Math.round(report.seconds)} s: ${figures ? `${figures.upstreamRuns}/${figures.agentRuns} runs upstream, lag p95 ${Math.round(figures.lagMs.p95)} ms, ` : ''}upstream CPU ${round((report.cpuSeconds / report.seconds) * 100)}%, rss ${Math.round(report.rss / 1048576)} MB\n`,
      );
    }
    const windowEnd = new Date();
    const upstreamReport = await ask(upstream, 'report', 'report');
    const agentReport = await ask(agent, 'report', 'report');

    // Every run of the window should arrive: wait for the last ones (up to a minute).
    let figures = await windowFigures(agentDb.pool, upstreamDb.pool, windowStart, windowEnd);
    const waitUntil = Date.now() + 60_000;
    while (figures.upstreamRuns < figures.agentRuns && Date.now() < waitUntil) {
      await sleep(1000);
      figures = await windowFigures(agentDb.pool, upstreamDb.pool, windowStart, windowEnd);
    }
    const pushed = await agentDb.pool.query(
      `SELECT coalesce(sum(success_count), 0)::int AS rows, coalesce(sum(error_count), 0)::int AS failed,
              min(time_start) AS from, max(time_end) AS to
       FROM job_history WHERE name = 'PushToUpstream' AND time_start >= $1 AND time_end <= $2`,
      [windowStart, windowEnd],
    );
    const pushedRow = pushed.rows[0];
    const pushedSeconds = pushedRow.from ? (pushedRow.to - pushedRow.from) / 1000 : 0;
    const seconds = upstreamReport.seconds;

    await ask(agent, 'stop', 'stopped');
    await ask(upstream, 'stop', 'stopped');
    children.length = 0;

    const output = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      checks: CHECKS,
      intervalSeconds: INTERVAL_S,
      warmupSeconds: WARMUP_S,
      windowSeconds: round(seconds),
      runsDuePerSecond: round(CHECKS / INTERVAL_S),
      agentRunsPerSecond: round(figures.agentRuns / seconds),
      rowsPushedPerSecond: pushedSeconds > 0 ? round(pushedRow.rows / pushedSeconds) : 0,
      failedPushes: pushedRow.failed,
      runsInWindow: figures.agentRuns,
      runsArrivedUpstream: figures.upstreamRuns,
      pushLagMs: figures.lagMs,
      upstreamCpuPercentOfOneCore: round((upstreamReport.cpuSeconds / seconds) * 100),
      upstreamPeakRssMB: round(upstreamReport.peakRss / 1048576),
      upstreamRssMB: round(upstreamReport.rss / 1048576),
      agentCpuPercentOfOneCore: round((agentReport.cpuSeconds / agentReport.seconds) * 100),
      agentRssMB: round(agentReport.rss / 1048576),
      agentScheduleLagMs: agentReport.scheduler.lagMs,
      loadAverage: os.loadavg().map(round),
    };
    console.log(
      `agents bench: ${output.rowsPushedPerSecond} rows pushed/s, ${output.runsArrivedUpstream}/${output.runsInWindow} runs arrived, ` +
        `lag p95 ${Math.round(output.pushLagMs.p95)} ms (p99 ${Math.round(output.pushLagMs.p99)} ms), ` +
        `upstream CPU ${output.upstreamCpuPercentOfOneCore}% of a core, peak RSS ${output.upstreamPeakRssMB} MB`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
    console.log(`agents bench: results in ${path.relative(process.cwd(), resultsFile)}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (children.length > 0) await sleep(500);
    await new Promise((resolve) => target.close(resolve));
    await upstreamDb.close();
    await agentDb.close();
    await embedded.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
