/** Query keys of the feature flags feature. */
export const featureFlagKeys = {
  all: ['feature-flags'] as const,
  properties: () => ['feature-flags', 'properties'] as const,
};
