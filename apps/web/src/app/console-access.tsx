import { usePrefetchQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { PermissionsProvider } from '@/features/access/components/permissions-provider';
import { propertiesQueryOptions } from '@/features/feature-flags/api/get-properties';
import { FeatureFlagsProvider } from '@/features/feature-flags/components/feature-flags-provider';
import { useAuthConfig } from '@/features/identity/api/get-auth-config';
import { useCurrentUser } from '@/features/identity/hooks/use-current-user';
import { absentFeatures } from './absent-features';

export interface ConsoleAccessProps {
  /** Shown until the feature flags, the roles and the server's settings have loaded. */
  fallback: ReactNode;
  children: ReactNode;
}

/**
 * What the signed-in console needs before its routes (ui-calls section 2): the feature flags
 * (`GET /api/properties`; nothing renders before them, spec 1 section 2.1), the user's roles
 * (`GET /api/db/people_roles?id=in.(<me>)`) and the server's settings (`GET /api/auth/config`:
 * without user administration the Users page is left out, as a disabled feature is), so the
 * sidebar and the pages' actions appear at once rather than one after the other. The requests
 * start together. Lives in the app layer because it joins the identity feature's user and
 * settings with the access and feature-flags features.
 */
export function ConsoleAccess({ fallback, children }: ConsoleAccessProps) {
  const user = useCurrentUser();
  const authConfig = useAuthConfig();
  // Started here so the flags load while the roles do, not after them.
  usePrefetchQuery(propertiesQueryOptions());
  const absent = authConfig.data ? absentFeatures(authConfig.data) : undefined;
  let content = children;
  if (!absent) {
    content = authConfig.isError ? (
      <ErrorPanel error={authConfig.error} onRetry={() => void authConfig.refetch()} />
    ) : (
      fallback
    );
  }
  return (
    <PermissionsProvider userId={user.id} fallback={fallback}>
      <FeatureFlagsProvider fallback={fallback} {...(absent ? { absent } : {})}>
        {content}
      </FeatureFlagsProvider>
    </PermissionsProvider>
  );
}
