import type { IncidentListFilters } from '../lib/incident-list-params';

/** Query keys of the incident screens; `all` invalidates every one of them. */
export const incidentKeys = {
  all: ['incidents'] as const,
  list: (filters: IncidentListFilters) => ['incidents', 'list', filters] as const,
  detail: (id: string) => ['incidents', 'detail', id] as const,
  history: (id: string) => ['incidents', 'history', id] as const,
  responders: (id: string) => ['incidents', 'responders', id] as const,
  components: (ids: readonly string[]) => ['incidents', 'components', ids] as const,
  teams: () => ['incidents', 'teams'] as const,
  people: () => ['incidents', 'people'] as const,
  picker: (search: string) => ['incidents', 'picker', search] as const,
};
