#!/usr/bin/env node
// Benchmark of the event queue (apps/server/src/events, docs/events.md): BENCH_EVENTS events
// through one consumer, against a plain INSERT + DELETE loop on a table like event_queue.
//
//   npm run bench -- events              (builds first)
//   BENCH_EVENTS=2000 node bench/events/run.mjs
//
// It starts a throwaway embedded PostgreSQL (@lookout/embedded-postgres/testing; commits are not
// flushed to disk unless BENCH_DURABLE=1, so the figures compare the work of the two paths rather
// than the disk's flush time, which both pay per commit), applies Lookout's migrations, and in
// one process measures, in this order:
//
//   1. baseline: for each event, INSERT a row into `bench_baseline` (event_queue's columns,
//      constraints and indexes, no triggers) and DELETE it by id, one autocommit statement
//      each, on one connection: events/s, and each pair's time (p50/p95/p99);
//   2. burst: the events queued one by one with events.enqueue (a commit and a NOTIFY each) as
//      fast as one producer connection can, while one sync consumer (concurrency 1, a handler
//      that does nothing) takes them: events/s from the first enqueue to the last handled, and
//      each event's enqueue-to-handle time (from before enqueue to after the consumer's COMMIT);
//   3. paced: the same at a steady BENCH_PACED_SHARE of the burst's rate, so the latency is the
//      wake-up path (NOTIFY, claim, commit) rather than a backlog;
//   4. backlog: the events queued first, then drained by the sync consumer, and by an async
//      consumer taking batches of 100: events/s of the drain alone.
//
// Ratios: burst events/s over the baseline's, paced p95 over the baseline's p95. Results go to
// stdout and bench/results/events.json.
//
// Environment: BENCH_EVENTS (10000), BENCH_PACED_SHARE (percent, 50), BENCH_DURABLE (1: flush
// every commit, as an installation does).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { percentile, positiveIntEnv, round } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/events.json');

const EVENTS = positiveIntEnv('BENCH_EVENTS', 10_000);
const PACED_SHARE = positiveIntEnv('BENCH_PACED_SHARE', 50);
const DURABLE = process.env.BENCH_DURABLE === '1';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const latencyOf = (ms) => ({
  p50Ms: round(percentile(ms, 50)),
  p95Ms: round(percentile(ms, 95)),
  p99Ms: round(percentile(ms, 99)),
  maxMs: round(Math.max(...ms)),
});

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { createJobs } = await import(dist('jobs/jobs.js'));
  const { createEvents } = await import(dist('events/events.js'));

  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-events-', durable: DURABLE, logger });
  // Producer and baseline on one pool, the consumer on its own (as two replicas would be).
  const producer = createDatabase({ url: embedded.url, logger, max: 2 });
  const consumer = createDatabase({ url: embedded.url, logger, max: 4 });
  try {
    await runMigrations(producer.pool, logger);
    await producer.pool.query(
      'CREATE TABLE bench_baseline (LIKE event_queue INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)',
    );
    console.log(
      `events bench: ${EVENTS.toLocaleString('en-US')} events, ${DURABLE ? 'durable' : 'unflushed'} commits, load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} on ${os.cpus().length} CPUs`,
    );

    // 1. The baseline: INSERT + DELETE per event.
    const baselineMs = [];
    let started = performance.now();
    for (let i = 0; i < EVENTS; i += 1) {
      const t = performance.now();
      const { rows } = await producer.pool.query(
        `INSERT INTO bench_baseline (name, event_id, properties) VALUES ('check.failed', $1, '{"n": "x"}') RETURNING id`,
        [crypto.randomUUID()],
      );
      await producer.pool.query('DELETE FROM bench_baseline WHERE id = $1', [rows[0].id]);
      baselineMs.push(performance.now() - t);
    }
    const baseline = {
      eventsPerSecond: round(EVENTS / ((performance.now() - started) / 1000)),
      ...latencyOf(baselineMs),
    };
    console.log(`  baseline INSERT+DELETE: ${baseline.eventsPerSecond} events/s, p95 ${baseline.p95Ms} ms`);

    /** One queue with one consumer that notes when each event's transaction committed. */
    function queueWith(mode) {
      const jobs = createJobs({ pool: consumer.pool, logger });
      const enqueuedAt = new Map();
      const handledAt = new Map();
      let current = [];
      const events = createEvents({
        pool: consumer.pool,
        logger,
        jobs,
        // Called once per event right after its pass committed (sync: one event per pass).
        metrics: { recordEvent: () => handledAt.set(current.shift(), performance.now()) },
      });
      if (mode === 'sync') {
        events.consume({
          mode: 'sync',
          name: 'BenchSync',
          events: ['check.failed'],
          handle: async (event) => {
            current.push(event.eventId);
          },
        });
      } else {
        events.consume({
          mode: 'async',
          name: 'BenchAsync',
          events: ['check.failed'],
          batchSize: 100,
          handle: async (batch) => {
            current = batch.map((event) => event.eventId);
            return [];
          },
        });
      }
      const enqueue = async (pool) => {
        const eventId = crypto.randomUUID();
        enqueuedAt.set(eventId, performance.now());
        await events.enqueue('check.failed', eventId, { n: 'x' }, pool ? { tx: pool } : {});
      };
      const drained = async () => {
        while (handledAt.size < EVENTS) await sleep(5);
      };
      const latencies = () => [...handledAt].map(([eventId, at]) => at - enqueuedAt.get(eventId));
      return { events, enqueue, drained, latencies, handledAt };
    }

    // 2. Burst: produce as fast as one connection can while the consumer runs.
    let queue = queueWith('sync');
    queue.events.start();
    await sleep(200);
    started = performance.now();
    for (let i = 0; i < EVENTS; i += 1) await queue.enqueue(producer.pool);
    const producedPerSecond = EVENTS / ((performance.now() - started) / 1000);
    await queue.drained();
    const burst = {
      eventsPerSecond: round(EVENTS / ((Math.max(...queue.handledAt.values()) - started) / 1000)),
      enqueuedPerSecond: round(producedPerSecond),
      ...latencyOf(queue.latencies()),
    };
    await queue.events.stop();
    console.log(
      `  queue burst: ${burst.eventsPerSecond} events/s handled (enqueued at ${burst.enqueuedPerSecond}/s), p95 ${burst.p95Ms} ms`,
    );

    // 3. Paced: a steady share of the burst's rate.
    const rate = (burst.eventsPerSecond * PACED_SHARE) / 100;
    queue = queueWith('sync');
    queue.events.start();
    await sleep(200);
    started = performance.now();
    for (let i = 0; i < EVENTS; i += 1) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      await queue.enqueue(producer.pool);
    }
    await queue.drained();
    const paced = { offeredPerSecond: round(rate), ...latencyOf(queue.latencies()) };
    await queue.events.stop();
    console.log(`  queue paced at ${paced.offeredPerSecond} events/s: p50 ${paced.p50Ms} ms, p95 ${paced.p95Ms} ms`);

    // 4. Backlog: queue everything, then drain (sync, then async in batches of 100).
    const backlog = {};
    for (const mode of ['sync', 'async']) {
      queue = queueWith(mode);
      for (let i = 0; i < EVENTS; i += 1) await queue.enqueue(producer.pool);
      started = performance.now();
      queue.events.start();
      await queue.drained();
      backlog[mode] = round(EVENTS / ((performance.now() - started) / 1000));
      await queue.events.stop();
    }
    console.log(
      `  queue backlog drain: sync ${backlog.sync} events/s, async (batches of 100) ${backlog.async} events/s`,
    );

    const output = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map(round),
      events: EVENTS,
      durableCommits: DURABLE,
      baseline,
      burst,
      paced,
      backlogDrainEventsPerSecond: backlog,
      ratios: {
        burstThroughputOverBaseline: round(burst.eventsPerSecond / baseline.eventsPerSecond),
        pacedP95OverBaselineP95: round(paced.p95Ms / baseline.p95Ms),
        burstP95OverBaselineP95: round(burst.p95Ms / baseline.p95Ms),
        syncDrainOverBaseline: round(backlog.sync / baseline.eventsPerSecond),
        asyncDrainOverBaseline: round(backlog.async / baseline.eventsPerSecond),
      },
    };
    console.log(
      `events bench: throughput x${output.ratios.burstThroughputOverBaseline} of the INSERT+DELETE loop, ` +
        `paced p95 x${output.ratios.pacedP95OverBaselineP95} of its p95 (burst p95 x${output.ratios.burstP95OverBaselineP95}); ` +
        `backlog drain x${output.ratios.syncDrainOverBaseline} sync, x${output.ratios.asyncDrainOverBaseline} async`,
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
