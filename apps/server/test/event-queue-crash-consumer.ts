/**
 * The consumer process of the crash test (event-queue-crash.test.ts), run with tsx as a real
 * child process: the jobs and the event queue of `lookout serve`, built the same way, on the
 * test's database, with two consumers that record what they handle.
 *
 * - `check.failed` (sync, 4 at once): records the event in `crash_handled` inside the
 *   handling transaction, so a recorded event is a handled one (exactly once).
 * - `check.passed` (async, batches of 20, 2 at once): records each event with a statement of its
 *   own before returning, as a call to another system would be (at least once).
 *
 * An event whose property `fail` is `always` is refused on every try (it ends as a dead letter
 * with its error); `once` is refused on its first try only. CRASH_HOLD names the `n` of one
 * sync and one async event whose handler, once it has recorded its work, never returns: the
 * parent kills this process while those transactions are open. SIGTERM stops it gracefully.
 *
 * Environment: CRASH_DATABASE_URL, CRASH_PROCESS (a label), CRASH_HOLD (e.g. "7,1407"),
 * CRASH_SETTINGS (the queue's settings as JSON).
 */
import { pino } from 'pino';
import { createDatabase } from '../src/db/database.js';
import { createEvents } from '../src/events/events.js';
import { createJobs } from '../src/jobs/jobs.js';

const url = process.env.CRASH_DATABASE_URL;
const label = process.env.CRASH_PROCESS ?? 'consumer';
const hold = new Set((process.env.CRASH_HOLD ?? '').split(',').filter(Boolean));
if (!url) throw new Error('CRASH_DATABASE_URL is not set');

const logger = pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });
const database = createDatabase({ url, logger, max: 12 });
const jobs = createJobs({ pool: database.pool, logger });
// The parent's back-off and poll settings (short, so dead letters settle within the test).
const settings = JSON.parse(process.env.CRASH_SETTINGS ?? '{}') as Record<string, number>;
const events = createEvents({ pool: database.pool, logger, jobs, settings });

const forever = new Promise<never>(() => undefined);
const refuse = (properties: Record<string, string>, attempts: number) => {
  if (properties.fail === 'always' || (properties.fail === 'once' && attempts === 0)) {
    throw new Error(`refused on purpose: event ${properties.n}`);
  }
};
/** Says (outside any transaction) that this process now holds event n open, for the parent. */
const holding = (n: string) =>
  database.pool.query('INSERT INTO crash_holds (process, n) VALUES ($1, $2)', [label, Number(n)]);

events.consume({
  mode: 'sync',
  name: 'CrashSync',
  events: ['check.failed'],
  concurrency: 4,
  handle: async (event, { tx }) => {
    refuse(event.properties, event.attempts);
    await tx.query('INSERT INTO crash_handled (id, process, mode) VALUES ($1, $2, $3)', [event.id, label, 'sync']);
    if (hold.has(event.properties.n ?? '')) {
      await holding(event.properties.n!);
      await forever;
    }
  },
});

events.consume({
  mode: 'async',
  name: 'CrashAsync',
  events: ['check.passed'],
  batchSize: 20,
  concurrency: 2,
  handle: async (batch) => {
    const failed = [];
    let held: string | undefined;
    for (const event of batch) {
      try {
        refuse(event.properties, event.attempts);
      } catch (error) {
        failed.push({ event, error });
        continue;
      }
      await database.pool.query('INSERT INTO crash_handled (id, process, mode) VALUES ($1, $2, $3)', [
        event.id,
        label,
        'async',
      ]);
      if (hold.has(event.properties.n ?? '')) held = event.properties.n;
    }
    if (held) {
      await holding(held);
      await forever;
    }
    return failed;
  },
});

events.start();
process.stdout.write('ready\n');

process.on('SIGTERM', () => {
  void (async () => {
    await events.stop();
    await jobs.stop();
    await database.close();
    process.exit(0);
  })();
});
