import { createContext, useContext } from 'react';
import type { Action, Resource, Role } from '@lookout/contracts';

/** What the console knows about the signed-in user's permissions (spec 1, section 6). */
export interface Permissions {
  /** The signed-in user's id (the people and identity id). */
  userId: string;
  /** `pending` until the roles are read; checks answer false meanwhile. */
  status: 'pending' | 'success' | 'error';
  /** The roles as stored (an empty list is a viewer). */
  roles: readonly Role[];
  /** True when the roles grant the action on the resource. */
  can: (resource: Resource, action: Action) => boolean;
  /** True when the roles grant the action on at least one of the resources. */
  canAny: (resources: readonly Resource[], action: Action) => boolean;
  /** Only a viewer (no role, or viewer alone): the Settings submenu is hidden. */
  isViewer: boolean;
  /** Reads the roles again (after changing one's own role, for instance). */
  refresh: () => Promise<void>;
}

/** Provided by `PermissionsProvider` around the signed-in console. */
export const PermissionsContext = createContext<Permissions | undefined>(undefined);

/** The signed-in user's permissions; only valid below `PermissionsProvider`. */
export function usePermissions(): Permissions {
  const permissions = useContext(PermissionsContext);
  if (!permissions) throw new Error('usePermissions is used outside PermissionsProvider.');
  return permissions;
}

/** The permissions, or undefined outside the signed-in console (the dev gallery). */
export function useOptionalPermissions(): Permissions | undefined {
  return useContext(PermissionsContext);
}
