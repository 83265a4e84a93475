/** Query keys of the access feature, so invalidations reach every list that depends on them. */
export const accessKeys = {
  all: ['access'] as const,
  /** Sorted, so the same people in another order share one cache entry. */
  peopleRoles: (ids: readonly string[]) => ['access', 'people-roles', [...ids].sort()] as const,
  identities: () => ['access', 'identities'] as const,
};
