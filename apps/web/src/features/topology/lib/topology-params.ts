import { TOPOLOGY_SORT_FIELDS } from '@lookout/contracts';
import type { SortOrder } from './topology-sort';

/** The filter bar's state, kept in the address (spec 3 section 2.2). Empty means All. */
export type TopologyFilters = {
  status: string;
  type: string;
  team: string;
  /** `key=value`. */
  labels: string;
  agentId: string;
  sortBy: string;
  sortOrder: SortOrder;
};

/** Unhealthy first (spec 3 section 2.2). */
export const DEFAULT_SORT: { sortBy: string; sortOrder: SortOrder } = {
  sortBy: TOPOLOGY_SORT_FIELDS[0].value,
  sortOrder: 'asc',
};

const ALL = 'All';
const clean = (value: string | null) => (value === null || value === ALL ? '' : value.trim());

/** Reads the filters from the address; `All` (the original's marker) reads as no filter. */
export function readFilters(search: URLSearchParams): TopologyFilters {
  return {
    status: clean(search.get('status')),
    type: clean(search.get('type')),
    team: clean(search.get('team')),
    labels: clean(search.get('labels')),
    agentId: clean(search.get('agent_id')),
    sortBy: clean(search.get('sortBy')) || DEFAULT_SORT.sortBy,
    sortOrder: search.get('sortOrder') === 'desc' ? 'desc' : 'asc',
  };
}

const PARAM_NAMES: Record<Exclude<keyof TopologyFilters, 'sortBy' | 'sortOrder'>, string> = {
  status: 'status',
  type: 'type',
  team: 'team',
  labels: 'labels',
  agentId: 'agent_id',
};

/**
 * Writes a change into the address, keeping other parameters (refererId); defaults and empty
 * values are dropped so the address stays short.
 */
export function writeFilters(search: URLSearchParams, update: Partial<TopologyFilters>): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const [key, name] of Object.entries(PARAM_NAMES) as [keyof typeof PARAM_NAMES, string][]) {
    if (!(key in update)) continue;
    const value = update[key] ?? '';
    if (value) next.set(name, value);
    else next.delete(name);
  }
  const sortBy = update.sortBy ?? readFilters(next).sortBy;
  const sortOrder = update.sortOrder ?? readFilters(next).sortOrder;
  if (sortBy === DEFAULT_SORT.sortBy && sortOrder === DEFAULT_SORT.sortOrder) {
    next.delete('sortBy');
    next.delete('sortOrder');
  } else {
    next.set('sortBy', sortBy);
    next.set('sortOrder', sortOrder);
  }
  return next;
}

/**
 * The topology fetch's query (ui-calls 3.4): the set filters, flatten when a type is chosen
 * (so a type finds components at any depth), and the component id on a component page.
 */
export function topologyQuery(filters: TopologyFilters, id?: string): Record<string, string> {
  const query: Record<string, string> = {};
  if (id) query.id = id;
  if (filters.status) query.status = filters.status;
  if (filters.type) {
    query.type = filters.type;
    query.flatten = 'true';
  }
  if (filters.team) query.team = filters.team;
  if (filters.labels) query.labels = filters.labels;
  if (filters.agentId) query.agent_id = filters.agentId;
  query.sortBy = filters.sortBy;
  query.sortOrder = filters.sortOrder;
  return query;
}
