import {
  ACTIONS,
  can,
  effectiveRoles,
  FEATURES,
  RESOURCES,
  ROLES,
  type Action,
  type Feature,
  type Resource,
  type Role,
} from '@lookout/contracts';

/**
 * Who may call a route under /api:
 * - `'public'`: anyone, signed in or not (health, version, docs);
 * - `'authenticated'`: any signed-in person, whatever their roles (whoami, the property
 *   list, the data API, whose engine then checks each relation against its resource);
 * - `{ resource, action }`: a signed-in person whose roles grant the action on the resource;
 * - `{ roles }`: a signed-in person holding one of these roles, for the few gates the spec
 *   words as a role list rather than a permission (spec 2 section 6: Run Now is for admin,
 *   editor, responder and commander). A person without roles counts as a viewer.
 */
export type RouteAccess =
  'public' | 'authenticated' | { resource: Resource; action: Action } | { roles: readonly Role[] };

/** Why a route needs no declaration of its own. */
export type ImplicitAccessReason = 'api-docs' | 'kratos-public-api' | 'kubernetes-api';

/** One registered /api route and its access, as the registry keeps it. */
export type RouteAccessEntry = {
  method: string;
  url: string;
  access: RouteAccess;
  feature?: Feature;
  /** Set when the access was not declared by the route but follows from where it lives. */
  implicit?: ImplicitAccessReason;
};

/** What the access check concluded for one request. */
export type AccessDecision = 'allow' | 'unauthenticated' | 'forbidden';

/** True for /api and everything under it (the web app's own paths are not checked). */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

/**
 * Routes that need no declaration: the OpenAPI docs (registered by @fastify/swagger-ui) and
 * the Ory Kratos public API under /api/.ory, whose self-service flows and session endpoints
 * authenticate callers themselves, as Kratos does (the admin API under /api/.ory/admin is
 * not part of it and declares its resource); and the Kubernetes-compatible API under
 * /api/kubernetes, which takes only kubeconfig tokens and checks their roles itself
 * (docs/kubeconfig.md).
 */
export function implicitAccess(url: string): ImplicitAccessReason | undefined {
  if (url === '/api/docs' || url.startsWith('/api/docs/')) return 'api-docs';
  if (url.startsWith('/api/.ory/') && !url.startsWith('/api/.ory/admin/')) return 'kratos-public-api';
  if (url === '/api/kubernetes' || url.startsWith('/api/kubernetes/')) return 'kubernetes-api';
  return undefined;
}

/** Explains what is wrong with a declaration, or undefined when it is well formed. */
export function declarationProblem(access: unknown, feature: unknown): string | undefined {
  if (feature !== undefined && !(FEATURES as readonly unknown[]).includes(feature)) {
    return `config.feature '${String(feature)}' is not a feature; use one of ${FEATURES.join(', ')}.`;
  }
  if (access === 'public' || access === 'authenticated') return undefined;
  if (typeof access !== 'object' || access === null) {
    return `config.rbac must be 'public', 'authenticated' or { resource, action }; got ${JSON.stringify(access)}.`;
  }
  if ('roles' in access) {
    const { roles } = access as { roles: unknown };
    if (
      !Array.isArray(roles) ||
      roles.length === 0 ||
      roles.some((role) => !(ROLES as readonly unknown[]).includes(role))
    ) {
      return `config.rbac.roles must be a non-empty list of ${ROLES.join(', ')}; got ${JSON.stringify(roles)}.`;
    }
    return undefined;
  }
  const { resource, action } = access as { resource?: unknown; action?: unknown };
  if (!(RESOURCES as readonly unknown[]).includes(resource)) {
    return `config.rbac.resource '${String(resource)}' is not a resource of spec 1 section 6; use one of ${RESOURCES.join(', ')}.`;
  }
  if (!(ACTIONS as readonly unknown[]).includes(action)) {
    return `config.rbac.action '${String(action)}' must be read or write.`;
  }
  return undefined;
}

/** The message a route registered without a declaration fails with. */
export function missingDeclarationMessage(methods: readonly string[], url: string): string {
  return (
    `Route ${methods.join(',')} ${url} does not declare who may call it. Add ` +
    "config: { rbac: { resource, action } } (or rbac: 'public' / 'authenticated'), or use " +
    'preHandler: app.requirePermission(resource, action); see docs/access.md.'
  );
}

/**
 * The access decision for a caller: `roles` is null when nobody is signed in. A person
 * without roles is a viewer (inside `can`).
 */
export function decideAccess(access: RouteAccess, roles: readonly Role[] | null): AccessDecision {
  if (access === 'public') return 'allow';
  if (roles === null) return 'unauthenticated';
  if (access === 'authenticated') return 'allow';
  if ('roles' in access)
    return effectiveRoles(roles).some((role) => access.roles.includes(role)) ? 'allow' : 'forbidden';
  return can(roles, access.resource, access.action) ? 'allow' : 'forbidden';
}

/** "write on identities", for messages and docs. */
export function describeAccess(access: RouteAccess): string {
  if (access === 'public') return 'public';
  if (access === 'authenticated') return 'any signed-in user';
  if ('roles' in access) return `roles ${access.roles.join(', ')}`;
  return `${access.action} on ${access.resource}`;
}
