import {
  TOPOLOGY_HEALTH_RANK,
  TOPOLOGY_SORT_COLUMNS,
  type ComponentHealth,
  type TopologyComponent,
  type TopologyQuery,
  type TopologyResponse,
} from '@lookout/contracts';

/**
 * The pure half of the topology fetch (ui-calls 3.4): rows to the nested shape the cards read,
 * sorting siblings, and the filter bar's options (healthStatuses, tags, teams, types).
 */

export type ComponentRow = Omit<
  TopologyComponent,
  'components' | 'logs' | 'created_at' | 'updated_at' | 'deleted_at'
> & {
  log_selectors?: unknown;
  created_at: Date | string;
  updated_at: Date | string;
  deleted_at?: Date | string | null;
  /** Which component this row hangs under in the answer (parent_id or a relationship). */
  tree_parent?: string | null;
};

const iso = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : value;

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function toComponent(row: ComponentRow): TopologyComponent {
  const { log_selectors: logSelectors, tree_parent: _treeParent, ...rest } = row;
  const logs = Array.isArray(logSelectors)
    ? logSelectors
        .map((entry: unknown) => (entry && typeof entry === 'object' ? (entry as { name?: unknown }).name : undefined))
        .filter((name): name is string => typeof name === 'string')
        .map((name) => ({ name }))
    : [];
  return {
    ...rest,
    health: (row.health ?? 'unknown') as ComponentHealth,
    summary: row.summary ?? {},
    properties: row.properties ?? [],
    cost_per_minute: num(row.cost_per_minute),
    cost_total_1d: num(row.cost_total_1d),
    cost_total_7d: num(row.cost_total_7d),
    cost_total_30d: num(row.cost_total_30d),
    logs,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    deleted_at: iso(row.deleted_at),
  };
}

/** Nests rows under their `tree_parent`; the roots are the rows whose id is in `rootIds`. */
export function nest(rows: readonly ComponentRow[], rootIds: readonly string[]): TopologyComponent[] {
  const byParent = new Map<string, ComponentRow[]>();
  const byId = new Map<string, ComponentRow>();
  for (const row of rows) {
    if (!byId.has(row.id)) byId.set(row.id, row);
    if (row.tree_parent) byParent.set(row.tree_parent, [...(byParent.get(row.tree_parent) ?? []), row]);
  }
  const build = (row: ComponentRow, seen: Set<string>): TopologyComponent => {
    const component = toComponent(row);
    const children = (byParent.get(row.id) ?? []).filter((child) => !seen.has(child.id));
    if (children.length > 0) {
      const next = new Set(seen).add(row.id);
      component.components = children.map((child) => build(child, next));
    }
    return component;
  };
  return rootIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [build(row, new Set([id]))] : [];
  });
}

const healthRank = (health: string | null | undefined) =>
  (TOPOLOGY_HEALTH_RANK as Record<string, number>)[health ?? ''] ?? Object.keys(TOPOLOGY_HEALTH_RANK).length + 1;

function sortKey(component: TopologyComponent, sortBy: string): string | number | null {
  if (sortBy === 'status' || sortBy === 'health') return healthRank(component.health);
  if ((TOPOLOGY_SORT_COLUMNS as readonly string[]).includes(sortBy)) {
    const value = (component as unknown as Record<string, unknown>)[sortBy];
    return typeof value === 'string' ? value.toLowerCase() : typeof value === 'number' ? value : null;
  }
  // Any other name sorts by that property: its value, else its text.
  const property = component.properties?.find((p) => p.name === sortBy);
  if (!property) return null;
  if (typeof property.value === 'number') return property.value;
  return property.text?.toLowerCase() ?? null;
}

/** Sorts siblings (recursively) by sortBy and sortOrder; missing keys last; ties by name. */
export function sortComponents(components: TopologyComponent[], sortBy = 'name', sortOrder: 'asc' | 'desc' = 'asc') {
  const direction = sortOrder === 'desc' ? -1 : 1;
  components.sort((a, b) => {
    const ka = sortKey(a, sortBy);
    const kb = sortKey(b, sortBy);
    if (ka !== kb) {
      if (ka === null) return 1;
      if (kb === null) return -1;
      if (typeof ka === 'number' && typeof kb === 'number') return (ka - kb) * direction;
      return String(ka).localeCompare(String(kb)) * direction;
    }
    return a.name.localeCompare(b.name);
  });
  for (const component of components) if (component.components) sortComponents(component.components, sortBy, sortOrder);
  return components;
}

/** The filter bar's options, from the components listed. */
export function facets(
  listed: readonly TopologyComponent[],
  teams: readonly string[],
): Omit<TopologyResponse, 'components'> {
  const healths = new Set<string>();
  const types = new Set<string>();
  const tags = new Map<string, Set<string>>();
  for (const component of listed) {
    healths.add(component.health);
    if (component.type) types.add(component.type);
    for (const [key, value] of Object.entries(component.labels ?? {})) {
      tags.set(key, (tags.get(key) ?? new Set()).add(value));
    }
  }
  return {
    healthStatuses: [...healths].sort(),
    tags: Object.fromEntries(
      [...tags].sort(([a], [b]) => a.localeCompare(b)).map(([key, values]) => [key, [...values].sort()]),
    ),
    teams: [...new Set(teams)].sort(),
    types: [...types].sort(),
  };
}

/** `k=v,k2=v2` as a JSON object for `labels @> ...`; a pair without `=` is refused by name. */
export function parseLabelFilter(labels: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of labels.split(',')) {
    const text = pair.trim();
    if (!text) continue;
    const at = text.indexOf('=');
    if (at <= 0) throw new LabelFilterError(`labels: '${text}' must be key=value`);
    out[text.slice(0, at).trim()] = text.slice(at + 1).trim();
  }
  return out;
}

export class LabelFilterError extends Error {}

/** Comma lists of the filters (`a,b`), without empties. */
export const listOf = (value: string | undefined) =>
  value
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : [];

/** How deep below the listed components children come back (top level: none; with id: one level). */
export function childDepth(query: Partial<TopologyQuery>): number {
  if (query.depth !== undefined) return query.depth;
  return query.id ? 1 : 0;
}
