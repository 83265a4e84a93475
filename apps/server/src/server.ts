import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { createSealer } from './crypto/sealed-values.js';
import { resolveSecretKeys } from './crypto/secret-key.js';
import { recordStart } from './db/installation.js';
import { runMigrations } from './db/migrate.js';
import { closeDatabase, openDatabase } from './db/open-database.js';
import { createApp, type AppDeps, type ComposedApp } from './http/app.js';
import { publicUrlWarning } from './http/public-url.js';
import { DEFAULT_WEB_DIR } from './http/web-app.js';
import { protectDataDir } from './sandbox/protect-data-dir.js';
import { createSandbox } from './sandbox/sandbox.js';
import { SERVER_VERSION } from './version.js';

/** The settings of `lookout serve` that the health module reads (LOOKOUT_ROLE, LOOKOUT_CHECK_*, ...). */
type ServeSettings = NonNullable<NonNullable<AppDeps['health']>['workers']>;

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
export async function serve(config: Config, logger: Logger, health: ServeSettings): Promise<void> {
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
    // sandbox: what Lookout wrote into its data directory is private to its user, then the
    // isolation for exec check scripts is chosen once and said in the log (ADR 0010).
    await protectDataDir(config.dataDir, logger);
    const sandbox = await createSandbox({
      privatePaths: [config.dataDir],
      allowUnsandboxed: config.execUnsandboxed,
      logger,
    });
    // The secret key, once for every module: LOOKOUT_SECRET_KEY or the one generated into the
    // data directory, with the keys a rotation replaces (docs/secrets.md).
    const secretKeys = await resolveSecretKeys(config, logger);
    composed = await createApp({
      logger,
      database: running.database,
      version: SERVER_VERSION,
      webDir: config.webDir ?? DEFAULT_WEB_DIR,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      port: config.port,
      trustProxy: config.trustProxy,
      // Modules read their settings from the configuration (the secret key, local properties).
      serve: {
        config,
        databaseUrl: running.embedded?.url ?? config.databaseUrl ?? '',
        workers: health.workers,
        secretKeys,
      },
      // The one sealer of stored credentials: seals under the current key, opens under the previous ones too.
      sealer: createSealer(secretKeys.current, secretKeys.previous),
      health: {
        checkTimeoutMs: health.checkTimeoutMs,
        summaryRefreshMs: health.summaryRefreshMs,
        sandbox,
        selfCanary: health.selfCanary,
        ...(health.workers ? { workers: health } : {}),
      },
      // One set of metrics for the app and its workers, served on the main port with the token,
      // or on a listener of its own with LOOKOUT_METRICS_PORT (docs/metrics.md).
      metrics: config.metricsToken && config.metricsPort === undefined ? { token: config.metricsToken } : {},
    });
    // Every module's start-up step, in module order: the secret key check, the first admin and
    // its role, where email goes, the lookout-self canary.
    await composed.bootstrap();
    await composed.app.listen({ port: config.port, host: config.host });
    logger.info(`Lookout ${SERVER_VERSION} is serving on http://localhost:${config.port}`);
    logPublicAddress(config, logger);
    await composed.modules.metrics.services.serve({
      host: config.metricsHost ?? config.host,
      ...(config.metricsPort !== undefined ? { port: config.metricsPort } : {}),
      ...(config.metricsToken ? { token: config.metricsToken } : {}),
    });
    // Every module's background work and the jobs, unless this replica is `--role api`.
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
