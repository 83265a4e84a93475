import { createContext, useContext } from 'react';
import type { Feature, FeatureFlagValues, Property } from '@lookout/contracts';

/** The feature flags the console runs with (spec 1, sections 4 and 6). */
export interface FeatureFlags {
  /** Every property `GET /api/properties` listed, local ones first. */
  properties: readonly Property[];
  /** Property values by name. */
  flags: FeatureFlagValues;
  /** True when `{feature}.disable` (or the parent feature's) is `true`. */
  isFeatureDisabled: (feature: Feature) => boolean;
  /** Loads the flags again; routes and menus follow. */
  refresh: () => Promise<void>;
}

/** Provided by `FeatureFlagsProvider` once the flags have loaded. */
export const FeatureFlagsContext = createContext<FeatureFlags | undefined>(undefined);

/** The loaded flags; only valid below `FeatureFlagsProvider`. */
export function useFeatureFlags(): FeatureFlags {
  const flags = useContext(FeatureFlagsContext);
  if (!flags) throw new Error('useFeatureFlags is used outside FeatureFlagsProvider.');
  return flags;
}

/** The flags, or undefined outside the signed-in console (the dev gallery shows everything). */
export function useOptionalFeatureFlags(): FeatureFlags | undefined {
  return useContext(FeatureFlagsContext);
}
