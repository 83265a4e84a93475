import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { DEFAULT_ADMIN_EMAIL } from '@lookout/contracts';
import type { Logger } from 'pino';
import type { TrustProxySetting } from '../config/public-address-fns.js';
import type { Sealer } from '../crypto/sealed-values.js';
import type { Database } from '../db/database.js';
import { createJobHistoryCleanup } from '../jobs/job-history-cleanup.js';
import { createJobs, type Jobs } from '../jobs/jobs.js';
import { createCatalogModule } from '../modules/catalog/catalog-module.js';
import { createEvents, type Events, type EventQueueSettings } from '../events/events.js';
import { createAccessModule, type AccessModuleDeps } from '../modules/access/access-module.js';
import { createConnectionsModule } from '../modules/connections/connections-module.js';
import { createDataApiModule } from '../modules/data-api/data-api-module.js';
import {
  createHealthModule,
  healthCli,
  type HealthModuleDeps,
  type HealthSettings,
} from '../modules/health/health-module.js';
import { createIdentityModule, type IdentityModuleDeps } from '../modules/identity/identity-module.js';
import { createMetricsModule, type MetricsModule, type MetricsModuleDeps } from '../modules/metrics/metrics-module.js';
import {
  createNotificationsModule,
  notificationsCli,
  type NotificationSettings,
} from '../modules/notifications/notifications-module.js';
import { createIncidentsModule, type IncidentSettings } from '../modules/incidents/incidents-module.js';
import { createPlaybooksModule, playbooksCli, type PlaybookSettings } from '../modules/playbooks/playbooks-module.js';
import { createKubernetesApiModule } from '../modules/kubernetes-api/kubernetes-api-module.js';
import { createResourcesModule } from '../modules/resources/resources-module.js';
import { createSecretsModule } from '../modules/secrets/secrets-module.js';
import { createSystemModule } from '../modules/system/system-module.js';
import { createTopologyModule, topologyCli } from '../modules/topology/topology-module.js';
import { createLogsModule } from '../modules/logs/logs-module.js';
import { createAgentPushModule } from '../modules/agent-push/agent-push-module.js';
import { createAgentsModule } from '../modules/agents/agents-module.js';
import { registerCompression } from './compression.js';
import { registerCrossSiteGuard } from './cross-site-guard.js';
import { frameworkErrorHandler, registerErrorHandler } from './error-envelope.js';
import { registerJsonBodyParser } from './json-body-parser.js';
import { trustProxyOption } from './public-url.js';
import { registerSecurityHeaders } from './security-headers.js';
import type { BootstrapContext, ServeContext, ServerModule } from './server-module.js';
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
  /**
   * `lookout serve`: its configuration and what it found at start. Modules read their settings
   * from it (the secret key, local properties, where `lookout-self` looks) and their
   * `bootstrap` steps use it. Tests and benches pass the settings below instead.
   */
  serve?: ServeContext;
  /**
   * The one sealer of credentials stored for others (secret store values, connection
   * passwords): AES-256-GCM under a key derived from LOOKOUT_SECRET_KEY, opening values sealed
   * under LOOKOUT_PREVIOUS_SECRET_KEYS too (crypto/sealed-values.ts, docs/secrets.md).
   * `lookout serve` builds it from `serve.secretKeys`; tests from a test key.
   */
  sealer: Sealer;
  /** secrets: `connection://<ns>/<name>` whose cluster references read (else serve's LOOKOUT_SECRETS_KUBERNETES_CONNECTION). */
  secretsKubernetesConnection?: string;
  /** identity: settings of the built-in identity service (tests). */
  identity?: IdentityModuleDeps['settings'];
  /** identity: how often the email outbox sender polls besides LISTEN (tests poll fast). */
  courierPollIntervalMs?: number;
  /**
   * Replaces how the caller's roles are found (some tests sign in as a role this way). By
   * default they are the signed-in person's roles, read fresh on every request.
   */
  resolveRoles?: AccessModuleDeps['resolveRoles'];
  /** access: properties from the server configuration (source local, read-only). */
  localProperties?: AccessModuleDeps['localProperties'];
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
    sandbox?: HealthModuleDeps['sandbox'];
    /**
     * This replica's own /api/health and database endpoint, which Run Now of the `lookout-self`
     * canary's checks calls (`lookout serve` passes them; without them the spec's are used).
     */
    self?: HealthModuleDeps['self'];
    /**
     * The background workers' settings (`lookout serve` passes them): the check scheduler and
     * the roll-up and retention jobs. Without them (tests) health has no background work.
     */
    workers?: HealthSettings;
    /** LOOKOUT_SELF_CANARY: whether `lookout serve`'s start-up keeps the `lookout-self` canary (default true). */
    selfCanary?: boolean;
  };
  /** metrics: Prometheus metrics (docs/metrics.md). */
  metrics?: {
    /** The process's metrics; `lookout serve` shares them with its workers. Default: the app's own. */
    instruments?: MetricsModuleDeps['instruments'];
    /** LOOKOUT_METRICS_TOKEN: GET /metrics on this app's port, for that bearer token. Unset: not served here. */
    token?: string;
  };
  /** events: overrides of the event queue's back-off and poll (tests; docs/events.md). */
  events?: Partial<EventQueueSettings>;
  /**
   * notifications: whether this app consumes events and sends (default: under `lookout serve`),
   * the system SMTP server, and the services' addresses (tests; docs/notifications.md).
   */
  notifications?: NotificationSettings;
  /** incidents: whether this app consumes events and runs the incident jobs (tests; docs/incidents.md). */
  incidents?: IncidentSettings;
  /** playbooks: whether this app runs the executor, and its concurrency and timings (tests; docs/playbooks.md). */
  playbooks?: PlaybookSettings;
  /** topology: how often the planner looks for due topologies (tests shorten it; docs/topology.md). */
  topology?: { planIntervalMs?: number };
  /** logs: the directories file and journald backends may read (else serve's LOOKOUT_LOG_FILE_ROOTS, else /var/log). */
  logs?: { fileRoots?: readonly string[] };
  /** catalog: the directories file scrapers may read (else serve's LOOKOUT_SCRAPE_FILE_ROOTS, else /etc/lookout/catalog). */
  catalog?: { fileRoots?: readonly string[] };
};

export type ComposedApp = {
  app: FastifyInstance;
  /** The jobs module every module registered its scheduled work with. */
  jobs: Jobs;
  /** The event queue: modules enqueue and register consumers through it (src/events). */
  events: Events;
  /** Modules whose services `lookout serve` uses after listening. */
  modules: { metrics: MetricsModule };
  /**
   * Runs every module's start-up step once, in module order (`lookout serve`, after migrations
   * and before listening): the secret key check, the first admin and its role, `lookout-self`.
   */
  bootstrap: () => Promise<void>;
  /** Starts every module's background work and the jobs (`lookout serve`, on worker replicas). */
  start: () => void;
  /** Stops them and waits for runs under way; also done when the app closes. Safe to call twice. */
  stop: () => Promise<void>;
};

/**
 * The composition root: builds every module from its narrowed collaborators, installs the HTTP
 * plumbing and mounts each module's routes. Nothing here knows a module's insides.
 */
export async function createApp(deps: AppDeps): Promise<ComposedApp> {
  const { logger } = deps;
  const pool = deps.database.pool;
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast keeps Fastify's default generic.
    loggerInstance: logger as FastifyBaseLogger,
    // X-Forwarded-For/-Proto/-Host are believed only from the proxies LOOKOUT_TRUST_PROXY
    // names: from anyone else they would let a caller pick the address its rate limits count
    // against. Without it, request.ip is the peer and request.host the Host header.
    trustProxy: trustProxyOption(deps.trustProxy ?? false),
    // A URL that is not valid percent-encoding is refused in the error envelope too.
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  // Modules, each from its factory; collaborators are passed narrowed.
  const metrics = createMetricsModule({
    pool,
    logger,
    version: deps.version,
    ...(deps.metrics?.instruments ? { instruments: deps.metrics.instruments } : {}),
    ...(deps.metrics?.token ? { token: deps.metrics.token } : {}),
  });
  const jobs = createJobs({ pool, logger, metrics: metrics.services.metrics });
  // The jobs module's own daily housekeeping of job_history (30 days, STALE after 4 h).
  createJobHistoryCleanup({ jobs }).schedule();
  // The event queue, shared like the jobs: modules get `events` in their deps to enqueue and
  // register consumers; its consumers run with the module workers.
  const events = createEvents({
    pool,
    logger,
    jobs,
    metrics: metrics.services.metrics,
    ...(deps.events ? { settings: deps.events } : {}),
  });
  const serve = deps.serve ? { serve: deps.serve } : {};
  const adminEmail = deps.adminEmail ?? deps.serve?.config.adminEmail ?? DEFAULT_ADMIN_EMAIL;
  const identity = await createIdentityModule({
    pool,
    logger,
    jobs,
    ...serve,
    ...(deps.identity ? { settings: deps.identity } : {}),
    ...(deps.courierPollIntervalMs ? { courierPollIntervalMs: deps.courierPollIntervalMs } : {}),
    ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
    ...(deps.port ? { port: deps.port } : {}),
    // The access module (built next) grants the admin email its first admin role.
    onPersonSynced: (person) => access.services.onPersonSynced(person),
  });
  const access = await createAccessModule({
    pool,
    logger,
    ...serve,
    identity: identity.services,
    adminEmail,
    ...(deps.resolveRoles ? { resolveRoles: deps.resolveRoles } : {}),
    ...(deps.localProperties ? { localProperties: deps.localProperties } : {}),
  });
  const personOf = async (request: FastifyRequest) => (await access.services.sessionOf(request))?.identityId ?? null;
  // The secret store, and the one place credentials' references are resolved (docs/secrets.md).
  // With LOOKOUT_SECRETS_KUBERNETES_CONNECTION references read that cluster instead: the
  // connection is resolved at lookup time, since the connections module is built after this one.
  const secretsConnection = deps.secretsKubernetesConnection ?? deps.serve?.config.secretsKubernetesConnection;
  const secrets = createSecretsModule({
    pool,
    logger,
    sealer: deps.sealer,
    personOf,
    kubernetes: secretsConnection
      ? {
          connection: secretsConnection,
          resolveConnection: (reference) => connections.services.connections.resolve(reference),
        }
      : undefined,
  });
  // Connections: credentials sealed on write, references to the secret store resolved at use.
  const connections = createConnectionsModule({
    pool,
    logger,
    sealer: deps.sealer,
    resolveReference: secrets.services.secrets.resolveReference,
  });
  const health = createHealthModule({
    pool,
    logger,
    jobs,
    metrics: metrics.services.metrics,
    access: access.services.access,
    personOf,
    // Canaries' valueFrom references, read from the secret store in the canary's namespace.
    resolveSecret: secrets.services.secrets.resolveValueFrom,
    // Checks that name a connection (connection://<namespace>/<name>) read it when they run.
    resolveConnection: connections.services.connections.resolve,
    ...serve,
    ...deps.health,
  });
  // The catalog: scraper documents validated on write, per-item summaries refreshed by a job.
  const scrapeFileRoots = deps.catalog?.fileRoots ?? deps.serve?.config.scrapeFileRoots;
  const catalog = createCatalogModule({
    pool,
    logger,
    jobs,
    // sql and http scrapers that name a connection read it when they run.
    resolveConnection: connections.services.connections.resolve,
    // exec scrapers run their scripts where exec checks run theirs (ADR 0010).
    ...(deps.health?.sandbox ? { sandbox: deps.health.sandbox } : {}),
    ...serve,
    // file and kubernetesFile scrapers read only under these (ADR 0046).
    ...(scrapeFileRoots ? { fileRoots: scrapeFileRoots } : {}),
  });
  // Topology: documents run as jobs into components; roll-ups kept current by check and config events.
  const topology = createTopologyModule({
    pool,
    logger,
    jobs,
    events,
    // exec lookups run where exec checks do; sql lookups may name a stored connection.
    ...(deps.health?.sandbox ? { sandbox: deps.health.sandbox } : {}),
    resolveConnection: connections.services.connections.resolve,
    ...(deps.topology?.planIntervalMs !== undefined ? { planIntervalMs: deps.topology.planIntervalMs } : {}),
    ...serve,
  });
  // Notifications: rules matched against queue events, messages sent by an async consumer.
  const notifications = createNotificationsModule({
    pool,
    logger,
    jobs,
    events,
    resolveConnection: connections.services.connections.resolve,
    personOf,
    publicUrl: deps.publicUrl ?? deps.serve?.config.publicUrl ?? `http://localhost:${deps.port ?? 8080}`,
    ...serve,
    ...(deps.notifications ? { settings: deps.notifications } : {}),
  });
  // Incidents: the create flow, definition-of-done job, incident rules, responder dispatch, timeline.
  const incidents = createIncidentsModule({
    pool,
    logger,
    jobs,
    events,
    // Person and email responders are emailed through the identity outbox.
    mailer: { queueMessage: (message, tx) => identity.services.courier.queueMessage(message, tx) },
    resolveConnection: connections.services.connections.resolve,
    // Team responders tell the team's notification channels through the notification senders.
    sendNotification: notifications.services.sendDirect,
    personOf,
    publicUrl: deps.publicUrl ?? deps.serve?.config.publicUrl ?? `http://localhost:${deps.port ?? 8080}`,
    ...serve,
    ...(deps.incidents ? { settings: deps.incidents } : {}),
  });
  // Playbooks: documents, the run API, the executor over the database queue, event triggers.
  const playbooks = createPlaybooksModule({
    pool,
    logger,
    events,
    personOf,
    resolveConnection: connections.services.connections.resolve,
    resolveValueFrom: secrets.services.secrets.resolveValueFrom,
    // notification actions send through the notification senders.
    sendNotification: notifications.services.sendDirect,
    // exec actions run where exec checks do (ADR 0010).
    ...(deps.health?.sandbox ? { sandbox: deps.health.sandbox } : {}),
    ...serve,
    ...(deps.playbooks ? { settings: deps.playbooks } : {}),
  });
  // Logs: backends validated on /api/db writes; POST /api/logs reads a component's selector.
  const fileRoots = deps.logs?.fileRoots ?? deps.serve?.config.logFileRoots;
  const logs = createLogsModule({
    pool,
    resolveConnection: connections.services.connections.resolve,
    ...(fileRoots ? { fileRoots } : {}),
  });
  const dataApi = await createDataApiModule({
    pool,
    logger,
    access: access.services.access,
    featureFlags: access.services.featureFlags,
    // Canary writes are validated (and derived rows kept read-only) before the data API;
    // connection writes have their credentials sealed.
    guardWrites: [
      health.services.guardDataApiWrites,
      connections.services.guardDataApiWrites,
      catalog.services.guardDataApiWrites,
      topology.services.guardDataApiWrites,
      notifications.services.guardDataApiWrites,
      incidents.services.guardDataApiWrites,
      logs.services.guardDataApiWrites,
      playbooks.services.guardDataApiWrites,
    ],
  });
  // Resources across areas: the pickers' search over checks, components and config items.
  const resources = createResourcesModule({ pool });
  // kubeconfig downloads and the Kubernetes-compatible API kubectl uses: documents go through
  // the same appliers as `lookout apply -f` (docs/kubeconfig.md).
  const kubernetesApi = createKubernetesApiModule({
    pool,
    logger,
    version: deps.version,
    publicUrl: deps.publicUrl ?? deps.serve?.config.publicUrl,
    personOf,
    rolesOfPerson: access.services.rolesOfPerson,
    appliers: {
      ...healthCli.appliers,
      // ScrapeConfig documents are held to LOOKOUT_SCRAPE_FILE_ROOTS here, as on /api/db.
      ...catalog.services.appliers,
      ...topologyCli.appliers,
      ...notificationsCli.appliers,
      ...playbooksCli.appliers,
    },
  });
  // Agents: registration (/api/agent) and the receiver of their pushes (/upstream; docs/agents.md).
  const agents = createAgentsModule({ pool, personOf });
  // An agent (lookout serve --upstream): pushes what this Lookout owns to its upstream (docs/agents.md).
  const agentPush = createAgentPushModule({ pool, logger, jobs, ...serve });
  const system = createSystemModule({
    database: deps.database,
    version: deps.version,
    startedAt: deps.startedAt ?? new Date(),
  });
  const modules: ServerModule<unknown>[] = [
    identity,
    access,
    secrets,
    connections,
    dataApi,
    health,
    catalog,
    topology,
    notifications,
    incidents,
    logs,
    playbooks,
    resources,
    kubernetesApi,
    agents,
    agentPush,
    system,
    metrics,
  ];

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Consumers first: events under way finish while the modules they call still run.
      await events.stop();
      await jobs.stop();
      for (const module of [...modules].reverse()) await module.stop();
    })());
  app.addHook('onClose', stop);

  // HTTP plumbing, in the order requests meet it.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Every answer is counted by route pattern: the hook must exist before any route.
  metrics.services.instrument(app);
  // Every JSON body is refused past JSON_BODY_MAX_DEPTH levels of nesting before it is parsed.
  registerJsonBodyParser(app);
  // Security headers (CSP, frame and referrer policies) and brotli/gzip compression on every
  // answer, the not-found handler's included (http/security-headers.ts, http/compression.ts).
  registerSecurityHeaders(app);
  registerCompression(app);
  // Writes under /api that another site made the browser send with its session cookie are
  // refused before anything else looks at them (bearer tokens are not affected).
  registerCrossSiteGuard(app, {
    publicUrl: deps.publicUrl,
    hasSessionTokenHeader: identity.services.hasSessionTokenHeader,
  });
  // Installed before any route, so that every /api route must declare who may call it
  // (registration fails otherwise) and is checked on every request.
  access.services.protect(app);

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

  for (const module of modules) await module.routes(app);
  await registerWebApp(app, deps.webDir);

  return {
    app,
    jobs,
    events,
    modules: { metrics },
    async bootstrap() {
      const context: BootstrapContext = {};
      for (const module of modules) await module.bootstrap(context);
    },
    start() {
      for (const module of modules) module.start();
      jobs.start();
      events.start();
    },
    stop,
  };
}

/**
 * The app as tests and benches use it: composed, with the scheduled jobs started once it is
 * ready (as before the jobs module: identity housekeeping and the Kratos identity copy ran in
 * every app) and everything stopped when it closes. Module workers (the check scheduler, the
 * email outbox sender) run only under `lookout serve` (server.ts).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const composed = await createApp(deps);
  composed.app.addHook('onReady', async () => {
    composed.jobs.start();
  });
  return composed.app;
}
