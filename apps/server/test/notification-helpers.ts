import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { pino } from 'pino';
import { createSealer } from '../src/crypto/sealed-values.js';
import { createApp } from '../src/http/app.js';
import type { NotificationSettings } from '../src/modules/notifications/notifications-module.js';
import { SERVER_VERSION } from '../src/version.js';
import { TEST_SECRET_KEY } from './build-test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** Helpers of the notification tests (src/modules/notifications/*.test.ts). */

export type NotificationTestApp = { app: FastifyInstance; database: TestDatabase; close: () => Promise<void> };

/**
 * The real application on a fresh database with the notification consumers running and the
 * queue's back-off shortened (a failed send is retried after about 200 ms).
 */
export async function buildNotificationTestApp(settings: NotificationSettings = {}): Promise<NotificationTestApp> {
  const database = await createTestDatabase();
  const composed = await createApp({
    logger: pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' }),
    database,
    version: SERVER_VERSION,
    webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
    sealer: createSealer(TEST_SECRET_KEY),
    publicUrl: 'http://lookout.test',
    events: { backoffBaseMs: 200, backoffExponent: 1, pollIntervalMs: 500 },
    notifications: { workers: true, ...settings },
  });
  await composed.app.ready();
  composed.start();
  return {
    app: composed.app,
    database,
    close: async () => {
      await composed.app.close();
      await database.drop();
    },
  };
}

/** Resolves once `condition` holds (polled, up to `timeoutMs`), so no test depends on the machine's speed. */
export async function eventually<T>(
  condition: () => Promise<T | undefined | false | null>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A request a receiver got. */
export type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

export type Receiver = {
  url: string;
  requests: Received[];
  /** The next answers, in order (then 200 `{"ok":true}`). */
  answers: { status: number; body?: string }[];
  close: () => Promise<void>;
};

/** A local HTTP server that records every request and answers 200 unless told otherwise. */
export function startReceiver(
  answer?: (request: Received) => { status: number; body?: string } | undefined,
  /** How long each answer takes (a slow service). */
  delayMs = 0,
): Promise<Receiver> {
  const requests: Received[] = [];
  const answers: Receiver['answers'] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const received = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      requests.push(received);
      const next = answer?.(received) ?? answers.shift() ?? { status: 200, body: '{"ok":true}' };
      setTimeout(() => {
        response.writeHead(next.status, { 'content-type': 'application/json' });
        response.end(next.body ?? '{"ok":true}');
      }, delayMs);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        answers,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

/** A canary with one http check; returns their ids. */
export async function insertCheck(pool: pg.Pool, name = 'api'): Promise<{ canaryId: string; checkId: string }> {
  const canary = await pool.query<{ id: string }>(
    `INSERT INTO canaries (name, namespace, spec) VALUES ($1, 'default', '{"http": []}') RETURNING id`,
    [`${name}-canary-${Math.random().toString(36).slice(2, 8)}`],
  );
  const canaryId = canary.rows[0]!.id;
  const check = await pool.query<{ id: string }>(
    `INSERT INTO checks (canary_id, type, name, spec) VALUES ($1, 'http', $2, '{}') RETURNING id`,
    [canaryId, name],
  );
  return { canaryId, checkId: check.rows[0]!.id };
}

/** Sets a check's status, which queues check.failed / check.passed (migration 13's trigger). */
export async function setCheckStatus(pool: pg.Pool, checkId: string, status: 'healthy' | 'unhealthy'): Promise<void> {
  await pool.query(`UPDATE checks SET status = $2, last_runtime = now() WHERE id = $1`, [checkId, status]);
}

/** Inserts a rule as the rules dialog would (source UI); returns its id. */
export async function insertRule(pool: pg.Pool, rule: Record<string, unknown>): Promise<string> {
  const columns = Object.keys(rule);
  const values = columns.map((column) => {
    const value = rule[column];
    return column === 'custom_services' || column === 'properties' ? JSON.stringify(value) : value;
  });
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO notifications (${columns.join(', ')}) VALUES (${columns.map((_c, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    values,
  );
  return rows[0]!.id;
}

/** History rows of a rule, oldest first. */
export async function historyOf(pool: pg.Pool, ruleId: string) {
  const { rows } = await pool.query<{
    id: string;
    status: string;
    count: number;
    error: string | null;
    retries: number;
    duration_millis: number | null;
    silenced_by: string | null;
    parent_id: string | null;
    title: string;
    body: string;
    trace_id: string | null;
  }>('SELECT * FROM notification_send_history WHERE notification_id = $1 ORDER BY created_at, id', [ruleId]);
  return rows;
}

/** Resolves once no check or notification event is queued (every one taken). */
export async function queueDrained(pool: pg.Pool, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_queue WHERE name LIKE 'check.%' OR (name = 'notification.send' AND attempts = 0)`,
    );
    return rows[0]!.n === 0;
  }, timeoutMs);
}
