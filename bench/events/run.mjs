#!/usr/bin/env node
// Benchmark of the event queue (apps/server/src/events, docs/events.md): BENCH_EVENTS events
// through one consumer, against a plain INSERT + DELETE loop on a table like event_queue.
//
//   npm run bench -- events              (builds first)
//   BENCH_EVENTS=2000 node bench/events/run.mjs
//
// It starts a throwaway embedded PostgreSQL (@lookout/embedded-postgres/testing; commits are not
// flushed to disk unless BENCH_DURABLE=1, so the figures compare the work of the two paths rather
// than the disk's flush time, which both pay per commit), applies Lookout's migrations, and runs
// everything in one process. Queue and baseline alternate, or run side by side, so that both
// meet the same machine (a busy machine slows both):
//
//   throughput, in BENCH_ROUNDS rounds of BENCH_EVENTS / BENCH_ROUNDS events, each round running
//   - baseline: INSERT a row into `bench_baseline` (event_queue's columns, constraints and
//     indexes, no triggers) and DELETE it by id, one autocommit statement each, one connection;
//   - burst: events.enqueue (a commit and a NOTIFY each) as fast as one producer connection can,
//     while one sync consumer (concurrency 1, a handler that does nothing) takes them: events/s
//     from the first enqueue to the last handled;
//   - drain: the events queued first, then taken by the sync consumer; and by an async consumer
//     in batches of 100;
//   latency, BENCH_PACED_EVENTS events at a steady BENCH_PACED_SHARE % of the burst's rate, each
//   tick queuing one event and running one baseline INSERT+DELETE at the same moment on another
//   connection: enqueue-to-handle time (from before enqueue to after the consumer's COMMIT)
//   against the baseline pair's time. The burst's own latencies (a backlog) are reported too.
//
// Ratios are the queue's figure over the baseline's, for the whole run and as the median of the
// rounds. Results go to stdout and bench/results/events.json.
//
// Environment: BENCH_EVENTS (10000), BENCH_ROUNDS (5), BENCH_PACED_EVENTS (2000),
// BENCH_PACED_SHARE (50), BENCH_DURABLE (1: flush every commit, as an installation does).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { median, percentile, positiveIntEnv, round } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/events.json');

const EVENTS = positiveIntEnv('BENCH_EVENTS', 10_000);
const ROUNDS = positiveIntEnv('BENCH_ROUNDS', 5);
const PACED_EVENTS = positiveIntEnv('BENCH_PACED_EVENTS', 2_000);
const PACED_SHARE = positiveIntEnv('BENCH_PACED_SHARE', 50);
const DURABLE = process.env.BENCH_DURABLE === '1';
const PER_ROUND = Math.ceil(EVENTS / ROUNDS);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const latencyOf = (ms) => ({
  p50Ms: round(percentile(ms, 50)),
  p95Ms: round(percentile(ms, 95)),
  p99Ms: round(percentile(ms, 99)),
});

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { createJobs } = await import(dist('jobs/jobs.js'));
  const { createEvents } = await import(dist('events/events.js'));

  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-events-', durable: DURABLE, logger });
  // The producer and the baseline on one pool (a connection each), the consumer on its own.
  const producer = createDatabase({ url: embedded.url, logger, max: 2 });
  const consumer = createDatabase({ url: embedded.url, logger, max: 4 });

  /** One baseline event: INSERT + DELETE; resolves with its time in ms. */
  const baselinePair = async () => {
    const started = performance.now();
    const { rows } = await producer.pool.query(
      `INSERT INTO bench_baseline (name, event_id, properties) VALUES ('check.failed', $1, '{"n": "x"}') RETURNING id`,
      [crypto.randomUUID()],
    );
    await producer.pool.query('DELETE FROM bench_baseline WHERE id = $1', [rows[0].id]);
    return performance.now() - started;
  };

  /** A queue with one consumer that notes when each event's pass committed. */
  function queueWith(mode) {
    const enqueuedAt = new Map();
    const handledAt = new Map();
    let current = [];
    const events = createEvents({
      pool: consumer.pool,
      logger,
      jobs: createJobs({ pool: consumer.pool, logger }),
      // Called once per event right after its pass committed.
      metrics: { recordEvent: () => handledAt.set(current.shift(), performance.now()) },
    });
    const handle =
      mode === 'sync'
        ? async (event) => {
            current.push(event.eventId);
          }
        : async (batch) => {
            current = batch.map((event) => event.eventId);
            return [];
          };
    events.consume({ mode, name: `Bench-${mode}`, events: ['check.failed'], batchSize: 100, handle });
    return {
      events,
      enqueue: async () => {
        const eventId = crypto.randomUUID();
        enqueuedAt.set(eventId, performance.now());
        await events.enqueue('check.failed', eventId, { n: 'x' }, { tx: producer.pool });
      },
      drained: async (count) => {
        while (handledAt.size < count) await sleep(2);
      },
      lastHandled: () => Math.max(...handledAt.values()),
      latencies: () => [...handledAt].map(([eventId, at]) => at - enqueuedAt.get(eventId)),
    };
  }

  try {
    await runMigrations(producer.pool, logger);
    await producer.pool.query(
      'CREATE TABLE bench_baseline (LIKE event_queue INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)',
    );
    const load = () =>
      os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ');
    console.log(
      `events bench: ${EVENTS.toLocaleString('en-US')} events in ${ROUNDS} rounds, ${DURABLE ? 'durable' : 'unflushed'} commits, load average ${load()} on ${os.cpus().length} CPUs`,
    );

    const rounds = [];
    const burstLatencies = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      const round_ = {};
      // Baseline.
      let started = performance.now();
      for (let i = 0; i < PER_ROUND; i += 1) await baselinePair();
      round_.baseline = PER_ROUND / ((performance.now() - started) / 1000);
      // Burst: producer and consumer at once.
      let queue = queueWith('sync');
      queue.events.start();
      await sleep(100);
      started = performance.now();
      for (let i = 0; i < PER_ROUND; i += 1) await queue.enqueue();
      round_.enqueued = PER_ROUND / ((performance.now() - started) / 1000);
      await queue.drained(PER_ROUND);
      round_.burst = PER_ROUND / ((queue.lastHandled() - started) / 1000);
      burstLatencies.push(...queue.latencies());
      await queue.events.stop();
      // Drains of a backlog: sync, then async in batches of 100.
      for (const mode of ['sync', 'async']) {
        queue = queueWith(mode);
        for (let i = 0; i < PER_ROUND; i += 1) await queue.enqueue();
        started = performance.now();
        queue.events.start();
        await queue.drained(PER_ROUND);
        round_[`${mode}Drain`] = PER_ROUND / ((performance.now() - started) / 1000);
        await queue.events.stop();
      }
      rounds.push(round_);
      console.log(
        `  round ${r + 1}: baseline ${round(round_.baseline)}/s, burst ${round(round_.burst)}/s (enqueued ${round(round_.enqueued)}/s), ` +
          `drain sync ${round(round_.syncDrain)}/s, async ${round(round_.asyncDrain)}/s (load ${load()})`,
      );
    }
    const total = (key) => round(rounds.reduce((sum, one) => sum + one[key], 0) / rounds.length);
    const medianRatio = (key) => round(median(rounds.map((one) => one[key] / one.baseline)));

    // Latency: paced, each tick an event and a baseline pair side by side.
    const rate = (median(rounds.map((one) => one.burst)) * PACED_SHARE) / 100;
    const queue = queueWith('sync');
    queue.events.start();
    await sleep(100);
    const pairMs = [];
    const started = performance.now();
    for (let i = 0; i < PACED_EVENTS; i += 1) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 1) await sleep(wait);
      const [, pair] = await Promise.all([queue.enqueue(), baselinePair()]);
      pairMs.push(pair);
    }
    await queue.drained(PACED_EVENTS);
    await queue.events.stop();
    const paced = {
      offeredPerSecond: round(rate),
      events: PACED_EVENTS,
      queue: latencyOf(queue.latencies()),
      baseline: latencyOf(pairMs),
    };
    console.log(
      `  paced at ${paced.offeredPerSecond}/s: queue p50 ${paced.queue.p50Ms} ms, p95 ${paced.queue.p95Ms} ms; ` +
        `baseline p50 ${paced.baseline.p50Ms} ms, p95 ${paced.baseline.p95Ms} ms`,
    );

    const output = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map(round),
      events: EVENTS,
      rounds: ROUNDS,
      durableCommits: DURABLE,
      eventsPerSecond: {
        baseline: total('baseline'),
        burst: total('burst'),
        enqueue: total('enqueued'),
        syncDrain: total('syncDrain'),
        asyncDrain: total('asyncDrain'),
      },
      burstLatency: latencyOf(burstLatencies),
      paced,
      ratios: {
        burstThroughputOverBaseline: medianRatio('burst'),
        syncDrainOverBaseline: medianRatio('syncDrain'),
        asyncDrainOverBaseline: medianRatio('asyncDrain'),
        enqueueOverBaseline: medianRatio('enqueued'),
        pacedP50OverBaseline: round(paced.queue.p50Ms / paced.baseline.p50Ms),
        pacedP95OverBaseline: round(paced.queue.p95Ms / paced.baseline.p95Ms),
      },
      perRound: rounds.map((one) => Object.fromEntries(Object.entries(one).map(([key, value]) => [key, round(value)]))),
    };
    const ratios = output.ratios;
    console.log(
      `events bench (ratios to the INSERT+DELETE loop, median of rounds): burst throughput x${ratios.burstThroughputOverBaseline}, ` +
        `drain x${ratios.syncDrainOverBaseline} sync, x${ratios.asyncDrainOverBaseline} async; ` +
        `paced latency p50 x${ratios.pacedP50OverBaseline}, p95 x${ratios.pacedP95OverBaseline}`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
    console.log(`events bench: results in ${path.relative(process.cwd(), resultsFile)}`);
  } finally {
    await consumer.close();
    await producer.close();
    await embedded.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
