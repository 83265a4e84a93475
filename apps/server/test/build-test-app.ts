import path from 'node:path';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createSealer } from '../src/crypto/sealed-values.js';
import { createApp, type AppDeps } from '../src/http/app.js';
import { healthCli } from '../src/modules/health/health-module.js';
import type { Database } from '../src/db/database.js';
import { SERVER_VERSION } from '../src/version.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** The LOOKOUT_SECRET_KEY of test apps: stored credentials are sealed under it. */
export const TEST_SECRET_KEY = 'test-secret-key-of-the-lookout-test-apps-0123456789';

export type TestApp = { app: FastifyInstance; database: TestDatabase; close: () => Promise<void> };

/**
 * The real application on its own fresh database, for `app.inject` tests. `webDir` defaults
 * to a folder without a build, so route tests do not depend on `npm run build`.
 */
export async function buildTestApp(
  options: {
    webDir?: string;
    database?: Database;
    identity?: AppDeps['identity'];
    resolveRoles?: AppDeps['resolveRoles'];
    /** access: properties from the configuration (source local). */
    localProperties?: AppDeps['localProperties'];
    /** access: LOOKOUT_ADMIN_EMAIL (the first admin with an external Kratos). */
    adminEmail?: string;
    /** LOOKOUT_PUBLIC_URL, PORT (for links without it) and LOOKOUT_TRUST_PROXY. */
    publicUrl?: string;
    port?: number;
    trustProxy?: AppDeps['trustProxy'];
    /** Replaces the silent logger (tests that read what the server logs). */
    logger?: AppDeps['logger'];
    /** health: Run Now's timeout and the sandbox for exec scripts (without one they are refused). */
    health?: AppDeps['health'];
    /** metrics: the metrics token (GET /metrics on the app), or metrics shared with workers. */
    metrics?: AppDeps['metrics'];
    /** The sealer of stored credentials (default: one under {@link TEST_SECRET_KEY}). */
    sealer?: AppDeps['sealer'];
    /** secrets: LOOKOUT_SECRETS_KUBERNETES_CONNECTION (references read that cluster). */
    secretsKubernetesConnection?: string;
    /** topology: how often the planner looks for due topologies. */
    topology?: AppDeps['topology'];
    /** playbooks: the executor (workers: true) and its timings. */
    playbooks?: AppDeps['playbooks'];
    /** logs: the directories file and journald backends may read (LOOKOUT_LOG_FILE_ROOTS). */
    logs?: AppDeps['logs'];
    /** catalog: the directories file scrapers may read (LOOKOUT_SCRAPE_FILE_ROOTS). */
    catalog?: AppDeps['catalog'];
    /**
     * false: nothing runs in the background (no jobs, no event consumers, no module workers),
     * for tests that read what triggers queue as data before any consumer could claim it.
     */
    background?: boolean;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const logger = options.logger ?? pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });
  const identity = options.identity;
  const composed = await createApp({
    logger,
    database: options.database ?? database,
    version: SERVER_VERSION,
    webDir: options.webDir ?? path.join(os.tmpdir(), 'lookout-no-web-build'),
    sealer: options.sealer ?? createSealer(TEST_SECRET_KEY),
    ...(identity ? { identity } : {}),
    ...(options.resolveRoles ? { resolveRoles: options.resolveRoles } : {}),
    ...(options.localProperties ? { localProperties: options.localProperties } : {}),
    ...(options.adminEmail ? { adminEmail: options.adminEmail } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.health ? { health: options.health } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.topology ? { topology: options.topology } : {}),
    ...(options.playbooks ? { playbooks: options.playbooks } : {}),
    ...(options.logs ? { logs: options.logs } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.secretsKubernetesConnection
      ? { secretsKubernetesConnection: options.secretsKubernetesConnection }
      : {}),
    // The outbox sender also polls often, not only when LISTEN wakes it.
    courierPollIntervalMs: 100,
  });
  const { app } = composed;
  await app.ready();
  // The scheduled jobs and the modules' workers run as in `lookout serve` (buildApp starts only
  // the jobs): with an SMTP server the identity module's outbox sender delivers the mails the
  // tests read there. Health has workers only when a test passes `health.workers`.
  if (options.background !== false) composed.start();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** The settings `lookout serve` reads from the environment (LOOKOUT_ROLE, LOOKOUT_CHECK_*, ...). */
export const serveSettings = () => healthCli.readSettings(process.env);
