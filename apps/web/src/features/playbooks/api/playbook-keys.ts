/** React Query keys of the playbook screens; invalidating `all` refreshes every one. */
export const playbookKeys = {
  all: ['playbooks'] as const,
  names: () => [...playbookKeys.all, 'names'] as const,
  detail: (id: string) => [...playbookKeys.all, 'detail', id] as const,
  forResource: (target: object) => [...playbookKeys.all, 'for-resource', target] as const,
  params: (id: string, target: object) => [...playbookKeys.all, 'params', id, target] as const,
  resources: (kind: string, search: string) => [...playbookKeys.all, 'resources', kind, search] as const,
  runs: () => [...playbookKeys.all, 'runs'] as const,
  runList: (filters: object) => [...playbookKeys.runs(), 'list', filters] as const,
  run: (id: string) => [...playbookKeys.runs(), 'run', id] as const,
  runActions: (id: string) => [...playbookKeys.runs(), 'actions', id] as const,
  action: (id: string) => [...playbookKeys.runs(), 'action', id] as const,
};
