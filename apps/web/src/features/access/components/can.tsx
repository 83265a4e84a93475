import type { Action, Resource } from '@lookout/contracts';
import type { ReactNode } from 'react';
import { UnauthorizedView } from '@/components/ui/unauthorized-view';
import { usePermissions } from '../hooks/use-permissions';

export interface CanProps {
  /** The resource, or resources of which any one suffices. */
  resource: Resource | readonly Resource[];
  action: Action;
  /** Show the Unauthorized view instead of nothing when the user may not. */
  showUnauthorized?: boolean;
  /** Shown while the roles are still being read; nothing by default. */
  pending?: ReactNode;
  children: ReactNode;
}

/**
 * A guarded area (spec 1, section 6): renders its children only when the signed-in user has
 * the action on any listed resource; otherwise nothing, or the Unauthorized view when
 * `showUnauthorized` is set. Nothing is decided before the roles are known, so an admin
 * never sees the Unauthorized view flash.
 */
export function Can({ resource, action, showUnauthorized = false, pending = null, children }: CanProps) {
  const permissions = usePermissions();
  if (permissions.status === 'pending') return pending;
  const resources: readonly Resource[] = typeof resource === 'string' ? [resource] : resource;
  if (permissions.canAny(resources, action)) return children;
  return showUnauthorized ? <UnauthorizedView /> : null;
}
