import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, insertCheck, insertRule, startReceiver, type Receiver } from './notification-helpers.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/*
 * Kill-safety of the notification consumers with real processes: 60 checks fail under 10
 * rules (600 messages to a local webhook that answers slowly); the worker is SIGKILLed once a
 * third has arrived, and a second worker finishes. Each event is decided exactly once (one
 * trace, one history row per rule), every message arrives, and a message arrives twice only
 * if the kill fell between the webhook's answer and the outcome's write (at most the sends in
 * flight).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const WORKER = path.join(here, 'notification-worker.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const TSCONFIG = path.join(here, '..', 'tsconfig.check.json');
const CHECKS = 60;
const RULES = 10;
// The worker's sends in flight at most: 2 batches of 5.
const SEND_CONCURRENCY = 10;

let database: TestDatabase;
let receiver: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Each answer takes a little while, so sends are under way when the worker is killed.
  receiver = await startReceiver(undefined, 20);
}, 120_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver?.close();
  await database?.drop();
});

async function startWorker(label: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', TSX, WORKER], {
    env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG, NOTIFY_DATABASE_URL: database.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`worker ${label} exited (${code ?? signal}):\n${output}`)));
  });
  return child;
}

const count = async (sql: string) => (await database.pool.query<{ n: number }>(sql)).rows[0]!.n;

describe('a notification worker killed mid-way', () => {
  it('loses no message and decides each event once', async () => {
    for (let rule = 0; rule < RULES; rule++) {
      await insertRule(database.pool, {
        title: `rule ${rule}: {{ check.name }}`,
        events: ['check.failed'],
        filter: "check.name.startsWith('crash-')",
        custom_services: [{ url: `${receiver.url}/hook/${rule}` }],
      });
    }
    const checks: string[] = [];
    for (let n = 0; n < CHECKS; n++) checks.push((await insertCheck(database.pool, `crash-${n}`)).checkId);

    const first = await startWorker('first');
    await database.pool.query(`UPDATE checks SET status = 'unhealthy', last_runtime = now() WHERE id = ANY($1)`, [
      checks,
    ]);
    await eventually(async () => receiver.requests.length >= (CHECKS * RULES) / 3, 120_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = receiver.requests.length;

    const second = await startWorker('second');
    await eventually(
      async () =>
        (await count(`SELECT count(*)::int AS n FROM notification_send_history WHERE status = 'sent'`)) ===
        CHECKS * RULES,
      240_000,
    );
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));

    // Each event decided exactly once: one trace per check, one row per rule and check.
    expect(await count('SELECT count(*)::int AS n FROM notification_event_traces')).toBe(CHECKS);
    expect(await count('SELECT count(*)::int AS n FROM notification_send_history')).toBe(CHECKS * RULES);
    expect(await count(`SELECT count(*)::int AS n FROM event_queue`)).toBe(0);
    // Nothing lost: every row's message reached the webhook.
    const { rows } = await database.pool.query<{ id: string }>('SELECT id FROM notification_send_history');
    const received = receiver.requests.map((request) => String(request.headers['x-lookout-notification-id']));
    const distinct = new Set(received);
    expect(rows.every((row) => distinct.has(row.id))).toBe(true);
    expect(distinct.size).toBe(CHECKS * RULES);
    // A repeat only for a send under way at the kill.
    const repeats = received.length - distinct.size;
    expect(repeats).toBeLessThanOrEqual(SEND_CONCURRENCY);
    expect(atKill).toBeLessThan(CHECKS * RULES);
  }, 420_000);
});
