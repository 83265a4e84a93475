import { can, canAny } from '@lookout/contracts';
import type { Role } from '@lookout/contracts';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { usePeopleRoles } from '../api/get-people-roles';
import { PermissionsContext } from '../hooks/use-permissions';
import type { Permissions } from '../hooks/use-permissions';
import { isViewerOnly } from '../lib/permission-fns';

const NO_ROLES: readonly Role[] = [];

export interface PermissionsProviderProps {
  /** The signed-in user, whose `people_roles` row gives the roles. */
  userId: string;
  /**
   * Shown instead of the children until the roles are known, so menus and actions do not
   * appear one after the other. Without it the children render at once and guarded areas
   * wait on their own.
   */
  fallback?: ReactNode;
  children: ReactNode;
}

/**
 * Reads the signed-in user's roles from `people_roles` and offers the permission checks of
 * the shared table (`can`, `canAny` from contracts) to everything below. The web only hides
 * what the roles forbid; the server enforces. If the roles cannot be read the user is
 * treated as having none, that is as a viewer (spec 1, section 6).
 */
export function PermissionsProvider({ userId, fallback, children }: PermissionsProviderProps) {
  const ids = useMemo(() => [userId], [userId]);
  const query = usePeopleRoles(ids);
  const { refetch } = query;
  const row = query.data?.find((entry) => entry.id === userId);
  const roles = row?.roles ?? NO_ROLES;
  const status = query.isPending ? 'pending' : query.isError && !query.data ? 'error' : 'success';

  const value = useMemo<Permissions>(() => {
    const known = status !== 'pending';
    return {
      userId,
      status,
      roles,
      can: (resource, action) => known && can(roles, resource, action),
      canAny: (resources, action) => known && canAny(roles, resources, action),
      isViewer: !known || isViewerOnly(roles),
      refresh: async () => {
        await refetch();
      },
    };
  }, [userId, status, roles, refetch]);

  if (status === 'pending' && fallback !== undefined) return fallback;
  return <PermissionsContext value={value}>{children}</PermissionsContext>;
}
