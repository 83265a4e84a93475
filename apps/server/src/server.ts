import path from 'node:path';
import type { Logger } from 'pino';
import type { CanaryApplySource } from '@lookout/contracts';
import { redactUrl } from '@lookout/contracts';
import type { Config } from './config/config.js';
import { assertSupportedVersion, createDatabase, type Database } from './db/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@lookout/embedded-postgres';
import { recordStart } from './db/installation.js';
import { runMigrations } from './db/migrate.js';
import { createApp, type ComposedApp } from './http/app.js';
import { publicUrlWarning } from './http/public-url.js';
import { DEFAULT_WEB_DIR } from './http/web-app.js';
import { ensureAdminRole, loadLocalProperties } from './modules/access/access-module.js';
import {
  applyCanaryFiles,
  attachToRunningEmbedded,
  ensureSelfCanary,
  readHealthSettings,
  selfCanaryTargets,
  type ApplyLine,
  type HealthSettings,
} from './modules/health/health-module.js';
import {
  assertSharedSecretKey,
  DEFAULT_ADMIN_EMAIL,
  ensureAdminIdentity,
  identitySettingsFromConfig,
  logEmailDelivery,
  SECRET_KEY_FILE,
} from './modules/identity/identity-module.js';
import { protectDataDir } from './sandbox/protect-data-dir.js';
import { createSandbox } from './sandbox/sandbox.js';
import { SERVER_VERSION } from './version.js';

export type RunningDatabase = { database: Database; embedded?: EmbeddedDatabase };

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL when it is not set. */
export async function openDatabase(config: Config, logger: Logger): Promise<RunningDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, logger });
    url = embedded.url;
  } else {
    logger.info({ database: redactUrl(url) }, 'Using the PostgreSQL at DATABASE_URL');
  }
  const database = createDatabase({ url, logger });
  try {
    const version = await assertSupportedVersion(database);
    logger.info({ postgres: version }, 'Connected to PostgreSQL');
  } catch (error) {
    await database.close();
    await embedded?.stop();
    throw error;
  }
  return { database, ...(embedded ? { embedded } : {}) };
}

export async function closeDatabase({ database, embedded }: RunningDatabase): Promise<void> {
  await database.close();
  await embedded?.stop();
}

/** `lookout migrate`: apply pending migrations and exit. */
export async function migrateOnly(config: Config, logger: Logger): Promise<void> {
  const running = await openDatabase(config, logger);
  try {
    const applied = await runMigrations(running.database.pool, logger);
    if (applied.length === 0) logger.info('The database schema is up to date');
  } finally {
    await closeDatabase(running);
  }
}

/**
 * `lookout serve`: database, migrations, HTTP. SIGINT and SIGTERM stop accepting requests,
 * let in-flight ones finish, then stop the embedded PostgreSQL cleanly.
 */
export async function serve(
  config: Config,
  logger: Logger,
  health: HealthSettings = readHealthSettings(process.env),
): Promise<void> {
  const running = await openDatabase(config, logger);
  let composed: ComposedApp | undefined;
  let stopping: Promise<void> | undefined;
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal }, 'Shutting down');
      try {
        // Every module's background work first (the check scheduler and the email outbox stop
        // claiming, jobs under way finish), then the HTTP server, then the database.
        await composed?.stop();
        await composed?.app.close();
      } finally {
        await closeDatabase(running);
      }
    })();
    return stopping;
  };
  // Ctrl-C signals the whole process group; the embedded PostgreSQL runs in a session of its
  // own, so it keeps serving until this shutdown stops it last. A repeated signal (npm
  // forwards the one it got too) changes nothing: the shutdown under way finishes.
  const onStopSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    void shutdown(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onStopSignal);
  process.on('SIGTERM', onStopSignal);

  try {
    await runMigrations(running.database.pool, logger);
    const installation = await recordStart(running.database.pool, SERVER_VERSION);
    logger.info(
      { installationId: installation.id, firstStartedAt: installation.firstStartedAt.toISOString() },
      'Installation record loaded',
    );
    // identity: the secret key, then the first admin (once, on an empty identity store).
    const identity = await identitySettingsFromConfig(config, logger);
    // Replicas must share the key that keys codes and encrypts TOTP seeds: a different one stops here.
    await assertSharedSecretKey({
      pool: running.database.pool,
      secretKey: identity.secretKey,
      ...(config.secretKey ? {} : { keyFile: path.join(config.dataDir, SECRET_KEY_FILE) }),
    });
    if (config.kratosPublicUrl) {
      // Identities live in that Kratos: Lookout can create none at start, and a person here
      // may come from an unverified sign-up, so the admin role goes to the admin email once
      // Kratos has verified it, at sign-in (buildApp, access-bootstrap.ts).
      logger.info(
        { kratosPublicUrl: config.kratosPublicUrl, userAdministration: Boolean(config.kratosAdminUrl) },
        'Identities live in an external Ory Kratos (KRATOS_PUBLIC_URL); /api/.ory is a proxy to it',
      );
    } else {
      const createdAdminId = await ensureAdminIdentity({
        pool: running.database.pool,
        dataDir: config.dataDir,
        logger,
        ...(config.adminEmail ? { adminEmail: config.adminEmail } : {}),
        ...(config.adminPassword ? { adminPassword: config.adminPassword } : {}),
      });
      // access: the first admin gets the admin role; with no active admin left, the person
      // with the admin email gets it back.
      await ensureAdminRole({
        pool: running.database.pool,
        logger,
        ...(createdAdminId ? { createdAdminId } : {}),
        adminEmail: config.adminEmail ?? DEFAULT_ADMIN_EMAIL,
      });
    }
    // Local properties are read once, here.
    const localProperties = await loadLocalProperties({
      ...(config.properties !== undefined ? { inline: config.properties } : {}),
      ...(config.propertiesFile ? { file: config.propertiesFile } : {}),
      dataDir: config.dataDir,
    });
    if (localProperties.length > 0) {
      logger.info({ properties: localProperties.map((property) => property.name) }, 'Loaded local properties');
    }
    // sandbox: what Lookout wrote into its data directory is private to its user, then the
    // isolation for exec check scripts is chosen once and said in the log (ADR 0010).
    await protectDataDir(config.dataDir, logger);
    const sandbox = await createSandbox({
      privatePaths: [config.dataDir],
      allowUnsandboxed: config.execUnsandboxed,
      logger,
    });
    // health: where this replica's lookout-self checks look (its own port and database), so
    // the canary describes whichever replica runs it rather than the one that started last.
    const selfTargets = selfCanaryTargets({
      host: config.host,
      port: config.port,
      databaseUrl: running.embedded?.url ?? config.databaseUrl ?? '',
    });
    composed = await createApp({
      logger,
      database: running.database,
      version: SERVER_VERSION,
      webDir: config.webDir ?? DEFAULT_WEB_DIR,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      port: config.port,
      trustProxy: config.trustProxy,
      identity,
      localProperties,
      adminEmail: config.adminEmail ?? DEFAULT_ADMIN_EMAIL,
      health: {
        checkTimeoutMs: health.checkTimeoutMs,
        summaryRefreshMs: health.summaryRefreshMs,
        sandbox,
        ...(selfTargets ? { self: selfTargets } : {}),
        ...(health.workers ? { workers: health } : {}),
      },
      // One set of metrics for the app and its workers, served on the main port with the token,
      // or on a listener of its own with LOOKOUT_METRICS_PORT (docs/metrics.md).
      metrics: config.metricsToken && config.metricsPort === undefined ? { token: config.metricsToken } : {},
    });
    await composed.app.listen({ port: config.port, host: config.host });
    logger.info(`Lookout ${SERVER_VERSION} is serving on http://localhost:${config.port}`);
    logPublicAddress(config, logger);
    await composed.modules.metrics.services.serve({
      host: config.metricsHost ?? config.host,
      ...(config.metricsPort !== undefined ? { port: config.metricsPort } : {}),
      ...(config.metricsToken ? { token: config.metricsToken } : {}),
    });
    logEmailDelivery(logger, {
      smtpUrl: identity.smtpUrl,
      externalKratos: Boolean(config.kratosPublicUrl),
      workers: health.workers,
    });
    // The lookout-self canary (once listening, so its first run finds /api/health), then every
    // module's background work and the jobs, unless this replica is `--role api`.
    await ensureSelfCanary({
      pool: running.database.pool,
      logger,
      enabled: health.selfCanary,
      host: config.host,
      port: config.port,
      databaseUrl: running.embedded?.url ?? config.databaseUrl ?? '',
    });
    if (health.workers) composed.start();
    else logger.info({ role: health.role }, 'Background workers are off in this process');
  } catch (error) {
    await shutdown('startup-failure').catch(() => undefined);
    throw error;
  }
}

/**
 * Says once where emailed links point and which proxies are trusted. With an external Kratos
 * the links in its emails and in invitations are Kratos's (its serve.public.base_url), so
 * LOOKOUT_PUBLIC_URL missing is no reason to warn there.
 */
function logPublicAddress(config: Config, logger: Logger): void {
  const warning = config.kratosPublicUrl ? undefined : publicUrlWarning(config);
  if (warning) logger.warn({ setting: 'LOOKOUT_PUBLIC_URL' }, warning);
  else if (config.publicUrl) logger.info({ publicUrl: config.publicUrl }, 'Lookout is reached at LOOKOUT_PUBLIC_URL');
  if (config.trustProxy !== false) {
    logger.info(
      { trustProxy: config.trustProxy },
      'X-Forwarded-For/-Proto/-Host are believed from the proxies LOOKOUT_TRUST_PROXY names',
    );
  }
}

/**
 * `lookout apply -f canary.yaml`: canary documents straight into the database, attaching to
 * the embedded PostgreSQL of a running server when there is one (modules/health/health-cli.ts).
 */
export async function applyCanaries(
  config: Config,
  logger: Logger,
  options: { files: string[]; source: CanaryApplySource },
): Promise<ApplyLine[]> {
  const attached = config.databaseUrl ? undefined : await attachToRunningEmbedded(config.dataDir);
  const running = attached ? undefined : await openDatabase(config, logger);
  const pool = attached?.pool ?? (running as RunningDatabase).database.pool;
  try {
    await runMigrations(pool, logger);
    return await applyCanaryFiles({ pool, logger, ...options });
  } finally {
    if (attached) await attached.close();
    else if (running) await closeDatabase(running);
  }
}
