import { INCIDENT_LIST_DEFAULT_STATUS, INCIDENT_LIST_FILTERS } from '@lookout/contracts';

export type IncidentListFilter = (typeof INCIDENT_LIST_FILTERS)[number];
/** The list filters as the URL holds them; absent means "any". */
export type IncidentListFilters = Partial<Record<IncidentListFilter, string>>;

/** The value of `status` that means "every status" (the page's default is open). */
export const ALL_STATUSES = 'all';

/**
 * The filters of `/incidents` from its query string (spec 3 section 2.3). A missing status is
 * the default, open; `status=all` lifts it.
 */
export function readIncidentFilters(params: URLSearchParams): IncidentListFilters {
  const filters: IncidentListFilters = {};
  for (const name of INCIDENT_LIST_FILTERS) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  if (!filters.status) filters.status = INCIDENT_LIST_DEFAULT_STATUS;
  if (filters.status === ALL_STATUSES) delete filters.status;
  return filters;
}

/** The query string after one filter changed; an emptied filter leaves the URL. */
export function writeIncidentFilter(params: URLSearchParams, name: IncidentListFilter, value: string): URLSearchParams {
  const next = new URLSearchParams(params);
  if (name === 'status') {
    // Any status is written explicitly, so clearing does not fall back to the default.
    next.set('status', value || ALL_STATUSES);
    return next;
  }
  if (value) next.set(name, value);
  else next.delete(name);
  return next;
}

/**
 * The PostgREST query of `incident_summary` for these filters (ui-calls 3.6): eq. conditions,
 * the owner as created_by and a title search. The component filter (the original's
 * `hypotheses.evidences.component_id`) arrives as the ids of the incidents with evidence on
 * that component, read from `incidents_by_component` first: a view has no embeds to filter.
 */
export function incidentListQuery(
  filters: IncidentListFilters,
  componentIncidentIds?: readonly string[],
): Record<string, string> {
  const query: Record<string, string> = { order: 'created_at.desc' };
  if (filters.search) query.title = `ilike.*${filters.search.replace(/[*,()]/g, ' ').trim()}*`;
  if (filters.severity) query.severity = `eq.${filters.severity}`;
  if (filters.status) query.status = `eq.${filters.status}`;
  if (filters.type) query.type = `eq.${filters.type}`;
  if (filters.owner) query.created_by = `eq.${filters.owner}`;
  if (filters.component && componentIncidentIds) query.id = `in.(${componentIncidentIds.join(',')})`;
  return query;
}
