import { can, effectiveRoles, type Action, type Resource, type Role } from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import type { AccessRepository } from './access-repository.js';

/** Finds the roles of whoever sent the request; `null` means nobody is signed in. */
export type RoleResolver = (request: FastifyRequest) => Promise<readonly Role[] | null>;

/** What role resolution needs to know about the caller's session. */
export type SessionLookup = (request: FastifyRequest) => Promise<{ identityId: string } | null>;

/**
 * Runs `resolve` once per request and hands every later caller (the route-access hook, the
 * data API, a service) the same promise, so a request costs one session lookup and one
 * role query however many places ask.
 */
export function memoizePerRequest<T>(resolve: (request: FastifyRequest) => Promise<T>) {
  // The answer rides on the request itself under a key of this memo's own, rather than in a
  // WeakMap: a WeakMap entry per request is work for every garbage collection until the
  // request is gone.
  const key = Symbol('lookout.memoizedPerRequest');
  type Carrier = FastifyRequest & { [key]?: Promise<T> };
  return (request: FastifyRequest): Promise<T> => {
    const carrier = request as Carrier;
    let pending = carrier[key];
    if (!pending) {
      pending = resolve(request);
      carrier[key] = pending;
    }
    return pending;
  };
}

export type PersonRoleResolverDeps = {
  resolveSession: SessionLookup;
  repository: Pick<AccessRepository, 'rolesOf'>;
};

/**
 * The roles of the signed-in person, read from `role_assignments` on every request (spec 1,
 * section 6: "fetched fresh each time"), so a role change or removal takes effect on the
 * person's next request. The identity id is the person id.
 */
export function createPersonRoleResolver({ resolveSession, repository }: PersonRoleResolverDeps): RoleResolver {
  return memoizePerRequest(async (request) => {
    const session = await resolveSession(request);
    return session ? repository.rolesOf(session.identityId) : null;
  });
}

/** 403 message naming the caller's roles, the action and the resource. */
export function forbiddenMessage(roles: readonly Role[], resource: Resource, action: Action): string {
  return `Your roles (${effectiveRoles(roles).join(', ')}) do not allow ${action} on ${resource}.`;
}

export const SIGN_IN_MESSAGE = 'Sign in to use Lookout.';

export type AccessServiceDeps = { resolveRoles: RoleResolver };
export type AccessService = ReturnType<typeof createAccessService>;

export function createAccessService({ resolveRoles }: AccessServiceDeps) {
  /** The caller's effective roles (no roles means viewer); 401 when nobody is signed in. */
  async function rolesOf(request: FastifyRequest): Promise<readonly Role[]> {
    const roles = await resolveRoles(request);
    if (roles === null) throw new AppError(401, 'unauthorized', SIGN_IN_MESSAGE);
    return effectiveRoles(roles);
  }

  /** Throws 403 unless the roles grant the action on the resource. */
  function assertCan(roles: readonly Role[], resource: Resource, action: Action): void {
    if (!can(roles, resource, action)) throw new AppError(403, 'forbidden', forbiddenMessage(roles, resource, action));
  }

  return {
    rolesOf,
    assertCan,
    /** 401 unless signed in, then 403 unless the caller's roles grant the action. */
    async requirePermission(request: FastifyRequest, resource: Resource, action: Action): Promise<readonly Role[]> {
      const roles = await rolesOf(request);
      assertCan(roles, resource, action);
      return roles;
    },
  };
}
