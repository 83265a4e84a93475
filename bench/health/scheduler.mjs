#!/usr/bin/env node
// Benchmark of the check scheduler: BENCH_CHECKS http checks every BENCH_INTERVAL_S seconds
// against a local HTTP server, for BENCH_DURATION_S seconds after a warm-up.
//
//   npm run bench -- health              (builds first; runs this and summary.mjs)
//   BENCH_DURATION_S=60 node bench/health/scheduler.mjs
//
// The parent starts a throwaway embedded PostgreSQL (@lookout/embedded-postgres/testing),
// migrates it, runs the target HTTP server (so its CPU is not counted), and creates the
// checks as canaries of 100 (the derivation trigger makes every check due at once, the
// burst a bulk import causes). The Lookout process (scheduler-server.mjs: the real app and
// health workers) runs in a child process of its own, so its CPU time and memory are its
// own. After BENCH_WARMUP_S (the initial burst drains and the checks settle on their
// phases) the window starts: runs per second achieved against the schedule's rate, schedule
// lag (start minus due time) p50/p95/p99, CPU of the Lookout process (and of PostgreSQL,
// read from /proc) and peak RSS. The status rows written are counted as a cross-check.
// Results go to stdout and bench/results/health-scheduler.json.
//
// Environment: BENCH_CHECKS (5000), BENCH_INTERVAL_S (30), BENCH_DURATION_S (300),
// BENCH_WARMUP_S (60), and the server's own settings such as LOOKOUT_CHECK_CONCURRENCY.
import { fork } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { positiveIntEnv, round } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/health-scheduler.json');

const CHECKS = positiveIntEnv('BENCH_CHECKS', 5000);
const INTERVAL_S = positiveIntEnv('BENCH_INTERVAL_S', 30);
const DURATION_S = positiveIntEnv('BENCH_DURATION_S', 300);
const WARMUP_S = positiveIntEnv('BENCH_WARMUP_S', 60);
const PER_CANARY = 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) of a process and its children, from /proc (Linux). */
async function cpuOfTree(rootPid) {
  const ticks = 100; // USER_HZ
  let total = 0;
  const entries = await readdir('/proc').catch(() => []);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      if (Number(entry) === rootPid || ppid === rootPid) total += (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

function ask(child, message, type) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`the Lookout process exited with ${code}`));
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

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));

  const logger = pino({ level: 'warn' });
  // Durable settings, as an installation runs: every result is a real commit.
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-scheduler-', durable: true, logger });
  const database = createDatabase({ url: embedded.url, logger, max: 4 });
  let requests = 0;
  const target = http.createServer((_request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok');
  });
  target.keepAliveTimeout = 60_000;
  await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetUrl = `http://127.0.0.1:${target.address().port}`;
  let child;
  try {
    await runMigrations(database.pool, logger);
    const canaries = Math.ceil(CHECKS / PER_CANARY);
    await database.pool.query(
      `INSERT INTO canaries (name, spec)
       SELECT 'bench-' || g, jsonb_build_object('interval', $2::int, 'http',
         (SELECT jsonb_agg(jsonb_build_object('name', 'check-' || i, 'url', $1 || '/' || g || '/' || i, 'responseCodes', jsonb_build_array(200)))
          FROM generate_series(1, least(${PER_CANARY}, ${CHECKS} - (g - 1) * ${PER_CANARY})) i))
       FROM generate_series(1, ${canaries}) g`,
      [targetUrl, INTERVAL_S],
    );
    const postmasterPid = Number(
      (await readFile(path.join(embedded.clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    console.log(
      `health scheduler bench: ${CHECKS.toLocaleString('en-US')} http checks every ${INTERVAL_S} s (${round(CHECKS / INTERVAL_S)} runs/s due), warm-up ${WARMUP_S} s, window ${DURATION_S} s`,
    );

    child = fork(path.join(here, 'scheduler-server.mjs'), [], {
      env: { ...process.env, BENCH_DATABASE_URL: embedded.url },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const started = Date.now();
    await ask(child, undefined, 'ready');
    // The initial burst: every check was due at creation.
    let firstPassDone;
    while (Date.now() - started < WARMUP_S * 1000) {
      await sleep(1000);
      if (firstPassDone === undefined) {
        const { rows } = await database.pool.query(
          'SELECT count(*)::int AS n FROM checks WHERE last_runtime IS NOT NULL',
        );
        if (rows[0].n >= CHECKS) firstPassDone = (Date.now() - started) / 1000;
      }
    }
    await ask(child, 'reset', 'reset');
    const windowStart = new Date();
    const pgCpuBefore = await cpuOfTree(postmasterPid);
    const requestsBefore = requests;
    for (let elapsed = 0; elapsed < DURATION_S; elapsed += 10) {
      await sleep(Math.min(10, DURATION_S - elapsed) * 1000);
      const progress = await ask(child, 'report', 'report');
      process.stdout.write(
        `  ${Math.round(progress.seconds)} s: ${round(progress.stats.runs / progress.seconds)} runs/s, lag p95 ${Math.round(progress.stats.lagMs.p95)} ms, rss ${Math.round(progress.rss / 1048576)} MB\n`,
      );
    }
    const report = await ask(child, 'report', 'report');
    const pgCpu = (await cpuOfTree(postmasterPid)) - pgCpuBefore;
    const targetRequests = requests - requestsBefore;
    const { rows } = await database.pool.query(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT status)::int AS failed FROM check_statuses WHERE time >= $1',
      [windowStart],
    );
    await ask(child, 'stop', 'stopped');
    child = undefined;

    const expected = CHECKS / INTERVAL_S;
    const output = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      checks: CHECKS,
      intervalSeconds: INTERVAL_S,
      warmupSeconds: WARMUP_S,
      windowSeconds: round(report.seconds),
      settings: report.settings,
      initialBurstDrainedAfterSeconds: firstPassDone ?? null,
      runsPerSecond: round(report.stats.runs / report.seconds),
      expectedRunsPerSecond: round(expected),
      ratioToSchedule: round(report.stats.runs / report.seconds / expected),
      statusesWrittenPerSecond: round(rows[0].n / report.seconds),
      failedRuns: rows[0].failed,
      targetRequestsPerSecond: round(targetRequests / report.seconds),
      scheduleLagMs: report.stats.lagMs,
      lookoutCpuPercentOfOneCore: round((report.cpuSeconds / report.seconds) * 100),
      postgresCpuPercentOfOneCore: round((pgCpu / report.seconds) * 100),
      peakRssMB: round(report.peakRss / 1048576),
      maxRssKernelMB: round(report.maxRssKernel / 1048576),
      writeErrors: report.stats.writeErrors,
      loadAverage: os.loadavg().map(round),
    };
    console.log(
      `health scheduler bench: ${output.runsPerSecond} runs/s (schedule ${output.expectedRunsPerSecond}), lag p95 ${Math.round(output.scheduleLagMs.p95)} ms, ` +
        `Lookout CPU ${output.lookoutCpuPercentOfOneCore}% of a core, PostgreSQL CPU ${output.postgresCpuPercentOfOneCore}%, peak RSS ${output.peakRssMB} MB`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
    console.log(`health scheduler bench: results in ${path.relative(process.cwd(), resultsFile)}`);
  } finally {
    if (child) {
      child.kill('SIGTERM');
      await sleep(500);
    }
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
    await database.close();
    await embedded.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
