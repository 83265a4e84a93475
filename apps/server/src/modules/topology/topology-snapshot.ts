import { parseTimeExpression, TOPOLOGY_MAX_DEPTH, TOPOLOGY_SNAPSHOT_DEFAULT_START } from '@lookout/contracts';
import { strToU8, zipSync } from 'fflate';
import type { Queryable } from '../../db/transaction.js';

/**
 * The topology snapshot (issue 14 item 5; ui-calls 3.16): a zip with the component (and, with
 * `related`, its ancestors, descendants and relationship neighbours), the checks linked to them
 * with their results since `start`, the linked config items with their changes since `start`,
 * their incidents (none until incidents exist), as JSON, plus `summary.md`, a short readable
 * account. fflate builds the zip in memory (a snapshot is bounded by the time range).
 */

export class SnapshotStartError extends Error {}

/** Most check results per check in one snapshot. */
const STATUSES_PER_CHECK = 500;
/** Most changes per config item in one snapshot. */
const CHANGES_PER_CONFIG = 500;

export type Snapshot = { name: string; zip: Uint8Array };

function since(start: string | undefined, now: Date): Date {
  const text = start?.trim() || TOPOLOGY_SNAPSHOT_DEFAULT_START;
  const at = parseTimeExpression(text, now);
  if (!at) throw new SnapshotStartError(`start: '${text}' must be a time such as 1h, 7d, now-1h or an ISO 8601 time`);
  return at;
}

async function relatedIds(db: Queryable, id: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH RECURSIVE down(id, depth) AS (
       SELECT $1::uuid, 0
       UNION
       SELECT c.id, d.depth + 1 FROM down d JOIN components c ON c.parent_id = d.id AND c.deleted_at IS NULL
       WHERE d.depth < ${TOPOLOGY_MAX_DEPTH}
     ), up(id, depth) AS (
       SELECT $1::uuid, 0
       UNION
       SELECT c.parent_id, u.depth + 1 FROM up u JOIN components c ON c.id = u.id
       WHERE c.parent_id IS NOT NULL AND u.depth < ${TOPOLOGY_MAX_DEPTH}
     )
     SELECT id FROM down UNION SELECT id FROM up
     UNION SELECT r.component_id FROM component_relationships r WHERE r.relationship_id = $1 AND r.deleted_at IS NULL
     UNION SELECT r.relationship_id FROM component_relationships r WHERE r.component_id = $1 AND r.deleted_at IS NULL`,
    [id],
  );
  return rows.map((row) => row.id);
}

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/** The snapshot of one component; undefined when there is no live component with that id. */
export async function buildSnapshot(
  db: Queryable,
  id: string,
  options: { start?: string; related?: boolean; now?: Date },
): Promise<Snapshot | undefined> {
  const now = options.now ?? new Date();
  const from = since(options.start, now);
  const { rows: found } = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM components WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  const component = found[0];
  if (!component) return undefined;
  const ids = options.related ? await relatedIds(db, id) : [id];

  const { rows: components } = await db.query(
    `SELECT id, name, type, icon, status, status_reason, health, summary, labels, properties, parent_id, topology_id,
            external_id, path, created_at, updated_at
     FROM components WHERE id = ANY($1::uuid[]) ORDER BY path NULLS FIRST, name`,
    [ids],
  );
  const { rows: checks } = await db.query<{ id: string; name: string; status: string | null; component_id: string }>(
    `SELECT DISTINCT ON (k.id) r.component_id, k.id, k.name, k.type, k.namespace, k.status, k.severity, k.last_runtime,
            k.last_transition_time,
            coalesce((SELECT jsonb_agg(jsonb_build_object('time', s.time, 'status', s.status, 'duration', s.duration,
                                                        'message', s.message, 'error', s.error) ORDER BY s.time DESC)
                      FROM (SELECT * FROM check_statuses s WHERE s.check_id = k.id AND s.time >= $2
                            ORDER BY s.time DESC LIMIT ${STATUSES_PER_CHECK}) s), '[]'::jsonb) AS statuses
     FROM check_component_relationships r JOIN checks k ON k.id = r.check_id
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL AND k.deleted_at IS NULL
     ORDER BY k.id`,
    [ids, from],
  );
  const { rows: configs } = await db.query<{ id: string; name: string; changes: unknown[] }>(
    `SELECT DISTINCT ON (ci.id) r.component_id, ci.id, ci.name, ci.type, ci.config_class, ci.status, ci.health, ci.labels,
            ci.tags, ci.config,
            coalesce((SELECT jsonb_agg(jsonb_build_object('id', ch.id, 'change_type', ch.change_type, 'severity', ch.severity,
                                                        'summary', ch.summary, 'created_at', ch.created_at) ORDER BY ch.created_at DESC)
                      FROM (SELECT * FROM config_changes ch WHERE ch.config_id = ci.id AND ch.created_at >= $2
                            ORDER BY ch.created_at DESC LIMIT ${CHANGES_PER_CONFIG}) ch), '[]'::jsonb) AS changes
     FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
     WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL
     ORDER BY ci.id`,
    [ids, from],
  );
  // Credentials in scraped bodies stay out of a file people pass around.
  const { rows: masked } = await db.query<{ id: string; config: unknown }>(
    'SELECT id, lookout_mask_secrets(config) AS config FROM config_items WHERE id = ANY($1::uuid[])',
    [configs.map((config) => config.id)],
  );
  const maskedById = new Map(masked.map((row) => [row.id, row.config]));
  const safeConfigs = configs.map((config) => ({ ...config, config: maskedById.get(config.id) ?? null }));

  const lines = [
    `# Snapshot of ${component.name}`,
    '',
    `- Taken: ${now.toISOString()}`,
    `- Covers: ${from.toISOString()} to ${now.toISOString()}`,
    `- Components: ${components.length}${options.related ? ' (with related components)' : ''}`,
    ...components.map(
      (c) => `  - ${String(c.name)} (${String(c.type ?? 'component')}): ${String(c.health ?? 'unknown')}`,
    ),
    `- Checks: ${checks.length}, unhealthy: ${checks.filter((check) => check.status === 'unhealthy').length}`,
    ...checks.map((check) => `  - ${check.name}: ${check.status ?? 'not run yet'}`),
    `- Config items: ${configs.length}, changes in range: ${configs.reduce((sum, c) => sum + c.changes.length, 0)}`,
    '- Incidents: 0',
    '',
  ];
  const zip = zipSync({
    'component.json': json(components.find((c) => c.id === id)),
    ...(options.related ? { 'components.json': json(components) } : {}),
    'checks.json': json(checks),
    'configs.json': json(safeConfigs),
    'incidents.json': json([]),
    'summary.md': strToU8(lines.join('\n')),
  });
  return { name: component.name, zip };
}
