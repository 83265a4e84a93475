import { RESOURCES, type Action, type Resource, type Role } from './enums.js';

const except = (...excluded: Resource[]): Resource[] => RESOURCES.filter((resource) => !excluded.includes(resource));

/**
 * The permission table of spec 1, section 6: which resources each role may read and write.
 * Server (which enforces) and web (which only hides) both read this one table.
 */
export const PERMISSIONS: Record<Role, Record<Action, readonly Resource[]>> = {
  admin: { read: RESOURCES, write: RESOURCES },
  editor: { read: RESOURCES, write: except('connections', 'identities', 'rbac') },
  commander: {
    read: except('rbac', 'identities', 'connections'),
    write: ['responder', 'incident', 'evidences', 'comments'],
  },
  responder: {
    read: except('rbac', 'identities', 'connections'),
    write: ['responder', 'incident', 'evidences', 'comments'],
  },
  viewer: { read: except('rbac', 'identities', 'connections'), write: [] },
};

/** A user with no roles is treated as a viewer (spec 1, section 6). */
export function effectiveRoles(roles: readonly Role[]): readonly Role[] {
  return roles.length === 0 ? ['viewer'] : roles;
}

/** True when any of the roles grants the action on the resource (permissions are a union). */
export function can(roles: readonly Role[], resource: Resource, action: Action): boolean {
  return effectiveRoles(roles).some((role) => PERMISSIONS[role][action].includes(resource));
}

/** True when the roles grant the action on at least one of the resources (guarded areas). */
export function canAny(roles: readonly Role[], resources: readonly Resource[], action: Action): boolean {
  return resources.some((resource) => can(roles, resource, action));
}
