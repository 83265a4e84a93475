import { HEALTH_PAGE_TEXTS, type CheckSummary } from '@lookout/contracts';

/** What a pivot cell shows (the original console's names): uptime, health or latency. */
export type PivotCellType = 'uptime' | 'checkStatuses' | 'latency';

/** One row of the pivot layout: checks of one name, one per column they fall in. */
export interface PivotRow {
  name: string;
  cells: Readonly<Record<string, CheckSummary>>;
}

export interface Pivot {
  /** The dimension's values, sorted: the table's columns after Checks. */
  columns: string[];
  rows: PivotRow[];
}

/** The column a check falls in, or undefined when it has no value (a label it lacks). */
export function pivotValue(check: CheckSummary, pivotBy: string, pivotLabel: string | undefined): string | undefined {
  if (pivotBy === 'namespace') return check.namespace || HEALTH_PAGE_TEXTS.noNamespaceTab;
  if (pivotBy === 'labels' && pivotLabel) return check.labels[pivotLabel];
  return undefined;
}

/**
 * The pivot layout (`pivotBy`, `pivotLabel`): one row per check name, one column per namespace
 * or per value of a label, so the same check across environments reads as one line. A check
 * without a value for the dimension is left out; of two checks with one name and one value,
 * the first is shown.
 */
export function pivotChecks(checks: readonly CheckSummary[], pivotBy: string, pivotLabel: string | undefined): Pivot {
  const columns = new Set<string>();
  const rows = new Map<string, Record<string, CheckSummary>>();
  for (const check of checks) {
    const column = pivotValue(check, pivotBy, pivotLabel);
    if (column === undefined) continue;
    columns.add(column);
    const cells = rows.get(check.name) ?? {};
    cells[column] ??= check;
    rows.set(check.name, cells);
  }
  const compare = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });
  return {
    columns: [...columns].sort(compare),
    rows: [...rows.entries()].sort(([a], [b]) => compare(a, b)).map(([name, cells]) => ({ name, cells })),
  };
}
