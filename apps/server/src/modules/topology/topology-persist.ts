import { MANUAL_LINK_SELECTOR_ID } from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';
import type { DesiredComponent } from './topology-build-fns.js';
import {
  CHECK_TABLE,
  COMPONENT_TABLE,
  CONFIG_TABLE,
  SelectorError,
  selectorConditions,
  selectorId,
} from './topology-selector-fns.js';

/**
 * Writes a run's tree (topology-build-fns.ts) into components: a node matches the row with the
 * same parent, type and name (a soft-deleted one is revived, so ids stay stable), others are
 * inserted, and the topology's rows the run did not produce are soft-deleted. Then the links:
 * checks and config items matched by each node's selectors, and components matched by its
 * `selectors` (component_relationships); links the selectors no longer give are soft-deleted,
 * manual config links are kept. Runs inside the caller's transaction.
 */

export type PersistCounts = { created: number; updated: number; deleted: number; links: number; errors: string[] };

type ExistingRow = { id: string; parent_id: string | null; type: string | null; name: string; deleted_at: Date | null };

const keyOf = (parentId: string | null, type: string | null, name: string) =>
  `${parentId ?? ''}\u0000${type ?? ''}\u0000${name}`;

export async function persistTree(
  db: Queryable,
  topology: { id: string; agentId: string },
  root: DesiredComponent,
): Promise<PersistCounts & { ids: string[] }> {
  const counts: PersistCounts = { created: 0, updated: 0, deleted: 0, links: 0, errors: [] };
  const { rows: existingRows } = await db.query<ExistingRow>(
    'SELECT id, parent_id, type, name, deleted_at FROM components WHERE topology_id = $1 ORDER BY deleted_at NULLS FIRST, updated_at DESC',
    [topology.id],
  );
  const existing = new Map<string, ExistingRow>();
  for (const row of existingRows) {
    const key = keyOf(row.parent_id, row.type, row.name);
    if (!existing.has(key)) existing.set(key, row);
  }
  const placed: { node: DesiredComponent; id: string; ancestors: string[] }[] = [];

  async function place(node: DesiredComponent, parentId: string | null, ancestors: string[]) {
    const found = existing.get(keyOf(parentId, node.type, node.name));
    const values = [
      node.externalId,
      node.name,
      node.text,
      node.type,
      node.icon,
      node.tooltip,
      node.owner,
      node.lifecycle,
      node.namespace,
      node.hidden,
      node.status,
      node.ownHealth,
      node.statusExpr,
      node.healthExpr,
      node.labels ? JSON.stringify(node.labels) : null,
      node.logs ? JSON.stringify(node.logs) : null,
      JSON.stringify(node.properties),
      node.children.length === 0,
      ancestors.length > 0 ? ancestors.join('.') : null,
      parentId,
      JSON.stringify(node.componentSelectors),
      JSON.stringify(node.configSelectors),
      JSON.stringify(node.checkSelectors),
    ];
    let id: string;
    if (found) {
      await db.query(
        `UPDATE components SET external_id = $2, name = $3, text = $4, type = $5, icon = $6, tooltip = $7, owner = $8,
           lifecycle = $9, namespace = $10, hidden = $11, status = coalesce($12, CASE WHEN status IN ('healthy','unhealthy','warning','unknown') THEN status END, health, 'unknown'),
           own_health = $13, status_expr = $14, health_expr = $15, labels = $16::jsonb, log_selectors = $17::jsonb,
           properties = $18::jsonb, is_leaf = $19, path = $20, parent_id = $21, selectors = $22::jsonb,
           configs = $23::jsonb, component_checks = $24::jsonb, deleted_at = NULL
         WHERE id = $1`,
        [found.id, ...values],
      );
      id = found.id;
      counts.updated += 1;
    } else {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO components (external_id, name, text, type, icon, tooltip, owner, lifecycle, namespace, hidden, status,
           own_health, status_expr, health_expr, labels, log_selectors, properties, is_leaf, path, parent_id, selectors,
           configs, component_checks, topology_id, agent_id, health, summary)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, coalesce($11, $12, 'unknown'), $12, $13, $14, $15::jsonb, $16::jsonb,
           $17::jsonb, $18, $19, $20, $21::jsonb, $22::jsonb, $23::jsonb, $24, $25, coalesce($12, 'unknown'), '{}'::jsonb)
         RETURNING id`,
        [...values, topology.id, topology.agentId],
      );
      id = rows[0]!.id;
      counts.created += 1;
    }
    placed.push({ node, id, ancestors });
    for (const child of node.children) await place(child, id, [...ancestors, id]);
  }

  await place(root, null, []);
  const ids = placed.map((entry) => entry.id);
  const deleted = await db.query(
    'UPDATE components SET deleted_at = now() WHERE topology_id = $1 AND deleted_at IS NULL AND NOT (id = ANY($2::uuid[]))',
    [topology.id, ids],
  );
  counts.deleted = deleted.rowCount ?? 0;
  await linkChecks(db, placed, counts);
  await linkConfigs(db, placed, counts);
  await linkComponents(db, placed, counts);
  return { ...counts, ids };
}

type Placed = { node: DesiredComponent; id: string; ancestors: string[] }[];

async function matching<T>(
  db: Queryable,
  select: string,
  condition: { sql: string; params: unknown[] },
  limit?: number,
) {
  const { rows } = await db.query<T & object>(
    `${select} WHERE ${condition.sql} LIMIT ${limit ?? 10_000}`,
    condition.params,
  );
  return rows as T[];
}

function conditionOrError(build: () => { sql: string; params: unknown[] }, counts: PersistCounts, where: string) {
  try {
    return build();
  } catch (error) {
    if (error instanceof SelectorError) {
      counts.errors.push(`${where}: ${error.message}`);
      return undefined;
    }
    throw error;
  }
}

async function linkChecks(db: Queryable, placed: Placed, counts: PersistCounts) {
  const component: string[] = [];
  const check: string[] = [];
  const canary: string[] = [];
  const selector: string[] = [];
  for (const { node, id } of placed) {
    for (const s of node.checkSelectors) {
      const condition = conditionOrError(() => selectorConditions(s, CHECK_TABLE), counts, `${node.name}.checks`);
      if (!condition) continue;
      const sid = selectorId(s);
      for (const row of await matching<{ id: string; canary_id: string }>(
        db,
        'SELECT k.id, k.canary_id FROM checks k',
        condition,
        s.limit,
      )) {
        component.push(id);
        check.push(row.id);
        canary.push(row.canary_id);
        selector.push(sid);
      }
    }
    if (node.checkIds.length > 0) {
      const { rows } = await db.query<{ id: string; canary_id: string }>(
        'SELECT id, canary_id FROM checks WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL',
        [node.checkIds],
      );
      for (const row of rows) {
        component.push(id);
        check.push(row.id);
        canary.push(row.canary_id);
        selector.push('lookup');
      }
    }
  }
  const result = await db.query(
    `INSERT INTO check_component_relationships (component_id, check_id, canary_id, selector_id)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[])
     ON CONFLICT (component_id, check_id, canary_id, selector_id) DO UPDATE SET deleted_at = NULL
       WHERE check_component_relationships.deleted_at IS NOT NULL`,
    [component, check, canary, selector],
  );
  counts.links += result.rowCount ?? 0;
  await db.query(
    `UPDATE check_component_relationships r SET deleted_at = now()
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM unnest($2::uuid[], $3::uuid[], $4::text[]) d(component_id, check_id, selector_id)
                       WHERE d.component_id = r.component_id AND d.check_id = r.check_id AND d.selector_id = r.selector_id)`,
    [placed.map((p) => p.id), component, check, selector],
  );
}

async function linkConfigs(db: Queryable, placed: Placed, counts: PersistCounts) {
  const component: string[] = [];
  const config: string[] = [];
  const selector: string[] = [];
  const seen = new Set<string>();
  const add = (componentId: string, configId: string, sid: string) => {
    const key = `${componentId}/${configId}`;
    if (seen.has(key)) return;
    seen.add(key);
    component.push(componentId);
    config.push(configId);
    selector.push(sid);
  };
  for (const { node, id } of placed) {
    for (const configId of node.configIds) add(id, configId, 'lookup');
    for (const s of node.configSelectors) {
      const condition = conditionOrError(() => selectorConditions(s, CONFIG_TABLE), counts, `${node.name}.configs`);
      if (!condition) continue;
      const sid = selectorId(s);
      for (const row of await matching<{ id: string }>(db, 'SELECT ci.id FROM config_items ci', condition, s.limit))
        add(id, row.id, sid);
    }
  }
  const result = await db.query(
    `INSERT INTO config_component_relationships (component_id, config_id, selector_id)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[])
     ON CONFLICT (component_id, config_id) DO UPDATE SET deleted_at = NULL,
       selector_id = CASE WHEN config_component_relationships.selector_id = '${MANUAL_LINK_SELECTOR_ID}'
                          THEN config_component_relationships.selector_id ELSE EXCLUDED.selector_id END
       WHERE config_component_relationships.deleted_at IS NOT NULL
          OR config_component_relationships.selector_id IS DISTINCT FROM EXCLUDED.selector_id`,
    [component, config, selector],
  );
  counts.links += result.rowCount ?? 0;
  await db.query(
    `UPDATE config_component_relationships r SET deleted_at = now()
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL
       AND r.selector_id IS DISTINCT FROM '${MANUAL_LINK_SELECTOR_ID}'
       AND NOT EXISTS (SELECT 1 FROM unnest($2::uuid[], $3::uuid[]) d(component_id, config_id)
                       WHERE d.component_id = r.component_id AND d.config_id = r.config_id)`,
    [placed.map((p) => p.id), component, config],
  );
}

async function linkComponents(db: Queryable, placed: Placed, counts: PersistCounts) {
  const child: string[] = [];
  const parent: string[] = [];
  const selector: string[] = [];
  for (const { node, id, ancestors } of placed) {
    for (const s of node.componentSelectors) {
      const condition = conditionOrError(
        () => selectorConditions(s, COMPONENT_TABLE),
        counts,
        `${node.name}.selectors`,
      );
      if (!condition) continue;
      const sid = selectorId(s);
      // Neither the component nor its ancestors: a relationship must not make a cycle.
      const excluded = new Set([id, ...ancestors]);
      for (const row of await matching<{ id: string }>(db, 'SELECT c.id FROM components c', condition, s.limit)) {
        if (excluded.has(row.id)) continue;
        child.push(row.id);
        parent.push(id);
        selector.push(sid);
      }
    }
  }
  const result = await db.query(
    `INSERT INTO component_relationships (component_id, relationship_id, selector_id)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[])
     ON CONFLICT (component_id, relationship_id, selector_id) DO UPDATE SET deleted_at = NULL
       WHERE component_relationships.deleted_at IS NOT NULL`,
    [child, parent, selector],
  );
  counts.links += result.rowCount ?? 0;
  await db.query(
    `UPDATE component_relationships r SET deleted_at = now()
     WHERE r.relationship_id = ANY($1::uuid[]) AND r.deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM unnest($2::uuid[], $3::uuid[], $4::text[]) d(component_id, relationship_id, selector_id)
                       WHERE d.component_id = r.component_id AND d.relationship_id = r.relationship_id
                         AND d.selector_id = r.selector_id)`,
    [placed.map((p) => p.id), child, parent, selector],
  );
}
