import { COMPONENT_HEALTHS, TOPOLOGY_MAX_DEPTH, type ComponentSummary } from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';
import { evaluateStatus } from './topology-build-fns.js';
import { evaluateCel, toHealth } from './topology-expression-fns.js';
import { rollUp, sameSummary, type Rollup } from './topology-rollup-fns.js';

/**
 * Keeps components.health, status and summary current (ADR 0022): the roll-up is stored on the
 * row, so the topology fetch reads it instead of recomputing per request. A change (a check's
 * status, a config item's insights, a run) recomputes the components it touches and then their
 * ancestors, deepest first, each reading its children's stored result; an unchanged component
 * stops nothing (its ancestors' counts may still move) but writes nothing.
 */

type InputRow = {
  id: string;
  name: string;
  type: string | null;
  status: string;
  own_health: string | null;
  health: string | null;
  summary: ComponentSummary | null;
  health_expr: string | null;
  status_expr: string | null;
  labels: Record<string, string> | null;
  properties: unknown;
  checks: Record<string, number>;
  insights: Record<string, Record<string, number>>;
  incidents: Record<string, Record<string, number>>;
  children: { health: string | null; summary: ComponentSummary | null }[];
};

const INPUTS_SQL = `
SELECT c.id, c.name, c.type, c.status, c.own_health, c.health, c.summary, c.health_expr, c.status_expr, c.labels, c.properties,
  coalesce((SELECT jsonb_object_agg(s.status, s.n) FROM (
     SELECT coalesce(k.status, 'unknown') AS status, count(*) AS n
     FROM check_component_relationships r JOIN checks k ON k.id = r.check_id
     WHERE r.component_id = c.id AND r.deleted_at IS NULL AND k.deleted_at IS NULL
     GROUP BY 1) s), '{}'::jsonb) AS checks,
  coalesce((SELECT jsonb_object_agg(t.analysis_type, t.severities) FROM (
     SELECT a.analysis_type, jsonb_object_agg(a.severity, a.n) AS severities FROM (
       SELECT an.analysis_type, an.severity, count(*) AS n
       FROM config_component_relationships r JOIN config_analysis an ON an.config_id = r.config_id
       WHERE r.component_id = c.id AND r.deleted_at IS NULL AND an.status = 'open'
       GROUP BY 1, 2) a GROUP BY 1) t), '{}'::jsonb) AS insights,
  -- Open incidents with evidence on the component (incidents_by_component; none before incidents exist).
  coalesce((SELECT jsonb_object_agg(t.type, t.severities) FROM (
     SELECT a.type, jsonb_object_agg(a.severity, a.n) AS severities FROM (
       SELECT coalesce(ib.type, 'other') AS type, coalesce(ib.severity, 'unknown') AS severity, count(*) AS n
       FROM incidents_by_component ib
       WHERE ib.component_id = c.id AND ib.status NOT IN ('resolved', 'closed')
       GROUP BY 1, 2) a GROUP BY 1) t), '{}'::jsonb) AS incidents,
  -- Two index probes (parent_id, then relationships) rather than one OR, which scans.
  coalesce((SELECT jsonb_agg(jsonb_build_object('health', ch.health, 'summary', ch.summary)) FROM (
     SELECT k.health, k.summary FROM components k WHERE k.parent_id = c.id AND k.deleted_at IS NULL
     UNION ALL
     SELECT k.health, k.summary FROM component_relationships cr JOIN components k ON k.id = cr.component_id
     WHERE cr.relationship_id = c.id AND cr.deleted_at IS NULL AND k.deleted_at IS NULL AND k.parent_id IS DISTINCT FROM c.id
   ) ch), '[]'::jsonb) AS children
FROM components c WHERE c.id = ANY($1::uuid[]) AND c.deleted_at IS NULL`;

/** Roll-ups take turns (events of several names, runs, replicas): each reads what the last wrote. */
export async function lockRollups(db: Queryable): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('lookout-topology-rollup'))");
}

export type RollupOutcome = { recomputed: number; changed: number; healthChanged: string[]; errors: string[] };

function compute(row: InputRow, errors: string[]): Rollup & { status: string } {
  const rolled = rollUp({
    ownHealth: row.own_health,
    checks: row.checks,
    insights: row.insights,
    incidents: row.incidents,
    children: row.children,
  });
  const self = {
    id: row.id,
    name: row.name,
    type: row.type,
    labels: row.labels ?? {},
    properties: row.properties ?? [],
  };
  let health = rolled.health;
  if (row.health_expr) {
    try {
      health = toHealth(
        evaluateCel(row.health_expr, { summary: rolled.summary, self: { ...self, health: rolled.health } }),
        row.health_expr,
      );
    } catch (error) {
      errors.push(`${row.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let status = (COMPONENT_HEALTHS as readonly string[]).includes(row.status) ? health : row.status;
  if (row.status_expr) {
    try {
      status = evaluateStatus(row.status_expr, { ...self, health }, rolled.summary);
    } catch (error) {
      errors.push(`${row.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { health, summary: rolled.summary, status };
}

/** Recomputes the given components (one level: their children are current) and writes changes. */
async function rollupLevel(db: Queryable, ids: readonly string[], outcome: RollupOutcome): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await db.query<InputRow>(INPUTS_SQL, [ids]);
  const changedIds: string[] = [];
  const healths: string[] = [];
  const statuses: string[] = [];
  const summaries: string[] = [];
  for (const row of rows) {
    outcome.recomputed += 1;
    const next = compute(row, outcome.errors);
    if (next.health === row.health && next.status === row.status && sameSummary(row.summary, next.summary)) continue;
    if (next.health !== row.health) outcome.healthChanged.push(row.id);
    changedIds.push(row.id);
    healths.push(next.health);
    statuses.push(next.status);
    summaries.push(JSON.stringify(next.summary));
  }
  if (changedIds.length === 0) return;
  outcome.changed += changedIds.length;
  await db.query(
    `UPDATE components c SET health = u.health, status = u.status, summary = u.summary::jsonb
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) u(id, health, status, summary)
     WHERE c.id = u.id`,
    [changedIds, healths, statuses, summaries],
  );
}

/**
 * The components and every ancestor (parent_id and component_relationships, at most
 * TOPOLOGY_MAX_DEPTH up), in levels: each component after all its descendants among them.
 */
export async function rollupUpwards(db: Queryable, componentIds: readonly string[]): Promise<RollupOutcome> {
  const outcome: RollupOutcome = { recomputed: 0, changed: 0, healthChanged: [], errors: [] };
  if (componentIds.length === 0) return outcome;
  const { rows } = await db.query<{ id: string; distance: number }>(
    `WITH RECURSIVE up(id, distance) AS (
       SELECT unnest($1::uuid[]), 0
       UNION
       SELECT p.parent, up.distance + 1 FROM up
       CROSS JOIN LATERAL (
         SELECT c.parent_id AS parent FROM components c WHERE c.id = up.id AND c.parent_id IS NOT NULL
         UNION
         SELECT r.relationship_id FROM component_relationships r WHERE r.component_id = up.id AND r.deleted_at IS NULL
       ) p
       WHERE up.distance < ${TOPOLOGY_MAX_DEPTH}
     )
     SELECT id, max(distance)::int AS distance FROM up GROUP BY id ORDER BY 2`,
    [componentIds],
  );
  const levels = new Map<number, string[]>();
  for (const row of rows) levels.set(row.distance, [...(levels.get(row.distance) ?? []), row.id]);
  for (const distance of [...levels.keys()].sort((a, b) => a - b))
    await rollupLevel(db, levels.get(distance)!, outcome);
  return outcome;
}

/** Every live component of a topology, deepest first (after a run). */
export async function rollupTopology(db: Queryable, topologyId: string): Promise<RollupOutcome> {
  const outcome: RollupOutcome = { recomputed: 0, changed: 0, healthChanged: [], errors: [] };
  const { rows } = await db.query<{ id: string; depth: number }>(
    `SELECT id, CASE WHEN path IS NULL THEN 0 ELSE array_length(string_to_array(path, '.'), 1) END AS depth
     FROM components WHERE topology_id = $1 AND deleted_at IS NULL`,
    [topologyId],
  );
  const levels = new Map<number, string[]>();
  for (const row of rows) levels.set(row.depth, [...(levels.get(row.depth) ?? []), row.id]);
  for (const depth of [...levels.keys()].sort((a, b) => b - a)) await rollupLevel(db, levels.get(depth)!, outcome);
  // Components of other topologies that count these as children (component_relationships).
  const { rows: related } = await db.query<{ id: string }>(
    `SELECT DISTINCT r.relationship_id AS id FROM component_relationships r JOIN components c ON c.id = r.component_id
     WHERE c.topology_id = $1 AND r.deleted_at IS NULL`,
    [topologyId],
  );
  const own = new Set(rows.map((row) => row.id));
  const outside = related.map((row) => row.id).filter((id) => !own.has(id));
  if (outside.length > 0) {
    const more = await rollupUpwards(db, outside);
    outcome.recomputed += more.recomputed;
    outcome.changed += more.changed;
    outcome.healthChanged.push(...more.healthChanged);
    outcome.errors.push(...more.errors);
  }
  return outcome;
}

/** The live components linked to checks (the check.* events' targets). */
export async function componentsOfChecks(db: Queryable, checkIds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ component_id: string }>(
    `SELECT DISTINCT component_id FROM check_component_relationships WHERE check_id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [checkIds],
  );
  return rows.map((row) => row.component_id);
}

/** The live components linked to config items (the config.* events' targets). */
export async function componentsOfConfigs(db: Queryable, configIds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ component_id: string }>(
    `SELECT DISTINCT component_id FROM config_component_relationships WHERE config_id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [configIds],
  );
  return rows.map((row) => row.component_id);
}

/** The ids that are live components (the topology.rollup event's target). */
export async function liveComponents(db: Queryable, componentIds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM components WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [componentIds],
  );
  return rows.map((row) => row.id);
}
