import {
  WHAT_CHANGED_LIMITS,
  type WhatChangedItem,
  type WhatChangedRelation,
  type WhatChangedResponse,
} from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';
import {
  checkTransitions,
  rankChanges,
  toSeverity,
  type CheckOwner,
  type CheckResultRow,
} from './topology-changes-fns.js';

/**
 * 'What changed' on an unhealthy component (issue 14 item 7; docs/topology.md): the config
 * changes of the config items linked to it and its relatives (parents and children, through
 * parent_id and component_relationships), and the transitions of their linked checks, in the
 * hour before it turned unhealthy. "Turned unhealthy" is components.health_changed_at, which
 * a trigger stamps whenever the roll-up writes another health (26_topology_changes.sql).
 */

/** Rows read per kind before ranking: a busy hour is cut to its newest rows. */
const ROWS_READ = 2_000;

type Relative = { id: string; name: string; relation: WhatChangedRelation };

async function relatives(db: Queryable, id: string): Promise<Relative[]> {
  const { rows } = await db.query<Relative>(
    `SELECT DISTINCT ON (r.id) r.id, c.name, r.relation FROM (
       SELECT $1::uuid AS id, 'self' AS relation, 0 AS rank
       UNION ALL SELECT c.parent_id, 'parent', 1 FROM components c WHERE c.id = $1 AND c.parent_id IS NOT NULL
       UNION ALL SELECT r.relationship_id, 'parent', 1 FROM component_relationships r
         WHERE r.component_id = $1 AND r.deleted_at IS NULL
       UNION ALL SELECT c.id, 'child', 2 FROM components c WHERE c.parent_id = $1
       UNION ALL SELECT r.component_id, 'child', 2 FROM component_relationships r
         WHERE r.relationship_id = $1 AND r.deleted_at IS NULL
     ) r JOIN components c ON c.id = r.id AND c.deleted_at IS NULL
     ORDER BY r.id, r.rank`,
    [id],
  );
  return rows;
}

type ChangeRow = {
  id: string;
  component_id: string;
  config_id: string;
  config_name: string;
  config_type: string | null;
  change_type: string;
  severity: string | null;
  summary: string | null;
  created_at: Date;
};

async function configChanges(
  db: Queryable,
  owners: ReadonlyMap<string, Relative>,
  from: Date,
  to: Date,
): Promise<WhatChangedItem[]> {
  const { rows } = await db.query<ChangeRow>(
    `SELECT ch.id, r.component_id, ch.config_id, ci.name AS config_name, ci.type AS config_type, ch.change_type,
            ch.severity, ch.summary, ch.created_at
     FROM config_component_relationships r
     JOIN config_changes ch ON ch.config_id = r.config_id AND ch.created_at >= $2 AND ch.created_at <= $3
     JOIN config_items ci ON ci.id = ch.config_id
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL
     ORDER BY ch.created_at DESC LIMIT ${ROWS_READ}`,
    [[...owners.keys()], from, to],
  );
  // An item linked to several relatives counts once, for the closest (self before others).
  const items = new Map<string, WhatChangedItem>();
  for (const row of rows) {
    const owner = owners.get(row.component_id)!;
    const known = items.get(row.id);
    if (known && (known.relation === 'self' || owner.relation !== 'self')) continue;
    items.set(row.id, {
      kind: 'config_change',
      id: row.id,
      at: row.created_at.toISOString(),
      severity: toSeverity(row.severity) ?? 'info',
      relation: owner.relation,
      component: { id: owner.id, name: owner.name },
      title: row.change_type,
      summary: row.summary || null,
      config: { id: row.config_id, name: row.config_name, type: row.config_type },
      change_type: row.change_type,
    });
  }
  return [...items.values()];
}

async function checkChanges(
  db: Queryable,
  owners: ReadonlyMap<string, Relative>,
  from: Date,
  to: Date,
): Promise<WhatChangedItem[]> {
  const { rows: links } = await db.query<{ check_id: string; component_id: string }>(
    `SELECT r.check_id, r.component_id FROM check_component_relationships r JOIN checks k ON k.id = r.check_id
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL AND k.deleted_at IS NULL`,
    [[...owners.keys()]],
  );
  const checkOwners = new Map<string, CheckOwner>();
  for (const link of links) {
    const owner = owners.get(link.component_id)!;
    if (checkOwners.get(link.check_id)?.relation === 'self') continue;
    checkOwners.set(link.check_id, { relation: owner.relation, component: { id: owner.id, name: owner.name } });
  }
  if (checkOwners.size === 0) return [];
  const checkIds = [...checkOwners.keys()];
  const { rows: results } = await db.query<CheckResultRow>(
    `SELECT s.check_id, k.name AS check_name, k.severity AS check_severity, s.time, s.status, s.message, s.error
       FROM check_statuses s JOIN checks k ON k.id = s.check_id
       WHERE s.check_id = ANY($1::uuid[]) AND s.time >= $2 AND s.time <= $3
       ORDER BY s.time DESC LIMIT ${ROWS_READ}`,
    [checkIds, from, to],
  );
  // The last result before the window, per check (one primary-key probe each).
  const { rows: before } = await db.query<{ check_id: string; status: boolean | null }>(
    `SELECT k.id AS check_id,
         (SELECT s.status FROM check_statuses s WHERE s.check_id = k.id AND s.time < $2 ORDER BY s.time DESC LIMIT 1) AS status
       FROM unnest($1::uuid[]) k(id)`,
    [checkIds, from],
  );
  const baseline = new Map<string, boolean>();
  for (const row of before) if (row.status !== null) baseline.set(row.check_id, row.status);
  return checkTransitions(results, baseline, checkOwners);
}

/** What changed before a component turned unhealthy; undefined when there is no live component. */
export async function whatChanged(db: Queryable, id: string): Promise<WhatChangedResponse | undefined> {
  const { rows } = await db.query<{ id: string; name: string; health: string | null; since: Date | null }>(
    `SELECT id, name, health, coalesce(health_changed_at, updated_at) AS since
     FROM components WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  const component = rows[0];
  if (!component) return undefined;
  const answer = { component: { id: component.id, name: component.name, health: component.health } };
  if (component.health !== 'unhealthy' || !component.since)
    return { ...answer, unhealthySince: null, from: null, to: null, items: [] };
  const since = component.since;
  const from = new Date(since.getTime() - WHAT_CHANGED_LIMITS.windowMinutes * 60_000);
  const to = new Date(since.getTime() + WHAT_CHANGED_LIMITS.graceSeconds * 1_000);
  const owners = new Map((await relatives(db, id)).map((relative) => [relative.id, relative]));
  const changes = await configChanges(db, owners, from, to);
  const transitions = await checkChanges(db, owners, from, to);
  return {
    ...answer,
    unhealthySince: since.toISOString(),
    from: from.toISOString(),
    to: to.toISOString(),
    items: rankChanges([...changes, ...transitions], WHAT_CHANGED_LIMITS.maxItems),
  };
}
