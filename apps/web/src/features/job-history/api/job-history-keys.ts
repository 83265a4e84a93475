/** Query keys of the job history feature. */
export const jobHistoryKeys = {
  all: ['job-history'] as const,
  /** A page of runs; `filters` holds the range's identity, not its resolved instants. */
  list: (filters: Record<string, unknown>) => ['job-history', 'list', filters] as const,
  names: () => ['job-history', 'names'] as const,
};
