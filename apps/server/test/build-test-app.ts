import path from 'node:path';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp, type AppDeps } from '../src/http/app.js';
import { createCourierRepository } from '../src/modules/identity/identity-courier-repository.js';
import {
  createCourierSender,
  createSmtpTransport,
  type CourierSender,
} from '../src/modules/identity/identity-courier-sender.js';
import { createSecretBox, randomToken } from '../src/modules/identity/identity-crypto.js';
import type { Database } from '../src/db/database.js';
import { createJobs } from '../src/jobs/jobs.js';
import { SERVER_VERSION } from '../src/version.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

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
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const logger = options.logger ?? pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' });
  // The courier sender opens the outbox's bodies with the app's secret key, so both get one.
  const identity = options.identity
    ? { ...options.identity, secretKey: options.identity.secretKey ?? randomToken() }
    : undefined;
  const app = await buildApp({
    logger,
    database: options.database ?? database,
    version: SERVER_VERSION,
    webDir: options.webDir ?? path.join(os.tmpdir(), 'lookout-no-web-build'),
    ...(identity ? { identity } : {}),
    ...(options.resolveRoles ? { resolveRoles: options.resolveRoles } : {}),
    ...(options.localProperties ? { localProperties: options.localProperties } : {}),
    ...(options.adminEmail ? { adminEmail: options.adminEmail } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.health ? { health: options.health } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  await app.ready();
  // With an SMTP server, the outbox is delivered as `lookout serve` does it (server.ts), so
  // tests read the mails from that server; it polls often instead of listening.
  let courier: CourierSender | undefined;
  if (identity?.smtpUrl) {
    courier = createCourierSender({
      repository: createCourierRepository((options.database ?? database).pool),
      box: createSecretBox(identity.secretKey),
      transport: createSmtpTransport(identity.smtpUrl),
      from: identity.smtpFrom ?? 'Lookout <no-reply@lookout.local>',
      logger,
      jobs: createJobs({ pool: (options.database ?? database).pool, logger }),
      settings: { pollIntervalMs: 100 },
    });
    courier.start();
  }
  return {
    app,
    database,
    close: async () => {
      await courier?.stop();
      await app.close();
      await database.drop();
    },
  };
}
