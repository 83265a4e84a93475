import type { Role } from '@lookout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import { noWorkers, type ServeContext, type ServerModule } from '../../http/server-module.js';
import type { IdentityServices } from '../identity/identity-module.js';
import { createFirstAdminGrant, ensureAdminRole } from './access-bootstrap.js';
import { createAccessRepository } from './access-repository.js';
import { accessRoutes } from './access-routes.js';
import {
  createAccessService,
  createPersonRoleResolver,
  memoizePerRequest,
  type AccessService,
  type RoleResolver,
} from './access-service.js';
import { createFeatureFlagsService, type FeatureFlagsService } from './feature-flags-service.js';
import type { LocalProperty } from './local-properties-fns.js';
import { loadLocalProperties } from './local-properties.js';
import { registerRouteAccess } from './route-access.js';
import { createUsersService } from './users-service.js';

export type AccessModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  identity: Pick<IdentityServices, 'resolveSession' | 'identityAdmin' | 'courier' | 'requestContext'>;
  /** Replaces how the caller's roles are found (some tests sign in as a role this way). */
  resolveRoles?: RoleResolver;
  /** Properties from the server configuration (source local, read-only); tests pass them. */
  localProperties?: readonly LocalProperty[];
  /**
   * `lookout serve`: the local properties are read from its configuration (LOOKOUT_PROPERTIES,
   * the properties file), once, and `bootstrap` makes sure someone holds the admin role.
   */
  serve?: ServeContext;
  /**
   * LOOKOUT_ADMIN_EMAIL: with an external Kratos the first person seen with it as a verified
   * email, while no active admin exists, gets the admin role (default admin@lookout.local).
   */
  adminEmail: string;
};

export type AccessServices = {
  access: AccessService;
  featureFlags: Pick<FeatureFlagsService, 'localNames' | 'invalidate' | 'isDisabled'>;
  /** The signed-in person's session, looked up once per request whoever asks. */
  sessionOf: (request: FastifyRequest) => Promise<{ identityId: string } | null>;
  /** The roles of a person (tokens that stand for a person: kubeconfig tokens), read fresh each call. */
  rolesOfPerson: (personId: string) => Promise<Role[]>;
  /**
   * Installs the route access check: called before any route is registered, so that every
   * /api route must declare who may call it (registration fails otherwise).
   */
  protect: (app: FastifyInstance) => void;
  /** A person seen in an external Kratos: the admin email gets the first admin role. */
  onPersonSynced: ReturnType<typeof createFirstAdminGrant>;
};

export type AccessModule = ServerModule<AccessServices>;

/**
 * Access: each request's roles are the signed-in person's, read fresh from the database (once
 * per request, whoever asks); feature flags; user administration and properties at /api.
 */
export async function createAccessModule(deps: AccessModuleDeps): Promise<AccessModule> {
  const localProperties =
    deps.localProperties ?? (deps.serve ? await readLocalProperties(deps.serve, deps.logger) : []);
  const repository = createAccessRepository(deps.pool);
  const sessionOf = memoizePerRequest(deps.identity.resolveSession);
  const resolveRoles: RoleResolver = deps.resolveRoles
    ? memoizePerRequest(deps.resolveRoles)
    : createPersonRoleResolver({ resolveSession: sessionOf, repository });
  const access = createAccessService({ resolveRoles });
  const featureFlags = createFeatureFlagsService({ repository, local: localProperties });
  return {
    services: {
      access,
      featureFlags,
      sessionOf,
      rolesOfPerson: (personId: string) => repository.rolesOf(personId),
      protect: (app) => registerRouteAccess(app).bind({ resolveRoles, isFeatureDisabled: featureFlags.isDisabled }),
      onPersonSynced: createFirstAdminGrant({ pool: deps.pool, logger: deps.logger, adminEmail: deps.adminEmail }),
    },
    async routes(app) {
      await app.register(accessRoutes, {
        prefix: '/api',
        users: createUsersService({
          repository,
          identityAdmin: deps.identity.identityAdmin,
          courier: deps.identity.courier,
          logger: deps.logger,
        }),
        featureFlags,
        resolveSession: sessionOf,
        requestContext: deps.identity.requestContext,
      });
    },
    async bootstrap(context) {
      // With an external Kratos the admin email gets the role at sign-in instead (onPersonSynced).
      if (!deps.serve || deps.serve.config.kratosPublicUrl) return;
      // The first admin gets the admin role; with no active admin left, the person with the
      // admin email gets it back.
      await ensureAdminRole({
        pool: deps.pool,
        logger: deps.logger,
        ...(context.createdAdminId ? { createdAdminId: context.createdAdminId } : {}),
        adminEmail: deps.adminEmail,
      });
    },
    ...noWorkers,
  };
}

/** The configuration's local properties, read once at start. */
async function readLocalProperties({ config }: ServeContext, logger: Logger): Promise<LocalProperty[]> {
  const properties = await loadLocalProperties({
    ...(config.properties !== undefined ? { inline: config.properties } : {}),
    ...(config.propertiesFile ? { file: config.propertiesFile } : {}),
    dataDir: config.dataDir,
  });
  if (properties.length > 0) {
    logger.info({ properties: properties.map((property) => property.name) }, 'Loaded local properties');
  }
  return properties;
}
