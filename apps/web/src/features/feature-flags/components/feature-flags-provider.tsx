import { flagValues, isFeatureDisabled } from '@lookout/contracts';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useProperties } from '../api/get-properties';
import { FeatureFlagsContext } from '../hooks/use-feature-flags';
import type { FeatureFlags } from '../hooks/use-feature-flags';

export interface FeatureFlagsProviderProps {
  /** Shown until the flags have loaded. */
  fallback: ReactNode;
  children: ReactNode;
}

/**
 * Loads the feature flags once (`GET /api/properties`) and renders its children only then:
 * the route table is available only after the flags have loaded (spec 1, section 2.1), so a
 * disabled area never flashes on screen. Later refreshes keep the console on screen.
 */
export function FeatureFlagsProvider({ fallback, children }: FeatureFlagsProviderProps) {
  const query = useProperties();
  const { data, refetch } = query;

  const value = useMemo<FeatureFlags | undefined>(() => {
    if (!data) return undefined;
    const flags = flagValues(data);
    return {
      properties: data,
      flags,
      isFeatureDisabled: (feature) => isFeatureDisabled(flags, feature),
      refresh: async () => {
        await refetch();
      },
    };
  }, [data, refetch]);

  if (value) return <FeatureFlagsContext value={value}>{children}</FeatureFlagsContext>;
  if (query.isError) return <ErrorPanel error={query.error} onRetry={() => void refetch()} />;
  return fallback;
}
