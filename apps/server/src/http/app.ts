import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { DEFAULT_PORT } from '../config/config.js';
import type { TrustProxySetting } from '../config/public-address-fns.js';
import type { Database } from '../db/database.js';
import { createJobs, type Jobs } from '../jobs/jobs.js';
import { createSystemService } from '../modules/system/system-service.js';
// identity
import { externalKratosPublicConfig } from '../modules/identity/external-kratos/external-kratos-fns.js';
import { createPeopleMirror } from '../modules/identity/external-kratos/external-people-mirror.js';
import { createIdentityAdminService, type IdentityAdministration } from '../modules/identity/identity-admin-service.js';
import { DEFAULT_ADMIN_EMAIL } from '../modules/identity/identity-bootstrap.js';
import { createCourier } from '../modules/identity/identity-courier.js';
import { createCourierAdmin } from '../modules/identity/identity-courier-admin.js';
import { createCourierRepository } from '../modules/identity/identity-courier-repository.js';
import { createSecretBox, randomToken } from '../modules/identity/identity-crypto.js';
import { scheduleIdentityHousekeeping } from '../modules/identity/identity-housekeeping.js';
import { createIdentityRepository } from '../modules/identity/identity-repository.js';
import { headerSessionTokenOf } from '../modules/identity/identity-fns.js';
import { authRoutes, identityRoutes, requestContext } from '../modules/identity/identity-routes.js';
import { createIdentityService, type IdentitySettings } from '../modules/identity/identity-service.js';
import { adminUrlRequired, createKratosAdminClient } from '../modules/identity/external-kratos/kratos-admin-client.js';
import {
  createKratosIdentityMirror,
  withIdentityMirror,
} from '../modules/identity/external-kratos/kratos-identity-mirror.js';
import { scheduleKratosIdentitySync } from '../modules/identity/external-kratos/kratos-identity-sync.js';
import { kratosProxyRoutes } from '../modules/identity/external-kratos/kratos-proxy-routes.js';
import { createSessionResolver, type SessionResolver } from '../modules/identity/session-resolver.js';
// end identity
// access
import { createFirstAdminGrant } from '../modules/access/access-bootstrap.js';
import { createAccessRepository } from '../modules/access/access-repository.js';
import { accessRoutes } from '../modules/access/access-routes.js';
import {
  createAccessService,
  createPersonRoleResolver,
  memoizePerRequest,
  type RoleResolver,
} from '../modules/access/access-service.js';
import { createFeatureFlagsService } from '../modules/access/feature-flags-service.js';
import type { LocalProperty } from '../modules/access/local-properties-fns.js';
import { registerRouteAccess } from '../modules/access/route-access.js';
import { createUsersService } from '../modules/access/users-service.js';
// end access
// health
import type { SelfCanaryTargets } from '../modules/health/health-canary-fns.js';
import { guardHealthWrites } from '../modules/health/health-data-api-guard.js';
import { createHealthRepository } from '../modules/health/health-repository.js';
import { healthRoutes } from '../modules/health/health-routes.js';
import { secretsUnavailable } from '../modules/health/health-run-fns.js';
import { createHealthService } from '../modules/health/health-service.js';
import { createCheckRunner, DEFAULT_CHECK_TIMEOUT_MS, runCheck } from '../modules/health/runners/runners.js';
import type { Sandbox } from '../sandbox/sandbox.js';
// end health
// metrics
import { registerHttpMetrics } from '../modules/metrics/metrics-http.js';
import { createMetricsRepository } from '../modules/metrics/metrics-repository.js';
import { metricsRoutes } from '../modules/metrics/metrics-routes.js';
import { createMetrics, type Metrics } from '../modules/metrics/metrics-service.js';
// end metrics
import { dataApiRoutes } from '../modules/data-api/data-api-routes.js';
import { createDataApiService } from '../modules/data-api/data-api-service.js';
import { systemRoutes } from '../modules/system/system-routes.js';
import { registerCompression } from './compression.js';
import { registerCrossSiteGuard } from './cross-site-guard.js';
import { frameworkErrorHandler, registerErrorHandler } from './error-envelope.js';
import { registerJsonBodyParser } from './json-body-parser.js';
import { linkOrigin, trustProxyOption } from './public-url.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerWebApp } from './web-app.js';

export type AppDeps = {
  logger: Logger;
  database: Database;
  version: string;
  webDir: string;
  startedAt?: Date;
  /**
   * LOOKOUT_PUBLIC_URL (an origin): where people reach Lookout. Links sent to someone else are
   * built from it (else from http://localhost:<port>), and the requester's own URLs too when
   * set (else from the request's host). See http/public-url.ts and ADR 0007.
   */
  publicUrl?: string;
  /** PORT, for the links' fallback origin http://localhost:<port> (default 8080). */
  port?: number;
  /** LOOKOUT_TRUST_PROXY: whose X-Forwarded-For/-Proto/-Host to believe (default nobody). */
  trustProxy?: TrustProxySetting;
  /** identity: settings of the built-in identity service; tests and `lookout serve` pass them. */
  identity?: Partial<IdentitySettings>;
  /**
   * Replaces how the caller's roles are found (some tests sign in as a role this way). By
   * default they are the signed-in person's roles, read fresh on every request.
   */
  resolveRoles?: RoleResolver;
  /** access: properties from the server configuration (source local, read-only). */
  localProperties?: readonly LocalProperty[];
  /**
   * access: LOOKOUT_ADMIN_EMAIL. With an external Kratos the first person seen with it as a
   * verified email, while no active admin exists, gets the admin role (default
   * admin@lookout.local).
   */
  adminEmail?: string;
  /**
   * health: how long Run Now lets a check run (LOOKOUT_CHECK_TIMEOUT; default 60 s) and how often
   * the workers refresh the last-hour summary (LOOKOUT_CHECK_SUMMARY_REFRESH; default 30 s).
   */
  health?: {
    checkTimeoutMs?: number;
    summaryRefreshMs?: number;
    /**
     * Where Run Now runs exec scripts, and the paths no check may list (the data directory);
     * `lookout serve` passes the one it set up at start. Without it exec checks are refused.
     */
    sandbox?: Sandbox;
    /**
     * This replica's own /api/health and database endpoint, which Run Now of the `lookout-self`
     * canary's checks calls (`lookout serve` passes them; without them the spec's are used).
     */
    self?: SelfCanaryTargets;
  };
  /**
   * The jobs module every background job is registered with (`lookout serve` shares one and
   * starts it only where workers run). Without it the app has its own, started when ready.
   */
  jobs?: Jobs;
  /** metrics: Prometheus metrics (docs/metrics.md). */
  metrics?: {
    /** The process's metrics; `lookout serve` shares them with its workers. Default: the app's own. */
    instruments?: Metrics;
    /** LOOKOUT_METRICS_TOKEN: GET /metrics on this app's port, for that bearer token. Unset: not served here. */
    token?: string;
  };
};

/**
 * The composition root: builds every service from its narrowed dependencies and mounts
 * the route plugins under /api. Tests call this with a test database and `inject`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast keeps Fastify's default generic.
    loggerInstance: deps.logger as FastifyBaseLogger,
    // X-Forwarded-For/-Proto/-Host are believed only from the proxies LOOKOUT_TRUST_PROXY
    // names: from anyone else they would let a caller pick the address its rate limits count
    // against. Without it, request.ip is the peer and request.host the Host header.
    trustProxy: trustProxyOption(deps.trustProxy ?? false),
    // A URL that is not valid percent-encoding is refused in the error envelope too.
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // metrics: every answer is counted by route pattern; the hook must exist before any route.
  const metrics =
    deps.metrics?.instruments ??
    createMetrics({
      repository: createMetricsRepository(deps.database.pool),
      logger: deps.logger,
      version: deps.version,
    });
  registerHttpMetrics(app, metrics);
  // Background work: `lookout serve` passes its jobs and starts them on worker replicas; without
  // them (tests, benches) the app runs its own from the start.
  const jobs = deps.jobs ?? createJobs({ pool: deps.database.pool, logger: deps.logger, metrics });
  if (!deps.jobs) {
    app.addHook('onReady', async () => {
      jobs.start();
    });
    app.addHook('onClose', () => jobs.stop());
  }
  // Every JSON body is refused past JSON_BODY_MAX_DEPTH levels of nesting before it is parsed.
  registerJsonBodyParser(app);
  // Security headers (CSP, frame and referrer policies) and brotli/gzip compression on every
  // answer, the not-found handler's included (http/security-headers.ts, http/compression.ts).
  await registerSecurityHeaders(app);
  registerCompression(app);
  // Writes under /api that another site made the browser send with its session cookie are
  // refused before anything else looks at them (bearer tokens are not affected).
  registerCrossSiteGuard(app, {
    publicUrl: deps.publicUrl,
    hasSessionTokenHeader: (request) => headerSessionTokenOf(request.headers) !== undefined,
  });
  // access: installed before any route, so that every /api route must declare who may call
  // it (registration fails otherwise) and is checked on every request. The role resolver
  // and feature flags it needs are bound below, once they exist.
  const routeAccess = registerRouteAccess(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lookout API',
        description: 'HTTP API of Lookout, the operations and reliability console.',
        version: deps.version,
      },
    },
    transform: jsonSchemaTransform,
  });
  // No validator badge: it would load an image from another site, which the CSP refuses.
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });

  const system = createSystemService({
    database: deps.database,
    version: deps.version,
    startedAt: deps.startedAt ?? new Date(),
  });

  // identity: the Kratos-compatible identity service at /api/.ory, and /api/auth/whoami.
  const identitySettings: IdentitySettings = {
    // Without a configured key (tests), secrets live only as long as this process.
    secretKey: deps.identity?.secretKey ?? randomToken(),
    registrationOpen: deps.identity?.registrationOpen ?? false,
    sessionLifetimeMs: deps.identity?.sessionLifetimeMs ?? 24 * 3_600_000,
    revokeSessionsOnPasswordChange: deps.identity?.revokeSessionsOnPasswordChange ?? true,
    smtpFrom: deps.identity?.smtpFrom ?? 'Lookout <no-reply@lookout.local>',
    oidcProviders: deps.identity?.oidcProviders ?? [],
    ...(deps.identity?.smtpUrl ? { smtpUrl: deps.identity.smtpUrl } : {}),
    ...(deps.identity?.kratosPublicUrl ? { kratosPublicUrl: deps.identity.kratosPublicUrl } : {}),
    ...(deps.identity?.kratosAdminUrl ? { kratosAdminUrl: deps.identity.kratosAdminUrl } : {}),
    ...(deps.identity?.kratosSyncIntervalMs ? { kratosSyncIntervalMs: deps.identity.kratosSyncIntervalMs } : {}),
  };
  // Links in emails and invitations: from the configuration only, never from a request.
  const links = linkOrigin({ publicUrl: deps.publicUrl, port: deps.port ?? DEFAULT_PORT });
  const identityRepository = createIdentityRepository(deps.database.pool);
  const box = createSecretBox(identitySettings.secretKey);
  // Emails go to the outbox in the flow that asks for them; the courier sender (a background
  // worker, started by server.ts when LOOKOUT_SMTP_URL is set) delivers them.
  const courierRepository = createCourierRepository(deps.database.pool);
  const courier = createCourier({ repository: courierRepository, box });
  const courierAdmin = createCourierAdmin({
    repository: courierRepository,
    box,
    delivery: identitySettings.smtpUrl ? 'smtp' : 'outbox',
  });
  scheduleIdentityHousekeeping({ repository: identityRepository, jobs });
  const identity = createIdentityService({
    repository: identityRepository,
    box,
    courier,
    linkOrigin: links,
    logger: deps.logger,
    settings: identitySettings,
  });
  const { kratosPublicUrl, kratosAdminUrl } = identitySettings;
  // With an external Kratos its identities have no row here, so their people are kept by
  // hand; the first admin comes from the admin email (the access module decides).
  const people = kratosPublicUrl
    ? createPeopleMirror({
        repository: identityRepository,
        logger: deps.logger,
        onSynced: createFirstAdminGrant({
          pool: deps.database.pool,
          logger: deps.logger,
          adminEmail: deps.adminEmail ?? DEFAULT_ADMIN_EMAIL,
        }),
      })
    : undefined;
  const resolveSession: SessionResolver = createSessionResolver({
    identity,
    ...(kratosPublicUrl && people ? { kratosPublicUrl, people } : {}),
  });
  let identityAdmin: IdentityAdministration;
  if (kratosPublicUrl && people) {
    // /api/.ory is a proxy to that Kratos (its admin API with RBAC, see the routes), and user
    // administration uses its admin API, or refuses naming KRATOS_ADMIN_URL without it.
    identityAdmin = adminUrlRequired();
    let onIdentitiesChanged: (() => void) | undefined;
    if (kratosAdminUrl) {
      // The Users page lists the identities table: it holds a copy of Kratos's identities,
      // refreshed in the background and at once after each change made through Lookout.
      const kratosAdmin = createKratosAdminClient({ adminUrl: kratosAdminUrl, people, logger: deps.logger });
      const identityMirror = createKratosIdentityMirror({
        repository: identityRepository,
        people,
        listIdentities: (query) => kratosAdmin.list(query),
        logger: deps.logger,
      });
      identityAdmin = withIdentityMirror(kratosAdmin, identityMirror, deps.logger);
      const identitySync = scheduleKratosIdentitySync({
        mirror: identityMirror,
        jobs,
        logger: deps.logger,
        ...(identitySettings.kratosSyncIntervalMs ? { intervalMs: identitySettings.kratosSyncIntervalMs } : {}),
      });
      onIdentitiesChanged = identitySync.syncSoon;
    }
    await app.register(kratosProxyRoutes, {
      prefix: '/api/.ory',
      publicUrl: kratosPublicUrl,
      ...(kratosAdminUrl ? { adminUrl: kratosAdminUrl } : {}),
      ...(deps.publicUrl ? { lookoutPublicUrl: deps.publicUrl } : {}),
      ...(onIdentitiesChanged ? { onIdentitiesChanged } : {}),
    });
  } else {
    const builtInAdmin = createIdentityAdminService({ repository: identityRepository, identity, linkOrigin: links });
    identityAdmin = builtInAdmin;
    // The admin routes declare read or write on identities (checked by the access hook).
    await app.register(identityRoutes, {
      prefix: '/api/.ory',
      identity,
      admin: builtInAdmin,
      courier: courierAdmin,
      ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
    });
  }
  await app.register(authRoutes, {
    prefix: '/api/auth',
    resolveSession,
    people: identityRepository,
    identity: kratosPublicUrl ? { publicConfig: () => externalKratosPublicConfig(identitySettings) } : identity,
  });
  // end identity

  // access: each request's roles are the signed-in person's, read fresh from the database
  // (once per request, whoever asks); feature flags; user administration and properties.
  const accessRepository = createAccessRepository(deps.database.pool);
  const sessionOf = memoizePerRequest(resolveSession);
  const resolveRoles: RoleResolver = deps.resolveRoles
    ? memoizePerRequest(deps.resolveRoles)
    : createPersonRoleResolver({ resolveSession: sessionOf, repository: accessRepository });
  const access = createAccessService({ resolveRoles });
  const featureFlags = createFeatureFlagsService({ repository: accessRepository, local: deps.localProperties ?? [] });
  routeAccess.bind({ resolveRoles, isFeatureDisabled: featureFlags.isDisabled });
  await app.register(accessRoutes, {
    prefix: '/api',
    users: createUsersService({ repository: accessRepository, identityAdmin, courier, logger: deps.logger }),
    featureFlags,
    resolveSession: sessionOf,
    requestContext: (request) => requestContext(request, { json: true, publicUrl: deps.publicUrl }),
  });
  // end access

  // data API: the PostgREST-compatible engine over the allow-listed relations, at /api/db.
  const dataApi = await createDataApiService({
    pool: deps.database.pool,
    logger: deps.logger,
    // access: local property names guard /api/db/properties; a flag write refreshes flags.
    localPropertyNames: featureFlags.localNames,
    onRelationWritten: (relation) => {
      if (relation === 'properties') featureFlags.invalidate();
    },
  });
  app.addHook('onClose', () => dataApi.close());
  // health: canary writes are validated (and derived rows kept read-only) before the data API.
  await app.register(dataApiRoutes, { prefix: '/api/db', dataApi: guardHealthWrites(dataApi), access });

  // health: the check summary, Run Now and canary apply at /api/canary (spec 2 section 7.2);
  // status history, checks and canaries are read through /api/db. The scheduler and the
  // roll-up jobs are background workers, started by server.ts (health-workers.ts).
  const health = createHealthService({
    repository: createHealthRepository(deps.database.pool),
    runCheck: deps.health?.sandbox ? createCheckRunner(deps.health.sandbox) : runCheck,
    resolveSecret: secretsUnavailable,
    settings: {
      checkTimeoutMs: deps.health?.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      // Two refreshes may be missed before the default view is computed live instead.
      ...(deps.health?.summaryRefreshMs ? { lastHourSnapshotMaxAgeMs: 2.5 * deps.health.summaryRefreshMs } : {}),
      ...(deps.health?.self ? { self: deps.health.self } : {}),
    },
    logger: deps.logger,
    metrics, // metrics: Run Now's results
  });
  await app.register(healthRoutes, {
    prefix: '/api/canary',
    health,
    access,
    personOf: async (request) => (await sessionOf(request))?.identityId ?? null,
  });
  // end health

  await app.register(
    async (api) => {
      await api.register(systemRoutes, { system });
    },
    { prefix: '/api' },
  );

  // metrics: GET /metrics (outside /api) with LOOKOUT_METRICS_TOKEN; with LOOKOUT_METRICS_PORT
  // server.ts serves it on its own listener instead, and here it is the console's not-found page.
  if (deps.metrics?.token) await app.register(metricsRoutes, { metrics, token: deps.metrics.token });

  await registerWebApp(app, deps.webDir);
  return app;
}
