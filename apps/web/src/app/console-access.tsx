import { usePrefetchQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PermissionsProvider } from '@/features/access/components/permissions-provider';
import { propertiesQueryOptions } from '@/features/feature-flags/api/get-properties';
import { FeatureFlagsProvider } from '@/features/feature-flags/components/feature-flags-provider';
import { useCurrentUser } from '@/features/identity/hooks/use-current-user';

export interface ConsoleAccessProps {
  /** Shown until the feature flags and the roles have loaded. */
  fallback: ReactNode;
  children: ReactNode;
}

/**
 * What the signed-in console needs before its routes (ui-calls section 2): the feature flags
 * (`GET /api/properties`; nothing renders before them, spec 1 section 2.1) and the user's
 * roles (`GET /api/db/people_roles?id=in.(<me>)`), so the sidebar and the pages' actions
 * appear at once rather than one after the other. Both requests start together. Lives in the
 * app layer because it joins the identity feature's user with the access and feature-flags
 * features.
 */
export function ConsoleAccess({ fallback, children }: ConsoleAccessProps) {
  const user = useCurrentUser();
  // Started here so the flags load while the roles do, not after them.
  usePrefetchQuery(propertiesQueryOptions());
  return (
    <PermissionsProvider userId={user.id} fallback={fallback}>
      <FeatureFlagsProvider fallback={fallback}>{children}</FeatureFlagsProvider>
    </PermissionsProvider>
  );
}
