import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './event-helpers.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/*
 * "Killing the server while events are queued loses none: after restart every event is
 * delivered or left as a dead letter with its error" (issue 12, docs/events.md).
 *
 * 2,000 events are queued; a consumer process (event-queue-crash-consumer.ts: the jobs and the
 * event queue as `lookout serve` builds them) handles them until it holds one sync and one
 * async event open mid-transaction and has handled at least 600, and is then killed with
 * SIGKILL. A second process takes over. In the end every event has been handled (sync ones
 * exactly once, async ones at least once) or is a dead letter with the error of its last try;
 * no event is lost and no other row is left in the queue.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const CONSUMER = path.join(here, 'event-queue-crash-consumer.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
// @lookout/contracts from its sources, as the server's tests read it (no build needed).
const TSCONFIG = path.join(here, '..', 'tsconfig.check.json');

const TOTAL = 2_000;
const SYNC_EVENTS = 1_400; // n 1..1400 are check.failed (sync), the rest check.passed (async)
const SETTINGS = { backoffBaseMs: 20, backoffExponent: 1, maxRetries: 3, pollIntervalMs: 250 };
const HELD = { sync: 7, async: 1_407 };

let database: TestDatabase;
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(`
    CREATE TABLE crash_handled (id uuid NOT NULL, process text NOT NULL, mode text NOT NULL,
                                at timestamptz NOT NULL DEFAULT clock_timestamp());
    CREATE TABLE crash_holds (process text NOT NULL, n integer NOT NULL)`);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await database.drop();
});

/** Starts a consumer process and resolves once its consumers run. */
async function startConsumer(label: string, hold: number[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', TSX, CONSUMER], {
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: TSCONFIG,
      CRASH_DATABASE_URL: database.url,
      CRASH_PROCESS: label,
      CRASH_HOLD: hold.join(','),
      CRASH_SETTINGS: JSON.stringify(SETTINGS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`The consumer ${label} exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
  return child;
}

const count = async (sql: string, values: unknown[] = []) =>
  (await database.pool.query<{ n: number }>(sql, values)).rows[0]!.n;

describe('a consumer process killed while events are queued', () => {
  it(
    'loses no event: after a restart each is handled or a dead letter with its error',
    { timeout: 240_000 },
    async () => {
      // 2,000 events; every 20th is refused on every try, every 20th (offset 10) on its first.
      await database.pool.query(
        `SELECT lookout_enqueue_event(
         CASE WHEN n <= $1 THEN 'check.failed' ELSE 'check.passed' END,
         gen_random_uuid(),
         jsonb_build_object('n', n::text, 'fail', CASE WHEN n % 20 = 0 THEN 'always' WHEN n % 20 = 10 THEN 'once' ELSE 'no' END))
       FROM generate_series(1, $2::int) AS n`,
        [SYNC_EVENTS, TOTAL],
      );
      const queued = (
        await database.pool.query<{ id: string; name: string; n: number; fail: string }>(
          `SELECT id, name, (properties->>'n')::int AS n, properties->>'fail' AS fail FROM event_queue`,
        )
      ).rows;
      expect(queued).toHaveLength(TOTAL);

      // The first process: killed once it holds its two events open and has handled 600.
      const first = await startConsumer('first', [HELD.sync, HELD.async]);
      await until(
        async () =>
          (await count('SELECT count(DISTINCT n)::int AS n FROM crash_holds')) === 2 &&
          (await count('SELECT count(DISTINCT id)::int AS n FROM crash_handled')) >= 600,
        20,
      );
      first.kill('SIGKILL');
      await once(first, 'exit');
      const handledBeforeKill = await count('SELECT count(DISTINCT id)::int AS n FROM crash_handled');
      const waiting = await count('SELECT count(*)::int AS n FROM event_queue WHERE attempts <= $1', [
        SETTINGS.maxRetries,
      ]);
      // Killed mid-way: work was left, and the held sync event's write went with its transaction.
      expect(waiting).toBeGreaterThan(0);
      const heldSync = queued.find((event) => event.n === HELD.sync)!;
      const heldAsync = queued.find((event) => event.n === HELD.async)!;
      expect(await count('SELECT count(*)::int AS n FROM crash_handled WHERE id = $1', [heldSync.id])).toBe(0);
      expect(
        await count('SELECT count(*)::int AS n FROM event_queue WHERE id = ANY ($1)', [[heldSync.id, heldAsync.id]]),
      ).toBe(2);

      // The restart: a second process takes every event that is left.
      const second = await startConsumer('second');
      await until(
        async () =>
          (await count('SELECT count(*)::int AS n FROM event_queue WHERE attempts <= $1', [SETTINGS.maxRetries])) === 0,
        50,
      );
      second.kill('SIGTERM');
      const [code] = (await once(second, 'exit')) as [number | null];
      expect(code).toBe(0);

      const handled = new Map<string, { times: number; processes: string[]; mode: string }>();
      for (const row of (
        await database.pool.query<{ id: string; times: number; processes: string[]; mode: string }>(
          `SELECT id, count(*)::int AS times, array_agg(process ORDER BY at) AS processes, min(mode) AS mode
         FROM crash_handled GROUP BY id`,
        )
      ).rows) {
        handled.set(row.id, row);
      }
      const left = new Map(
        (
          await database.pool.query<{ id: string; attempts: number; error: string | null }>(
            'SELECT id, attempts, error FROM event_queue',
          )
        ).rows.map((row) => [row.id, row]),
      );

      const lost: number[] = [];
      let deadLetters = 0;
      let redelivered = 0;
      for (const event of queued) {
        const record = handled.get(event.id);
        const dead = left.get(event.id);
        if (event.fail === 'always') {
          // Refused on every try: a dead letter after 1 + maxRetries tries, with its error; a
          // sync one left no write behind.
          expect(dead).toEqual({
            id: event.id,
            attempts: SETTINGS.maxRetries + 1,
            error: `refused on purpose: event ${event.n}`,
          });
          expect(record).toBeUndefined();
          deadLetters += 1;
        } else if (!record || dead) {
          lost.push(event.n);
        } else if (event.name === 'check.failed') {
          expect(record.times, `sync event ${event.n} handled once`).toBe(1);
        } else if (record.times > 1) {
          redelivered += 1;
        }
      }
      expect(lost).toEqual([]);
      expect(deadLetters).toBe(TOTAL / 20);
      // Nothing else is left in the queue.
      expect(left.size).toBe(deadLetters);
      // The held events: the sync one handled once, by the second process; the async one's work
      // was done by the first and again by the second (at least once).
      expect(handled.get(heldSync.id)).toMatchObject({ times: 1, processes: ['second'] });
      expect(handled.get(heldAsync.id)).toMatchObject({ times: 2, processes: ['first', 'second'] });
      expect(redelivered).toBeGreaterThanOrEqual(1);
      console.warn(
        `crash test: ${TOTAL} events, ${handledBeforeKill} handled before SIGKILL, ${waiting} waiting after it; ` +
          `${TOTAL - deadLetters} handled in the end, ${deadLetters} dead letters with their errors, ` +
          `${redelivered} async events delivered twice (at least once), none lost`,
      );
    },
  );
});
