import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { redactUrl } from '@lookout/contracts';
import { assertSupportedVersion, createDatabase, type Database } from './db/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@lookout/embedded-postgres';
import { runMigrations } from './db/migrate.js';
import { recordStart } from './db/installation.js';
import { buildApp } from './http/app.js';
import { createJobs, type Jobs } from './jobs/jobs.js';
import { publicUrlWarning } from './http/public-url.js';
import {
  DEFAULT_ADMIN_EMAIL,
  ensureAdminIdentity,
  identitySettingsFromConfig,
  SECRET_KEY_FILE,
} from './modules/identity/identity-bootstrap.js';
import { assertSharedSecretKey } from './modules/identity/identity-secret-key.js';
// access
import { ensureAdminRole } from './modules/access/access-bootstrap.js';
import { loadLocalProperties } from './modules/access/local-properties.js';
// end access
// health
import type { CanaryApplySource } from '@lookout/contracts';
import { ensureSelfCanary, selfCanaryTargets } from './modules/health/health-bootstrap.js';
import { applyCanaryFiles, attachToRunningEmbedded, type ApplyLine } from './modules/health/health-cli.js';
import { readHealthSettings, type HealthSettings } from './modules/health/health-settings.js';
import {
  createHealthWorkers,
  createNotificationListener,
  type HealthWorkers,
} from './modules/health/health-workers.js';
// end health
import { EMAIL_OUTBOX_STARTUP_WARNING, EMAIL_OUTBOX_STARTUP_WARNING_EXTERNAL_KRATOS } from '@lookout/contracts';
import type { IdentitySettings } from './modules/identity/identity-service.js';
import { createCourierRepository } from './modules/identity/identity-courier-repository.js';
import { createCourierSender, createSmtpTransport } from './modules/identity/identity-courier-sender.js';
import { createSecretBox } from './modules/identity/identity-crypto.js';
// metrics
import { startMetricsListener, type MetricsListener } from './modules/metrics/metrics-listener.js';
import { createMetricsRepository } from './modules/metrics/metrics-repository.js';
import { createMetrics, type Metrics } from './modules/metrics/metrics-service.js';
// end metrics
import { DEFAULT_WEB_DIR } from './http/web-app.js';
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
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let jobs: Jobs | undefined;
  let healthWorkers: HealthWorkers | undefined; // health
  let metricsListener: MetricsListener | undefined; // metrics
  let courierSender: { stop: () => Promise<void> } | undefined; // identity
  let stopping: Promise<void> | undefined;
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal }, 'Shutting down');
      try {
        await jobs?.stop(); // every module's timers, and the runs under way
        await healthWorkers?.stop(); // health: stop claiming checks before the database goes
        await courierSender?.stop(); // identity: the same for the email outbox
        await metricsListener?.close(); // metrics
        await app?.close();
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
    // access: local properties are read once, here.
    const localProperties = await loadLocalProperties({
      ...(config.properties !== undefined ? { inline: config.properties } : {}),
      ...(config.propertiesFile ? { file: config.propertiesFile } : {}),
      dataDir: config.dataDir,
    });
    if (localProperties.length > 0) {
      logger.info({ properties: localProperties.map((property) => property.name) }, 'Loaded local properties');
    }
    // end access
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
    // metrics: one set for the app and its workers, served on the main port with the token, or
    // on a listener of its own with LOOKOUT_METRICS_PORT (docs/metrics.md).
    const metrics = createMetrics({
      repository: createMetricsRepository(running.database.pool),
      logger,
      version: SERVER_VERSION,
    });
    // Every module's background jobs register with these; they run only on worker replicas.
    jobs = createJobs({ pool: running.database.pool, logger, metrics });
    app = await buildApp({
      jobs,
      metrics: {
        instruments: metrics,
        ...(config.metricsToken && config.metricsPort === undefined ? { token: config.metricsToken } : {}),
      }, // metrics
      logger,
      database: running.database,
      version: SERVER_VERSION,
      webDir: config.webDir ?? DEFAULT_WEB_DIR,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      port: config.port,
      trustProxy: config.trustProxy,
      identity,
      localProperties, // access
      adminEmail: config.adminEmail ?? DEFAULT_ADMIN_EMAIL, // access
      health: {
        checkTimeoutMs: health.checkTimeoutMs,
        summaryRefreshMs: health.summaryRefreshMs,
        sandbox,
        ...(selfTargets ? { self: selfTargets } : {}),
      }, // health
    });
    await app.listen({ port: config.port, host: config.host });
    logger.info(`Lookout ${SERVER_VERSION} is serving on http://localhost:${config.port}`);
    logPublicAddress(config, logger);
    metricsListener = await serveMetrics(config, metrics, logger); // metrics
    courierSender = startCourierSender(config, identity, logger, running.database.pool, health.workers, jobs); // identity
    // health: the lookout-self canary (once listening, so its first run finds /api/health),
    // then the check scheduler and roll-up jobs unless this replica is `--role api`.
    await ensureSelfCanary({
      pool: running.database.pool,
      logger,
      enabled: health.selfCanary,
      host: config.host,
      port: config.port,
      databaseUrl: running.embedded?.url ?? config.databaseUrl ?? '',
    });
    if (health.workers) {
      healthWorkers = createHealthWorkers({
        jobs,
        pool: running.database.pool,
        logger,
        settings: health,
        sandbox,
        ...(selfTargets ? { self: selfTargets } : {}),
        metrics, // metrics
      });
      healthWorkers.start();
      jobs.start();
    } else {
      logger.info({ role: health.role }, 'Background workers are off in this process');
    }
    // end health
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

// metrics
/** Starts LOOKOUT_METRICS_PORT's listener, and says where GET /metrics is served, if anywhere. */
async function serveMetrics(config: Config, metrics: Metrics, logger: Logger): Promise<MetricsListener | undefined> {
  if (config.metricsPort === undefined) {
    if (config.metricsToken)
      logger.info('GET /metrics is served on the main port to callers with LOOKOUT_METRICS_TOKEN');
    return undefined;
  }
  const listener = await startMetricsListener({
    metrics,
    host: config.metricsHost ?? config.host,
    port: config.metricsPort,
    ...(config.metricsToken ? { token: config.metricsToken } : {}),
    logger: logger.child({ module: 'metrics' }),
  });
  logger.info(
    { address: listener.address, token: Boolean(config.metricsToken) },
    'GET /metrics is served on LOOKOUT_METRICS_PORT',
  );
  return listener;
}
// end metrics

// identity
/**
 * Says where email goes, and starts the courier sender that delivers the outbox through
 * LOOKOUT_SMTP_URL (a background worker: not on `--role api` replicas). Without SMTP the mail
 * stays in the outbox, which admins read at Settings > Email outbox; never in the log.
 */
function startCourierSender(
  config: Config,
  identity: Pick<IdentitySettings, 'secretKey' | 'smtpUrl' | 'smtpFrom'>,
  logger: Logger,
  pool: Database['pool'],
  workers: boolean,
  jobs: Pick<Jobs, 'record'>,
): { stop: () => Promise<void> } | undefined {
  if (!identity.smtpUrl) {
    logger.warn(
      { setting: 'LOOKOUT_SMTP_URL' },
      config.kratosPublicUrl ? EMAIL_OUTBOX_STARTUP_WARNING_EXTERNAL_KRATOS : EMAIL_OUTBOX_STARTUP_WARNING,
    );
    return undefined;
  }
  if (!workers) {
    logger.info('Emails are queued in the outbox here and sent by a worker replica (LOOKOUT_ROLE worker or all)');
    return undefined;
  }
  const listener = createNotificationListener(pool, logger);
  const sender = createCourierSender({
    repository: createCourierRepository(pool),
    box: createSecretBox(identity.secretKey),
    transport: createSmtpTransport(identity.smtpUrl),
    from: identity.smtpFrom,
    logger: logger.child({ module: 'courier' }),
    subscribe: listener.subscribe,
    jobs,
  });
  sender.start();
  logger.info('Emails are sent from the outbox through the SMTP server of LOOKOUT_SMTP_URL');
  return {
    async stop() {
      await sender.stop();
      await listener.close();
    },
  };
}
// end identity

// health
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
// end health
