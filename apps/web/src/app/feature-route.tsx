import type { Feature } from '@lookout/contracts';
import { Outlet } from 'react-router';
import { NotFound } from '@/components/ui/not-found';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';

export interface FeatureRouteProps {
  feature: Feature;
}

/**
 * A pathless parent route for the pages of one feature: while the feature is disabled
 * (`{feature}.disable`, or its parent's) its routes are gone and the address shows the
 * not-found page, as any unknown address does (spec 1, section 6).
 */
export function FeatureRoute({ feature }: FeatureRouteProps) {
  const { isFeatureDisabled } = useFeatureFlags();
  return isFeatureDisabled(feature) ? <NotFound /> : <Outlet />;
}
