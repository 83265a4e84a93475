import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { pino } from 'pino';
import { createSealer } from '../src/crypto/sealed-values.js';
import { createApp, type ComposedApp } from '../src/http/app.js';
import type { IncidentSettings } from '../src/modules/incidents/incidents-module.js';
import { SERVER_VERSION } from '../src/version.js';
import { TEST_SECRET_KEY } from './build-test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** Helpers of the incident tests (src/modules/incidents/*.test.ts). */

export type IncidentTestApp = {
  app: FastifyInstance;
  composed: ComposedApp;
  database: TestDatabase;
  close: () => Promise<void>;
};

/**
 * The real application on a fresh database with the incident consumers running (jobs on long
 * timers: tests run them through the API), the outbox delivering to `smtpUrl` when given, and
 * the queue's back-off shortened.
 */
export async function buildIncidentTestApp(
  options: { smtpUrl?: string; incidents?: IncidentSettings } = {},
): Promise<IncidentTestApp> {
  const database = await createTestDatabase();
  const composed = await createApp({
    logger: pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' }),
    database,
    version: SERVER_VERSION,
    webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
    sealer: createSealer(TEST_SECRET_KEY),
    publicUrl: 'http://lookout.test',
    events: { backoffBaseMs: 200, backoffExponent: 1, pollIntervalMs: 300 },
    courierPollIntervalMs: 100,
    ...(options.smtpUrl ? { identity: { smtpUrl: options.smtpUrl, smtpFrom: 'Lookout <lookout@example.com>' } } : {}),
    incidents: { workers: true, evaluateEveryMs: 3_600_000, sweepEveryMs: 3_600_000, ...options.incidents },
  });
  await composed.app.ready();
  composed.start();
  return {
    app: composed.app,
    composed,
    database,
    close: async () => {
      await composed.app.close();
      await database.drop();
    },
  };
}

/** A canary with one http check; returns the check's id. */
export async function insertIncidentCheck(pool: pg.Pool, name: string): Promise<string> {
  const canary = await pool.query<{ id: string }>(
    `INSERT INTO canaries (name, namespace, spec) VALUES ($1, 'default', '{"http": []}') RETURNING id`,
    [`${name}-canary-${Math.random().toString(36).slice(2, 8)}`],
  );
  const check = await pool.query<{ id: string }>(
    `INSERT INTO checks (canary_id, type, name, namespace, spec) VALUES ($1, 'http', $2, 'default', '{}') RETURNING id`,
    [canary.rows[0]?.id, name],
  );
  return check.rows[0]?.id ?? '';
}
