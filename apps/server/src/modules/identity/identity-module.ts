import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import { DEFAULT_PORT } from '../../config/config.js';
import { createNotificationListener } from '../../db/notification-listener.js';
import { linkOrigin } from '../../http/public-url.js';
import type { ServeContext, ServerModule } from '../../http/server-module.js';
import type { Jobs } from '../../jobs/jobs.js';
import { createSmtpTransport } from '../../mail/smtp-transport.js';
import { externalKratosPublicConfig, type ExternalIdentity } from './external-kratos/external-kratos-fns.js';
import { createPeopleMirror } from './external-kratos/external-people-mirror.js';
import { adminUrlRequired, createKratosAdminClient } from './external-kratos/kratos-admin-client.js';
import { createKratosIdentityMirror, withIdentityMirror } from './external-kratos/kratos-identity-mirror.js';
import { scheduleKratosIdentitySync } from './external-kratos/kratos-identity-sync.js';
import { kratosProxyRoutes } from './external-kratos/kratos-proxy-routes.js';
import { bootstrapIdentity, identitySettingsFromConfig } from './identity-bootstrap.js';
import { createIdentityAdminService, type IdentityAdministration } from './identity-admin-service.js';
import { createCourier, type Courier } from './identity-courier.js';
import { createCourierAdmin } from './identity-courier-admin.js';
import { createCourierRepository } from './identity-courier-repository.js';
import { createCourierSender } from './identity-courier-sender.js';
import { createSecretBox, randomToken } from './identity-crypto.js';
import { headerSessionTokenOf } from './identity-fns.js';
import { scheduleIdentityHousekeeping } from './identity-housekeeping.js';
import { createIdentityRepository } from './identity-repository.js';
import { authRoutes, identityRoutes, requestContext } from './identity-routes.js';
import { createIdentityService, type IdentitySettings } from './identity-service.js';
import type { RequestContext } from './identity-types.js';
import { createSessionResolver, type SessionResolver } from './session-resolver.js';

// The admin email's default, which the access module needs too (through http/app.ts).

export type IdentityModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'run' | 'schedule' | 'record'>;
  /** Settings of the built-in identity service (tests); `lookout serve` gives `serve` instead. */
  settings?: Partial<IdentitySettings>;
  /**
   * `lookout serve`: the settings come from its configuration (the secret key from
   * LOOKOUT_SECRET_KEY or the data directory), and `bootstrap` checks that key against the
   * database's and creates the first admin identity.
   */
  serve?: ServeContext;
  /** How often the email outbox sender looks for due emails besides LISTEN (default 10 s; tests poll faster). */
  courierPollIntervalMs?: number;
  /** LOOKOUT_PUBLIC_URL and PORT: where links in emails and invitations point (ADR 0007). */
  publicUrl?: string;
  port?: number;
  /**
   * With an external Kratos, called for each person seen (the access module gives the admin
   * email its first admin role there).
   */
  onPersonSynced?: (person: ExternalIdentity & { email: string }) => Promise<void>;
};

export type IdentityServices = {
  /** The signed-in caller's session, built-in or an external Kratos's. */
  resolveSession: SessionResolver;
  /** User administration: the built-in service, or an external Kratos's admin API. */
  identityAdmin: IdentityAdministration;
  /** The email outbox: flows and invitations queue their emails here. */
  courier: Pick<Courier, 'queue' | 'queueMessage'>;
  /** What the identity services need to know about a request (JSON answers). */
  requestContext: (request: FastifyRequest) => RequestContext;
  /** Whether a request carries a session token in a header (not a cookie), for the cross-site guard. */
  hasSessionTokenHeader: (request: FastifyRequest) => boolean;
};

export type IdentityModule = ServerModule<IdentityServices>;

/** Settings with their defaults; without a configured key (tests), secrets live as long as the process. */
function identitySettingsOf(settings: Partial<IdentitySettings> = {}): IdentitySettings {
  return {
    secretKey: settings.secretKey ?? randomToken(),
    previousSecretKeys: settings.previousSecretKeys ?? [],
    registrationOpen: settings.registrationOpen ?? false,
    sessionLifetimeMs: settings.sessionLifetimeMs ?? 24 * 3_600_000,
    revokeSessionsOnPasswordChange: settings.revokeSessionsOnPasswordChange ?? true,
    smtpFrom: settings.smtpFrom ?? 'Lookout <no-reply@lookout.local>',
    oidcProviders: settings.oidcProviders ?? [],
    ...(settings.smtpUrl ? { smtpUrl: settings.smtpUrl } : {}),
    ...(settings.kratosPublicUrl ? { kratosPublicUrl: settings.kratosPublicUrl } : {}),
    ...(settings.kratosAdminUrl ? { kratosAdminUrl: settings.kratosAdminUrl } : {}),
    ...(settings.kratosSyncIntervalMs ? { kratosSyncIntervalMs: settings.kratosSyncIntervalMs } : {}),
  };
}

/**
 * Identity: the Kratos-compatible identity service at /api/.ory (or a proxy to an external
 * Kratos with KRATOS_PUBLIC_URL), and /api/auth/whoami and /api/auth/config. Housekeeping and
 * the Kratos identity copy are jobs; the email outbox sender is its worker.
 */
export async function createIdentityModule(deps: IdentityModuleDeps): Promise<IdentityModule> {
  const { logger, pool } = deps;
  const settings = identitySettingsOf(
    deps.serve ? identitySettingsFromConfig(deps.serve.config, deps.serve.secretKeys) : deps.settings,
  );
  // Links in emails and invitations: from the configuration only, never from a request.
  const links = linkOrigin({ publicUrl: deps.publicUrl, port: deps.port ?? DEFAULT_PORT });
  const repository = createIdentityRepository(pool);
  const box = createSecretBox(settings.secretKey, settings.previousSecretKeys);
  // Emails go to the outbox in the flow that asks for them; the courier sender (this module's
  // worker, when LOOKOUT_SMTP_URL is set) delivers them.
  const courierRepository = createCourierRepository(pool);
  const courier = createCourier({ repository: courierRepository, box });
  const courierAdmin = createCourierAdmin({
    repository: courierRepository,
    box,
    delivery: settings.smtpUrl ? 'smtp' : 'outbox',
  });
  scheduleIdentityHousekeeping({ repository, jobs: deps.jobs });
  const identity = createIdentityService({ repository, box, courier, linkOrigin: links, logger, settings });
  const { kratosPublicUrl, kratosAdminUrl } = settings;
  // With an external Kratos its identities have no row here, so their people are kept by
  // hand; the first admin comes from the admin email (the access module decides).
  const people = kratosPublicUrl
    ? createPeopleMirror({ repository, logger, ...(deps.onPersonSynced ? { onSynced: deps.onPersonSynced } : {}) })
    : undefined;
  const resolveSession = createSessionResolver({
    identity,
    ...(kratosPublicUrl && people ? { kratosPublicUrl, people } : {}),
  });

  let identityAdmin: IdentityAdministration;
  let registerOry: (app: FastifyInstance) => Promise<void>;
  if (kratosPublicUrl && people) {
    // /api/.ory is a proxy to that Kratos (its admin API with RBAC, see the routes), and user
    // administration uses its admin API, or refuses naming KRATOS_ADMIN_URL without it.
    identityAdmin = adminUrlRequired();
    let onIdentitiesChanged: (() => void) | undefined;
    if (kratosAdminUrl) {
      // The Users page lists the identities table: it holds a copy of Kratos's identities,
      // refreshed by a job and at once after each change made through Lookout.
      const kratosAdmin = createKratosAdminClient({ adminUrl: kratosAdminUrl, people, logger });
      const identityMirror = createKratosIdentityMirror({
        repository,
        people,
        listIdentities: (query) => kratosAdmin.list(query),
        logger,
      });
      identityAdmin = withIdentityMirror(kratosAdmin, identityMirror, logger);
      onIdentitiesChanged = scheduleKratosIdentitySync({
        mirror: identityMirror,
        jobs: deps.jobs,
        logger,
        ...(settings.kratosSyncIntervalMs ? { intervalMs: settings.kratosSyncIntervalMs } : {}),
      }).syncSoon;
    }
    registerOry = async (app) => {
      await app.register(kratosProxyRoutes, {
        prefix: '/api/.ory',
        publicUrl: kratosPublicUrl,
        ...(kratosAdminUrl ? { adminUrl: kratosAdminUrl } : {}),
        ...(deps.publicUrl ? { lookoutPublicUrl: deps.publicUrl } : {}),
        ...(onIdentitiesChanged ? { onIdentitiesChanged } : {}),
      });
    };
  } else {
    const builtInAdmin = createIdentityAdminService({ repository, identity, linkOrigin: links });
    identityAdmin = builtInAdmin;
    registerOry = async (app) => {
      // The admin routes declare read or write on identities (checked by the access hook).
      await app.register(identityRoutes, {
        prefix: '/api/.ory',
        identity,
        admin: builtInAdmin,
        courier: courierAdmin,
        ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
      });
    };
  }

  let stopSender: (() => Promise<void>) | undefined;
  return {
    services: {
      resolveSession,
      identityAdmin,
      courier,
      requestContext: (request) => requestContext(request, { json: true, publicUrl: deps.publicUrl }),
      hasSessionTokenHeader: (request) => headerSessionTokenOf(request.headers) !== undefined,
    },
    async routes(app) {
      await registerOry(app);
      await app.register(authRoutes, {
        prefix: '/api/auth',
        resolveSession,
        people: repository,
        identity: kratosPublicUrl ? { publicConfig: () => externalKratosPublicConfig(settings) } : identity,
      });
    },
    async bootstrap(context) {
      if (!deps.serve) return;
      const createdAdminId = await bootstrapIdentity({ pool, logger, serve: deps.serve });
      if (createdAdminId) context.createdAdminId = createdAdminId;
    },
    /** The courier sender delivers the outbox through LOOKOUT_SMTP_URL (woken by LISTEN). */
    start() {
      if (!settings.smtpUrl || stopSender) return;
      const listener = createNotificationListener(pool, logger);
      const sender = createCourierSender({
        repository: courierRepository,
        box,
        transport: createSmtpTransport(settings.smtpUrl),
        from: settings.smtpFrom,
        logger: logger.child({ module: 'courier' }),
        subscribe: listener.subscribe,
        jobs: deps.jobs,
        ...(deps.courierPollIntervalMs ? { settings: { pollIntervalMs: deps.courierPollIntervalMs } } : {}),
      });
      sender.start();
      logger.info('Emails are sent from the outbox through the SMTP server of LOOKOUT_SMTP_URL');
      stopSender = async () => {
        await sender.stop();
        await listener.close();
      };
    },
    async stop() {
      const stop = stopSender;
      stopSender = undefined;
      await stop?.();
    },
  };
}
