import { TOPOLOGY_HEALTH_RANK, TOPOLOGY_SORT_FIELDS } from '@lookout/contracts';
import type { TopologyComponent } from './topology-types';

export type SortOrder = 'asc' | 'desc';
export type SortOption = { value: string; label: string };

/** The prefix of a sort field that names a headline property. */
export const PROPERTY_SORT_PREFIX = 'field:';

/** The health a card shows: its health, else its status. */
export function componentHealth(component: Pick<TopologyComponent, 'health' | 'status'>): string {
  return component.health ?? component.status ?? 'unknown';
}

/** Rank for the health sort (spec 3 section 4); anything unranked goes last. */
export function healthRank(health: string | null | undefined): number {
  return (TOPOLOGY_HEALTH_RANK as Record<string, number>)[health ?? ''] ?? 5;
}

/** The standard fields, then each headline property name once, in first-seen order. */
export function sortOptions(components: readonly TopologyComponent[]): SortOption[] {
  const options: SortOption[] = TOPOLOGY_SORT_FIELDS.map((field) => ({ ...field }));
  const seen = new Set<string>();
  for (const component of components) {
    for (const property of component.properties ?? []) {
      if (!property.headline || !property.name || seen.has(property.name)) continue;
      seen.add(property.name);
      options.push({ value: `${PROPERTY_SORT_PREFIX}${property.name}`, label: property.name });
    }
  }
  return options;
}

function sortValue(component: TopologyComponent, sortBy: string): string | number | undefined {
  if (sortBy === 'status') return healthRank(componentHealth(component));
  if (sortBy.startsWith(PROPERTY_SORT_PREFIX)) {
    const name = sortBy.slice(PROPERTY_SORT_PREFIX.length);
    const value = component.properties?.find((property) => property.name === name)?.value;
    if (value === null || value === undefined || value === '') return undefined;
    const number = Number(value);
    return Number.isFinite(number) ? number : String(value);
  }
  if (sortBy === 'updated_at') {
    const time = Date.parse(component.updated_at ?? '');
    return Number.isNaN(time) ? undefined : time;
  }
  const value = component[sortBy as keyof TopologyComponent];
  if (typeof value === 'string' || typeof value === 'number')
    return typeof value === 'string' ? value.toLowerCase() : value;
  return undefined;
}

/**
 * Sorts cards by a field (health by rank: unhealthy first when ascending). Components without
 * the value go last either way; ties keep the name order, so the grid never reshuffles.
 */
export function sortComponents(
  components: readonly TopologyComponent[],
  sortBy: string,
  order: SortOrder,
): TopologyComponent[] {
  const direction = order === 'desc' ? -1 : 1;
  return [...components].sort((a, b) => {
    const left = sortValue(a, sortBy);
    const right = sortValue(b, sortBy);
    if (left === undefined || right === undefined) {
      if (left !== right) return left === undefined ? 1 : -1;
    } else if (left !== right) {
      return (left < right ? -1 : 1) * direction;
    }
    return (a.name ?? '').localeCompare(b.name ?? '');
  });
}

/** Children inside a card: unhealthy, then warning, then healthy (spec 3 section 2.2). */
export function sortByHealth(components: readonly TopologyComponent[]): TopologyComponent[] {
  return sortComponents(components, 'status', 'asc');
}
