import path from 'node:path';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp, type AppDeps } from '../src/http/app.js';
import type { Database } from '../src/db/database.js';
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
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const app = await buildApp({
    logger: options.logger ?? pino({ level: process.env.LOOKOUT_TEST_LOG_LEVEL ?? 'silent' }),
    database: options.database ?? database,
    version: SERVER_VERSION,
    webDir: options.webDir ?? path.join(os.tmpdir(), 'lookout-no-web-build'),
    ...(options.identity ? { identity: options.identity } : {}),
    ...(options.resolveRoles ? { resolveRoles: options.resolveRoles } : {}),
    ...(options.localProperties ? { localProperties: options.localProperties } : {}),
    ...(options.adminEmail ? { adminEmail: options.adminEmail } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.health ? { health: options.health } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
