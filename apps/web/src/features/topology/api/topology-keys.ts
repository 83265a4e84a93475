/** Query keys of the topology pages; `all` invalidates every one of them. */
export const topologyKeys = {
  all: ['topology'] as const,
  fetch: (query: Record<string, string>) => ['topology', 'fetch', query] as const,
  name: (id: string) => ['topology', 'name', id] as const,
  labels: () => ['topology', 'labels'] as const,
  agents: () => ['topology', 'agents'] as const,
  panel: (panel: string, id: string) => ['topology', 'panel', panel, id] as const,
  configSearch: (text: string) => ['topology', 'config-search', text] as const,
};
