import { HEALTH_PAGE_TEXTS, type CheckSummary } from '@lookout/contracts';
import { NO_GROUPING } from './health-params';
import { displayLatency, groupHealth, uptimePercent, type GroupHealth } from './health-status-fns';

/** A row of the checks table: a check, or a group of checks that expands (spec 2 section 2.2). */
export type HealthRow =
  | { kind: 'check'; id: string; title: string; check: CheckSummary }
  | { kind: 'group'; id: string; title: string; checks: CheckSummary[]; rows: HealthRow[] };

/**
 * The group a check falls in (spec 2 section 2.2): by description, canary_name or type (a
 * check without one is '(none)'), by the part of the name before a slash, or by a label's value
 * (checks without the label are 'Others').
 */
function groupOf(check: CheckSummary, groupBy: string): { group: string; title: string } {
  switch (groupBy) {
    case 'canary_name':
    case 'description':
    case 'type':
      return { group: check[groupBy] || HEALTH_PAGE_TEXTS.groupEmpty, title: check.name };
    case 'name': {
      const slash = check.name.indexOf('/');
      return slash <= 0
        ? { group: check.name, title: check.name }
        : { group: check.name.slice(0, slash), title: check.name.slice(slash + 1) };
    }
    default:
      return { group: check.labels[groupBy] ?? HEALTH_PAGE_TEXTS.groupOthers, title: check.name };
  }
}

const checkRow = (check: CheckSummary, title = check.name): HealthRow => ({
  kind: 'check',
  id: check.id,
  title,
  check,
});

/**
 * The table's rows. Without grouping, one row per check. Grouped, one row per group, in the
 * order groups first appear, holding its checks; a group of a single check is shown as that
 * check (under its full name), since a group row around one row only adds a click.
 */
export function groupChecks(checks: readonly CheckSummary[], groupBy: string): HealthRow[] {
  if (groupBy === NO_GROUPING) return checks.map((check) => checkRow(check));
  const groups = new Map<string, { check: CheckSummary; title: string }[]>();
  for (const check of checks) {
    const { group, title } = groupOf(check, groupBy);
    groups.set(group, [...(groups.get(group) ?? []), { check, title }]);
  }
  return [...groups.entries()].map(([group, members]): HealthRow => {
    const [only] = members;
    if (members.length === 1 && only) return checkRow(only.check);
    return {
      kind: 'group',
      id: `group:${groupBy}:${group}`,
      title: group,
      checks: members.map((member) => member.check),
      rows: members.map((member) => checkRow(member.check, member.title)),
    };
  });
}

/** Children of a row, for the table's tree. */
export function subRowsOf(row: HealthRow): HealthRow[] | undefined {
  return row.kind === 'group' ? row.rows : undefined;
}

/** The health a row shows: the check's status, or its group's (good, bad or mixed). */
export function rowHealth(row: HealthRow): GroupHealth {
  if (row.kind === 'check') return row.check.status ?? 'unknown';
  return groupHealth(row.checks.map((check) => check.status));
}

/** A group's uptime: how many of its checks passed every run in the range, of how many. */
export function groupUptime(row: Extract<HealthRow, { kind: 'group' }>): { passed: number; total: number } {
  const passed = row.checks.filter((check) => uptimePercent(check.uptime) === 100).length;
  return { passed, total: row.checks.length };
}

/** A group's latency: the slowest of its checks' (so a slow member is not averaged away). */
export function rowLatency(row: HealthRow): number | undefined {
  const checks = row.kind === 'check' ? [row.check] : row.checks;
  const values = checks.map((check) => displayLatency(check.latency)).filter((value) => value !== undefined);
  return values.length === 0 ? undefined : Math.max(...values);
}

/** A row's latest status change. */
export function rowTransition(row: HealthRow): string | null {
  const checks = row.kind === 'check' ? [row.check] : row.checks;
  let latest: string | null = null;
  for (const check of checks) {
    const time = check.last_transition_time;
    if (time && (latest === null || Date.parse(time) > Date.parse(latest))) latest = time;
  }
  return latest;
}

const HEALTH_RANK: Record<GroupHealth, number> = { unhealthy: 0, mixed: 1, unknown: 2, healthy: 3 };

/** Sort keys of the columns: failing first when ascending by health; higher is better. */
export const rowSortValue = {
  name: (row: HealthRow) => row.title.toLowerCase(),
  status: (row: HealthRow) => HEALTH_RANK[rowHealth(row)],
  uptime: (row: HealthRow) => {
    if (row.kind === 'check') return uptimePercent(row.check.uptime) ?? -1;
    const { passed, total } = groupUptime(row);
    return total === 0 ? -1 : (passed / total) * 100;
  },
  latency: (row: HealthRow) => rowLatency(row) ?? -1,
  last_transition_time: (row: HealthRow) => {
    const time = rowTransition(row);
    return time ? Date.parse(time) : 0;
  },
} as const;
