import type { SeverityCounts } from './topology-types';

/** A coloured count on a summary line. */
export type SummaryCount = {
  key: string;
  count: number;
  colour: 'red' | 'orange' | 'yellow' | 'green' | 'gray';
  href?: string;
  title: string;
};

const SEVERITY_COLOUR: Record<string, SummaryCount['colour']> = {
  critical: 'red',
  blocker: 'red',
  high: 'orange',
  warning: 'yellow',
  medium: 'green',
  low: 'green',
  info: 'gray',
};

/**
 * Insight or incident counts by type and severity, low folded into medium (spec 3 section 9:
 * medium-severity counts include low). `href` builds the pre-filtered list's address.
 */
export function severityCounts(
  counts: SeverityCounts | null | undefined,
  href: (type: string, severity: string) => string,
): SummaryCount[] {
  const result: SummaryCount[] = [];
  for (const [type, bySeverity] of Object.entries(counts ?? {})) {
    const merged: Record<string, number> = {};
    for (const [severity, count] of Object.entries(bySeverity ?? {})) {
      if (!count) continue;
      const key = severity === 'low' ? 'medium' : severity;
      merged[key] = (merged[key] ?? 0) + count;
    }
    for (const [severity, count] of Object.entries(merged)) {
      result.push({
        key: `${type}-${severity}`,
        count,
        colour: SEVERITY_COLOUR[severity.toLowerCase()] ?? 'gray',
        href: href(type, severity),
        title: `${type} ${severity}`,
      });
    }
  }
  return result;
}

/** The check counts in the card's order: healthy, unhealthy, warning; zeros left out. */
export function checkCounts(
  checks: { healthy?: number; unhealthy?: number; warning?: number } | null | undefined,
): SummaryCount[] {
  if (!checks) return [];
  const entries: [keyof typeof checks, SummaryCount['colour']][] = [
    ['healthy', 'green'],
    ['unhealthy', 'red'],
    ['warning', 'orange'],
  ];
  return entries
    .filter(([key]) => (checks[key] ?? 0) > 0)
    .map(([key, colour]) => ({ key, count: checks[key] ?? 0, colour, title: key }));
}
