import {
  WHAT_CHANGED_FAILED_CHECK_SEVERITY,
  WHAT_CHANGED_SEVERITIES,
  type WhatChangedItem,
  type WhatChangedRelation,
  type WhatChangedSeverity,
} from '@lookout/contracts';

/**
 * The pure half of 'What changed' (issue 14 item 7): turning check results into transitions,
 * and ranking changes and transitions. topology-changes.ts loads the rows.
 */

/** A severity as stored (free text on changes and checks) mapped onto the known ones. */
export function toSeverity(value: string | null | undefined): WhatChangedSeverity | undefined {
  const lower = value?.trim().toLowerCase();
  return (WHAT_CHANGED_SEVERITIES as readonly string[]).includes(lower ?? '')
    ? (lower as WhatChangedSeverity)
    : undefined;
}

/** Higher is more severe. */
export function severityRank(severity: WhatChangedSeverity): number {
  return WHAT_CHANGED_SEVERITIES.length - WHAT_CHANGED_SEVERITIES.indexOf(severity);
}

const RELATION_RANK: Record<WhatChangedRelation, number> = { self: 2, parent: 1, child: 1 };

/**
 * Most severe first; within a severity newest first; at the same time the component's own
 * entries before its relatives'. The id breaks the last ties, so the order is stable.
 */
export function rankChanges(items: readonly WhatChangedItem[], limit: number): WhatChangedItem[] {
  return [...items]
    .sort(
      (a, b) =>
        severityRank(b.severity) - severityRank(a.severity) ||
        Date.parse(b.at) - Date.parse(a.at) ||
        RELATION_RANK[b.relation] - RELATION_RANK[a.relation] ||
        a.id.localeCompare(b.id),
    )
    .slice(0, limit);
}

export type CheckResultRow = {
  check_id: string;
  check_name: string;
  check_severity: string | null;
  time: Date | string;
  status: boolean;
  message: string | null;
  error: string | null;
};

export type CheckOwner = { relation: WhatChangedRelation; component: { id: string; name: string } };

/**
 * A check's results, with the last one before the window (`baseline`, may be absent), become
 * the moments its status flipped inside the window. The first result of a check with no
 * earlier one is a transition only when it failed (a new check that passes changed nothing).
 */
export function checkTransitions(
  results: readonly CheckResultRow[],
  baseline: ReadonlyMap<string, boolean>,
  owners: ReadonlyMap<string, CheckOwner>,
): WhatChangedItem[] {
  const byCheck = new Map<string, CheckResultRow[]>();
  for (const row of results) byCheck.set(row.check_id, [...(byCheck.get(row.check_id) ?? []), row]);
  const items: WhatChangedItem[] = [];
  for (const [checkId, rows] of byCheck) {
    const owner = owners.get(checkId);
    if (!owner) continue;
    const ordered = [...rows].sort((a, b) => new Date(a.time).getTime() - new Date(b.time).getTime());
    let previous = baseline.get(checkId);
    for (const row of ordered) {
      const flipped = previous === undefined ? !row.status : previous !== row.status;
      previous = row.status;
      if (!flipped) continue;
      const at = new Date(row.time).toISOString();
      items.push({
        kind: 'check_transition',
        id: `${checkId}@${at}`,
        at,
        severity: row.status ? 'info' : (toSeverity(row.check_severity) ?? WHAT_CHANGED_FAILED_CHECK_SEVERITY),
        relation: owner.relation,
        component: owner.component,
        title: row.check_name,
        summary: (row.status ? row.message : (row.error ?? row.message)) || null,
        check: { id: checkId, name: row.check_name },
        status: row.status ? 'healthy' : 'unhealthy',
      });
    }
  }
  return items;
}
