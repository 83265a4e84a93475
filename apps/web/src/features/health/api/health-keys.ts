/** Query keys of the health feature; `all` invalidates everything after a run or a save. */
export const healthKeys = {
  all: ['health'] as const,
  summaries: () => ['health', 'summary'] as const,
  summary: (range: string, checkId?: string) => ['health', 'summary', range, checkId ?? null] as const,
  check: (id: string) => ['health', 'check', id] as const,
  statuses: (checkId: string) => ['health', 'statuses', checkId] as const,
  statusPage: (checkId: string, filters: object) => ['health', 'statuses', checkId, filters] as const,
  graph: (checkId: string, range: string) => ['health', 'statuses', checkId, 'graph', range] as const,
  canary: (id: string) => ['health', 'canary', id] as const,
  agents: (ids: readonly string[]) => ['health', 'agents', [...ids].sort()] as const,
};
