#!/usr/bin/env node
// A worker of the notifications benchmark (run.mjs), in its own process so the bench can
// SIGKILL it: the built application as `lookout serve --role worker` composes it, on the
// bench's database, with the notification consumers running and no HTTP listener. Prints
// `ready` once they run. Environment: BENCH_DATABASE_URL, BENCH_SEND_CONCURRENCY (4), BENCH_SEND_BATCH (10),
// BENCH_DECIDE_CONCURRENCY (4).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino } from 'pino';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const { createDatabase } = await import(dist('db/database.js'));
const { createApp } = await import(dist('http/app.js'));
const { createSealer } = await import(dist('crypto/sealed-values.js'));
const { SERVER_VERSION } = await import(dist('version.js'));

const logger = pino({ level: 'warn' });
const database = createDatabase({ url: process.env.BENCH_DATABASE_URL, logger, max: 30 });
const composed = await createApp({
  logger,
  database,
  version: SERVER_VERSION,
  webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
  sealer: createSealer('bench-secret-key-of-the-notifications-benchmark-0123456789'),
  publicUrl: 'http://lookout.bench',
  events: { backoffBaseMs: 1_000, backoffExponent: 1 },
  notifications: {
    workers: true,
    sendConcurrency: Number(process.env.BENCH_SEND_CONCURRENCY ?? 4),
    sendBatchSize: Number(process.env.BENCH_SEND_BATCH ?? 10),
    decideConcurrency: Number(process.env.BENCH_DECIDE_CONCURRENCY ?? 4),
  },
});
await composed.app.ready();
composed.start();
process.stdout.write('ready\n');
