/**
 * A worker process of the notification crash test (notification-crash.test.ts), run with tsx
 * as a real child process: the application as `lookout serve --role worker` composes it, on
 * the test's database, with the notification consumers running and no HTTP listener. It
 * prints `ready` once its consumers run; SIGTERM stops it gracefully, SIGKILL does not.
 *
 * Environment: NOTIFY_DATABASE_URL.
 */
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createSealer } from '../src/crypto/sealed-values.js';
import { createDatabase } from '../src/db/database.js';
import { createApp } from '../src/http/app.js';
import { SERVER_VERSION } from '../src/version.js';
import { TEST_SECRET_KEY } from './build-test-app.js';

const url = process.env.NOTIFY_DATABASE_URL;
if (!url) throw new Error('NOTIFY_DATABASE_URL is not set');
const logger = pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });
const database = createDatabase({ url, logger, max: 20 });
const composed = await createApp({
  logger,
  database,
  version: SERVER_VERSION,
  webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
  sealer: createSealer(TEST_SECRET_KEY),
  publicUrl: 'http://lookout.test',
  events: { backoffBaseMs: 200, backoffExponent: 1, pollIntervalMs: 1_000 },
  notifications: { workers: true, sendConcurrency: 2, sendBatchSize: 5, decideConcurrency: 2 },
});
await composed.app.ready();
composed.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void composed
    .stop()
    .then(() => composed.app.close())
    .then(() => database.close())
    .then(() => process.exit(0));
});
