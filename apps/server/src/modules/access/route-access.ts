import { effectiveRoles, type Action, type Feature, type Resource, type Role } from '@lookout/contracts';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { forbiddenMessage, SIGN_IN_MESSAGE, type RoleResolver } from './access-service.js';
import {
  decideAccess,
  declarationProblem,
  implicitAccess,
  isApiPath,
  missingDeclarationMessage,
  type RouteAccess,
  type RouteAccessEntry,
} from './route-access-fns.js';

const DECLARED_ACCESS = Symbol('lookout.routeAccess');

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route: `'public'`, `'authenticated'` or `{ resource, action }` of
     * spec 1 section 6. Every route under /api declares it, or registration fails
     * (docs/access.md).
     */
    rbac?: RouteAccess;
    /** The feature the route belongs to: while `{feature}.disable` is true it answers 404. */
    feature?: Feature;
  }

  interface FastifyInstance {
    /**
     * A preHandler that answers 401/403 unless the caller may `action` on `resource`. A route
     * that uses it needs no `config.rbac`: the declaration is read from it.
     */
    requirePermission: (resource: Resource, action: Action) => PermissionPreHandler;
    /** Every /api route registered so far with the access it declared. */
    routeAccess: RouteAccessRegistry;
  }
}

/** The preHandler `requirePermission` returns; carries its declaration for the registry. */
export type PermissionPreHandler = ((request: FastifyRequest) => Promise<void>) & {
  readonly [DECLARED_ACCESS]: { resource: Resource; action: Action };
};

export type RouteAccessRegistry = {
  /** The registered /api routes, in registration order (HEAD twins of GET routes included). */
  routes: () => readonly RouteAccessEntry[];
};

export type RouteAccessDeps = {
  /** The caller's roles, or null when nobody is signed in. */
  resolveRoles: RoleResolver;
  /** True while the feature (or its parent) is switched off. */
  isFeatureDisabled: (feature: Feature) => Promise<boolean>;
};

export type RouteAccessControl = {
  /** Supplies the role resolver and feature flags once the services exist (see app.ts). */
  bind: (deps: RouteAccessDeps) => void;
  registry: RouteAccessRegistry;
};

/**
 * Installs route-level access control on the root instance. It has to run before any route
 * is registered (Fastify gives a route the hooks that exist when the route is added), which
 * is before the services it needs are built: they arrive later through `bind`.
 *
 * - `onRoute` records every /api route with its declaration and throws for a route that has
 *   none, so a route added later cannot start without saying who may call it.
 * - `onRequest` (before body parsing and validation) answers 404 for a disabled feature,
 *   401 when a non-public route is called without a session, and 403 when the caller's
 *   roles lack the declared action, in the route's own error format.
 */
export function registerRouteAccess(app: FastifyInstance): RouteAccessControl {
  const entries: RouteAccessEntry[] = [];
  let deps: RouteAccessDeps | undefined;
  const bound = (): RouteAccessDeps => {
    if (!deps) throw new Error('Route access control is not bound to its services yet (call bind in app.ts).');
    return deps;
  };

  const registry: RouteAccessRegistry = { routes: () => entries };

  async function check(request: FastifyRequest, access: RouteAccess): Promise<void> {
    if (access === 'public') return;
    const roles: readonly Role[] | null = await bound().resolveRoles(request);
    const decision = decideAccess(access, roles);
    if (decision === 'unauthenticated') throw new AppError(401, 'unauthorized', SIGN_IN_MESSAGE);
    if (decision === 'forbidden' && typeof access === 'object') {
      const message =
        'roles' in access
          ? `Your roles (${effectiveRoles(roles ?? []).join(', ')}) are not among those allowed here (${access.roles.join(', ')}).`
          : forbiddenMessage(roles ?? [], access.resource, access.action);
      throw new AppError(403, 'forbidden', message);
    }
  }

  app.decorate('routeAccess', registry);
  app.decorate('requirePermission', (resource: Resource, action: Action): PermissionPreHandler => {
    const handler = async (request: FastifyRequest) => check(request, { resource, action });
    return Object.assign(handler, { [DECLARED_ACCESS]: { resource, action } });
  });

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiPath(route.url)) return;
    const methods = [route.method].flat().map(String);
    route.config ??= {};
    const config = route.config;
    const fromPreHandler = [route.preHandler ?? []]
      .flat()
      .map((handler) => (handler as Partial<PermissionPreHandler>)[DECLARED_ACCESS])
      .find((declared) => declared !== undefined);
    if (config.rbac === undefined && fromPreHandler) config.rbac = fromPreHandler;
    const implicit = config.rbac === undefined ? implicitAccess(route.url) : undefined;
    if (config.rbac === undefined && !implicit) throw new Error(missingDeclarationMessage(methods, route.url));
    const problem = declarationProblem(config.rbac ?? 'public', config.feature);
    if (problem) throw new Error(`Route ${methods.join(',')} ${route.url}: ${problem}`);
    for (const method of methods) {
      entries.push({
        method,
        url: route.url,
        access: config.rbac ?? 'public',
        ...(config.feature ? { feature: config.feature } : {}),
        ...(implicit ? { implicit } : {}),
      });
    }
  });

  async function checkFeatureAndAccess(request: FastifyRequest, rbac: RouteAccess | undefined, feature: Feature) {
    if (await bound().isFeatureDisabled(feature)) {
      throw new AppError(
        404,
        'feature_disabled',
        `The ${feature} feature is disabled (property '${feature}.disable').`,
      );
    }
    if (rbac !== undefined) await check(request, rbac);
  }

  // A callback hook: a request with nothing to check (the web app's files, public routes) goes
  // on at once, and one that needs its roles waits for exactly that promise.
  app.addHook('onRequest', (request, _reply, done) => {
    // Fastify builds a new routeOptions object on every read: read it once.
    const { url, config } = request.routeOptions;
    // Unmatched paths (the not-found handler) and the web app's own files are not ours.
    if (url === undefined || !isApiPath(url)) return done();
    const { rbac, feature } = config;
    const checked = feature
      ? checkFeatureAndAccess(request, rbac, feature)
      : rbac !== undefined
        ? check(request, rbac)
        : undefined;
    if (!checked) return done();
    checked.then(() => done(), done);
  });

  return { bind: (next) => void (deps = next), registry };
}
