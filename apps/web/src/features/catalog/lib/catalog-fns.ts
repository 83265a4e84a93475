import { CATALOG_LIMITS } from '@lookout/contracts';

/** A change count as the list shows it: counts above 999 as Nk+ (spec 3 section 9). */
export function formatCount(count: number): string {
  if (count <= CATALOG_LIMITS.compactCountAbove) return String(count);
  return `${Math.floor(count / 1000)}k+`;
}

/** Whether a change count is shown in red (500 or more). */
export const isHighChangeCount = (count: number) => count >= CATALOG_LIMITS.changesHighlightFrom;

/**
 * How far the last day's cost is from the 30-day daily mean, in whole percent, when that is
 * more than 10% either way (the cost badge); undefined otherwise.
 */
export function costChangePercent(
  cost1d: number | null | undefined,
  cost30d: number | null | undefined,
): number | undefined {
  if (!cost1d || !cost30d) return undefined;
  const dailyMean = cost30d / 30;
  const change = ((cost1d - dailyMean) / dailyMean) * 100;
  return Math.abs(change) > CATALOG_LIMITS.costChangePercent ? Math.round(change) : undefined;
}

/** A cost in dollars: two decimals below 100, whole dollars from there. */
export function formatCost(value: number | null | undefined): string {
  if (value === null || value === undefined || value === 0) return '';
  if (value < 0.01) return '<$0.01';
  return value < 100 ? `$${value.toFixed(2)}` : `$${Math.round(value).toLocaleString('en-US')}`;
}

/** The class of a type: the part before '::' (Kubernetes::Pod → Kubernetes). */
export const configClassOf = (type: string | null | undefined) => (type ?? '').split('::')[0] ?? '';

/** The type without its class, for rows under their class heading. */
export const typeLabel = (type: string | null | undefined) => {
  const parts = (type ?? '').split('::');
  return parts.length > 1 ? parts.slice(1).join('::') : (parts[0] ?? '');
};

/** Labels grouped by the prefix before ':' or '/' (the detail panel); unprefixed under ''. */
export function groupLabels(labels: Record<string, string> | null | undefined): [string, [string, string][]][] {
  const groups = new Map<string, [string, string][]>();
  for (const [key, value] of Object.entries(labels ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const cut = key.search(/[:/]/);
    const prefix = cut > 0 ? key.slice(0, cut) : '';
    const name = cut > 0 ? key.slice(cut + 1) : key;
    groups.set(prefix, [...(groups.get(prefix) ?? []), [name, value]]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
}

/** Whether the last scrape is over an hour old. */
export function isStale(lastScraped: string | null | undefined, now: Date): boolean {
  if (!lastScraped) return false;
  return now.getTime() - new Date(lastScraped).getTime() > CATALOG_LIMITS.staleAfterMs;
}

/** The total of a configs row's `changes` [{change_type, severity, total}]. */
export const changeTotal = (changes: ReadonlyArray<{ total: number }> | null | undefined) =>
  (changes ?? []).reduce((sum, change) => sum + change.total, 0);

/** Adds or removes a type from the favourites list. */
export function toggleFavourite(favourites: readonly string[], type: string): string[] {
  return favourites.includes(type) ? favourites.filter((t) => t !== type) : [...favourites, type];
}
