/** Query keys of the notifications feature; `all` is what the pages' refresh buttons invalidate. */
export const notificationKeys = {
  all: ['notifications'] as const,
  history: (filters: object) => ['notifications', 'history', filters] as const,
  historyRow: (id: string) => ['notifications', 'history-row', id] as const,
  rules: (page: object) => ['notifications', 'rules', page] as const,
  rule: (id: string) => ['notifications', 'rule', id] as const,
  silences: (page: object) => ['notifications', 'silences', page] as const,
  recipients: (kind: string) => ['notifications', 'recipients', kind] as const,
  resources: (kind: string, ids: readonly string[]) => ['notifications', 'resources', kind, ids] as const,
  resourceChoices: (kind: string) => ['notifications', 'resource-choices', kind] as const,
  traces: (query: object) => ['notifications', 'traces', query] as const,
};
