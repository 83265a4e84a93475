import { featureDisableProperty, flagValues, isFeatureDisabled } from '@lookout/contracts';
import type { Feature } from '@lookout/contracts';
import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useProperties } from '../api/get-properties';
import { FeatureFlagsContext } from '../hooks/use-feature-flags';
import type { FeatureFlags } from '../hooks/use-feature-flags';

export interface FeatureFlagsProviderProps {
  /** Shown until the flags have loaded. */
  fallback: ReactNode;
  /**
   * Features this server leaves out whatever the flags say (its configuration, not a flag):
   * they disappear as a disabled feature does, with their children.
   */
  absent?: readonly Feature[];
  children: ReactNode;
}

const NONE: readonly Feature[] = [];

/**
 * Loads the feature flags once (`GET /api/properties`) and renders its children only then:
 * the route table is available only after the flags have loaded (spec 1, section 2.1), so a
 * disabled area never flashes on screen. Later refreshes keep the console on screen.
 */
export function FeatureFlagsProvider({ fallback, absent = NONE, children }: FeatureFlagsProviderProps) {
  const query = useProperties();
  const { data, refetch } = query;

  const value = useMemo<FeatureFlags | undefined>(() => {
    if (!data) return undefined;
    const flags = flagValues(data);
    // Kept apart from `flags`, which lists only what the properties say.
    const left = Object.fromEntries(absent.map((feature) => [featureDisableProperty(feature), 'true']));
    return {
      properties: data,
      flags,
      isFeatureDisabled: (feature) => isFeatureDisabled(flags, feature) || isFeatureDisabled(left, feature),
      refresh: async () => {
        await refetch();
      },
    };
  }, [data, refetch, absent]);

  if (value) return <FeatureFlagsContext value={value}>{children}</FeatureFlagsContext>;
  if (query.isError) return <ErrorPanel error={query.error} onRetry={() => void refetch()} />;
  return fallback;
}
