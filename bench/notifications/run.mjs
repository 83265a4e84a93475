#!/usr/bin/env node
// Benchmark of notifications (apps/server/src/modules/notifications, docs/notifications.md):
// BENCH_CHECKS check failures (1,000), paced over BENCH_SPREAD_MS (one minute), through
// BENCH_RULES rules (20) to a local webhook, i.e. 20,000 messages. The worker (worker.mjs, the
// built app with the notification consumers) runs in its own process and is SIGKILLed once
// half of the messages have arrived (BENCH_KILL=0 to skip), then started again.
//
//   npm run bench -- notifications       (builds first)
//   BENCH_CHECKS=200 BENCH_SPREAD_MS=10000 node bench/notifications/run.mjs
//
// Reports: check events decided per second and messages delivered per second (first failure
// to last delivery), event-to-delivered latency (the check's status change to the webhook's
// first receipt of each message: p50, p95, p99, with and without the messages whose delivery
// waited for the restart), and the kill's outcome: messages lost (history rows never received)
// and delivered twice. Results go to stdout and bench/results/notifications.json. Commits are
// not flushed to disk unless BENCH_DURABLE=1.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { percentile, positiveIntEnv, round } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/notifications.json');

const CHECKS = positiveIntEnv('BENCH_CHECKS', 1_000);
const RULES = positiveIntEnv('BENCH_RULES', 20);
const SPREAD_MS = positiveIntEnv('BENCH_SPREAD_MS', 60_000);
const KILL = process.env.BENCH_KILL !== '0';
const DURABLE = process.env.BENCH_DURABLE === '1';
const TOTAL = CHECKS * RULES;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startReceiver() {
  /** @type {{ id: string, at: number }[]} */
  const received = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ id: String(request.headers['x-lookout-notification-id']), at: Date.now() });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, received, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

function startWorker(url) {
  const child = spawn(process.execPath, [path.join(here, 'worker.mjs')], {
    env: { ...process.env, BENCH_DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the worker exited (${code ?? signal}) before it was ready`)),
    );
  });
}

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-notifications-', durable: DURABLE, logger });
  const database = createDatabase({ url: embedded.url, logger, max: 4 });
  const pool = database.pool;
  await runMigrations(pool, logger);
  const receiver = await startReceiver();
  let worker;
  try {
    for (let rule = 0; rule < RULES; rule++) {
      await pool.query(
        `INSERT INTO notifications (title, events, filter, custom_services)
         VALUES ($1, '{check.failed}', $2, $3)`,
        [
          `rule ${rule}: {{ check.name }} failed`,
          "check.name.startsWith('bench-')",
          JSON.stringify([{ url: `${receiver.url}/hook/${rule}` }]),
        ],
      );
    }
    const canary = await pool.query(`INSERT INTO canaries (name, spec) VALUES ('bench', '{"http": []}') RETURNING id`);
    const { rows: checks } = await pool.query(
      `INSERT INTO checks (canary_id, type, name, spec)
       SELECT $1, 'http', 'bench-' || n, '{}' FROM generate_series(1, $2) AS n RETURNING id`,
      [canary.rows[0].id, CHECKS],
    );

    worker = await startWorker(embedded.url);
    const failedAt = new Map();
    const started = Date.now();
    let killedAt;
    let restartedAt;
    const kill = async () => {
      if (!KILL || killedAt) return;
      killedAt = Date.now();
      worker.kill('SIGKILL');
      await new Promise((resolve) => worker.once('exit', resolve));
      worker = await startWorker(embedded.url);
      restartedAt = Date.now();
      console.log(
        `killed the worker with SIGKILL at ${receiver.received.length} deliveries; restarted in ${restartedAt - killedAt} ms`,
      );
    };
    // The failures, paced evenly; the kill once half of the messages have arrived.
    let killing;
    for (let index = 0; index < checks.length; index++) {
      const due = started + (index * SPREAD_MS) / checks.length;
      if (due > Date.now()) await sleep(due - Date.now());
      failedAt.set(checks[index].id, Date.now());
      await pool.query(`UPDATE checks SET status = 'unhealthy', last_runtime = now() WHERE id = $1`, [
        checks[index].id,
      ]);
      if (!killing && receiver.received.length >= TOTAL / 2) killing = kill();
    }
    const lastFailure = Date.now();
    for (;;) {
      if (!killing && receiver.received.length >= TOTAL / 2) killing = kill();
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM notification_send_history WHERE status = 'sent'`,
      );
      if (rows[0].n >= TOTAL) break;
      if (Date.now() - lastFailure > 20 * 60_000)
        throw new Error(`only ${rows[0].n} of ${TOTAL} messages sent after 20 minutes`);
      await sleep(200);
    }
    await killing;
    const finished = Math.max(...receiver.received.map((r) => r.at));
    const { rows: decided } = await pool.query(
      `SELECT max(created_at) AS last, count(*)::int AS n FROM notification_event_traces`,
    );
    const { rows: history } = await pool.query(`SELECT id, resource_id FROM notification_send_history`);

    const firstReceipt = new Map();
    for (const { id, at } of receiver.received) if (!firstReceipt.has(id)) firstReceipt.set(id, at);
    const lost = history.filter((row) => !firstReceipt.has(row.id)).length;
    const duplicates = receiver.received.length - firstReceipt.size;
    const latencies = [];
    const undisturbed = [];
    for (const row of history) {
      const at = firstReceipt.get(row.id);
      if (at === undefined) continue;
      const latency = at - failedAt.get(row.resource_id);
      latencies.push(latency);
      if (!killedAt || at < killedAt || failedAt.get(row.resource_id) > restartedAt) undisturbed.push(latency);
    }
    const summary = (values) => ({
      count: values.length,
      p50Ms: round(percentile(values, 50)),
      p95Ms: round(percentile(values, 95)),
      p99Ms: round(percentile(values, 99)),
    });
    const result = {
      checks: CHECKS,
      rules: RULES,
      messages: TOTAL,
      spreadMs: SPREAD_MS,
      durable: DURABLE,
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((n) => round(n)) },
      eventsDecided: decided[0].n,
      eventsPerSecond: round(CHECKS / ((new Date(decided[0].last).getTime() - started) / 1000)),
      messagesPerSecond: round(TOTAL / ((finished - started) / 1000)),
      eventToDelivered: summary(latencies),
      eventToDeliveredWithoutTheRestart: summary(undisturbed),
      kill: KILL
        ? {
            deliveredBeforeKill: receiver.received.filter((r) => r.at <= killedAt).length,
            restartMs: restartedAt - killedAt,
            lost,
            duplicates,
          }
        : null,
      historyRows: history.length,
    };
    console.log(JSON.stringify(result, null, 2));
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    if (lost > 0 || history.length !== TOTAL || decided[0].n !== CHECKS) process.exitCode = 1;
  } finally {
    worker?.kill('SIGKILL');
    receiver.server.close();
    await database.close();
    await embedded.stop();
  }
}

await main();
