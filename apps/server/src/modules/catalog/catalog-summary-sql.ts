import {
  ANALYSIS_TYPES,
  CATALOG_SUMMARY_WINDOW,
  parseDurationMs,
  type CatalogSummaryRequest,
} from '@lookout/contracts';
import { groupExpression, SqlParts } from './catalog-summary-fns.js';

/**
 * The SQL of POST /api/catalog/summary. Items are always counted live; their changes and open
 * insights come from the per-item roll-ups (config_item_summary_3d/7d/30d, refreshed by the
 * catalog summary job, ADR 0021) when the window is one of theirs, else from the tables. The
 * console's default request (items by type, 30 days, no filter) reads the kept per-type item
 * counts and the per-type roll-up (config_type_summary_30d) instead of aggregating 100,000
 * items and joining them to their roll-ups.
 */

const DAY_MS = 86_400_000;
/** The windows with a per-item roll-up: config_item_summary_<name>. */
const ROLLUP_WINDOWS: Record<number, string> = { [3 * DAY_MS]: '3d', [7 * DAY_MS]: '7d', [30 * DAY_MS]: '30d' };

export type SummaryQuery = { sql: string; params: unknown[]; keys: string[] };

// The columns of a summary row over items `ci` (health, costs, dates, a sole agent).
const ITEM_COLUMNS = `
  count(*)::integer AS count,
  count(*) FILTER (WHERE ci.health = 'healthy')::integer AS healthy,
  count(*) FILTER (WHERE ci.health = 'unhealthy')::integer AS unhealthy,
  count(*) FILTER (WHERE ci.health = 'warning')::integer AS warning,
  count(*) FILTER (WHERE ci.health IS NULL OR ci.health NOT IN ('healthy', 'unhealthy', 'warning'))::integer AS unknown,
  sum(ci.cost_per_minute) AS cost_per_minute, sum(ci.cost_total_1d) AS cost_total_1d,
  sum(ci.cost_total_7d) AS cost_total_7d, sum(ci.cost_total_30d) AS cost_total_30d,
  min(ci.created_at) AS created_at, max(ci.updated_at) AS updated_at,
  CASE WHEN min(ci.agent_id::text) = max(ci.agent_id::text) THEN min(ci.agent_id::text) END AS agent_id`;

export function summarySql(body: CatalogSummaryRequest): SummaryQuery {
  const parts = new SqlParts();
  const keys = ['type', ...(body.groupBy ?? []).filter((key) => key !== 'type')];
  const groups = keys.map((key) => groupExpression(key, parts));
  if (!body.deleted) parts.where.push('ci.deleted_at IS NULL');
  parts.valueList(`coalesce(ci.health, 'unknown')`, body.health);
  parts.valueList('ci.status', body.status);
  for (const [label, value] of Object.entries(body.filter ?? {})) {
    parts.valueList(`ci.labels ->> ${parts.param(label)}`, value);
  }
  // Windows are durations (30d, 24h), validated by the schema.
  const changesMs = parseDurationMs(body.changes?.since ?? CATALOG_SUMMARY_WINDOW) ?? 0;
  const analysisMs = parseDurationMs(body.analysis?.since ?? CATALOG_SUMMARY_WINDOW) ?? 0;
  const filtered = parts.where.length > (body.deleted ? 0 : 1);
  if (keys.length === 1 && !filtered && ROLLUP_WINDOWS[changesMs] === '30d' && ROLLUP_WINDOWS[analysisMs] === '30d') {
    return { sql: byTypeSql(Boolean(body.deleted)), params: parts.params, keys };
  }
  const interval = (ms: number) => `(${parts.param(ms)}::bigint * interval '1 millisecond')`;
  const changesRollup = ROLLUP_WINDOWS[changesMs];
  const analysisRollup = ROLLUP_WINDOWS[analysisMs];
  if (changesRollup && analysisRollup) {
    return { sql: rollupSql(groups, parts.sql(), changesRollup, analysisRollup), params: parts.params, keys };
  }
  const changes = changesRollup
    ? `SELECT config_id, change_count AS n FROM config_item_summary_${changesRollup} WHERE change_count > 0`
    : `SELECT config_id, count(*)::integer AS n FROM config_changes
       WHERE created_at > now() - ${interval(changesMs)} GROUP BY config_id`;
  const analysis = analysisRollup
    ? `SELECT s.config_id, a.key AS analysis_type, a.value::integer AS n
       FROM config_item_summary_${analysisRollup} s, jsonb_each_text(s.analysis) a WHERE s.analysis_count > 0`
    : `SELECT config_id, analysis_type, count(*)::integer AS n FROM config_analysis
       WHERE status = 'open' AND last_observed > now() - ${interval(analysisMs)} GROUP BY config_id, analysis_type`;
  const selectGroups = groups.map((expr, index) => `${expr} AS g${index}`).join(', ');
  const groupBy = groups.map((_, index) => `g${index}`).join(', ');
  // A group's key as one array (NULL elements compare equal in arrays), so groups join by hash.
  const groupKey = groups.map((_, index) => `g${index}::text`).join(', ');
  const sql = `
    WITH items AS (
      SELECT ci.id, ci.agent_id, ci.type, ci.name, ci.status, ci.health, ci.config_class, ci.tags, ci.cost_per_minute,
             ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d, ci.created_at, ci.updated_at
      FROM config_items ci ${parts.sql()}
    ),
    ch AS (${changes}),
    an AS (${analysis}),
    rows AS (
      SELECT ${selectGroups}, ${ITEM_COLUMNS}, coalesce(sum(ch.n), 0)::integer AS changes
      FROM items ci LEFT JOIN ch ON ch.config_id = ci.id
      GROUP BY ${groupBy}
    ),
    by_type AS (
      SELECT ARRAY[${groupKey}] AS k, jsonb_object_agg(analysis_type, n) AS analysis FROM (
        SELECT ${selectGroups}, an.analysis_type, sum(an.n)::integer AS n
        FROM items ci JOIN an ON an.config_id = ci.id
        GROUP BY ${groupBy}, an.analysis_type
      ) x GROUP BY ${groupBy}
    )
    SELECT r.*, ag.name AS agent_name, coalesce(x.analysis, '{}'::jsonb) AS analysis
    FROM rows r
    LEFT JOIN by_type x ON x.k = ARRAY[${groups.map((_, index) => `r.g${index}::text`).join(', ')}]
    LEFT JOIN agents ag ON ag.id::text = r.agent_id
    ORDER BY r.g0`;
  return { sql, params: parts.params, keys };
}

/**
 * Items and their roll-ups in one pass: each item joins its roll-up row(s) once, and insights
 * are summed per analysis type (a closed list, ANALYSIS_TYPES) in the same aggregate.
 */
function rollupSql(groups: string[], where: string, changesWindow: string, analysisWindow: string): string {
  const same = changesWindow === analysisWindow;
  const join = same
    ? `LEFT JOIN config_item_summary_${changesWindow} sc ON sc.config_id = ci.id`
    : `LEFT JOIN config_item_summary_${changesWindow} sc ON sc.config_id = ci.id
       LEFT JOIN config_item_summary_${analysisWindow} sa ON sa.config_id = ci.id`;
  const analysis = same ? 'sc.analysis' : 'sa.analysis';
  // Zero counts become NULL and are stripped: the object holds only types with open insights.
  const byType = ANALYSIS_TYPES.map(
    (type) => `'${type}', nullif(coalesce(sum((${analysis} ->> '${type}')::integer), 0), 0)`,
  ).join(', ');
  const selectGroups = groups.map((expr, index) => `${expr} AS g${index}`).join(', ');
  const groupBy = groups.map((_, index) => `g${index}`).join(', ');
  return `
    WITH rows AS (
      SELECT ${selectGroups}, ${ITEM_COLUMNS}, coalesce(sum(sc.change_count), 0)::integer AS changes,
             jsonb_strip_nulls(jsonb_build_object(${byType})) AS analysis
      FROM config_items ci ${join} ${where}
      GROUP BY ${groupBy}
    )
    SELECT r.*, ag.name AS agent_name FROM rows r LEFT JOIN agents ag ON ag.id::text = r.agent_id
    ORDER BY r.g0`;
}

/**
 * Live (or all) items by type from their kept counts (config_type_counts, exact at every
 * moment), first and last times by one index probe each, and the per-type 30-day roll-up of
 * their changes and insights.
 */
function byTypeSql(withDeleted: boolean): string {
  const live = withDeleted ? '' : 'WHERE live';
  const liveItem = withDeleted ? '' : 'AND c.deleted_at IS NULL';
  const cost = (column: string) => `CASE WHEN sum(${column}_n) > 0 THEN sum(${column}) END AS ${column}`;
  const health = (name: string, condition: string) =>
    `coalesce(sum(n) FILTER (WHERE ${condition}), 0)::integer AS ${name}`;
  return `
    WITH rows AS (
      SELECT type AS g0, sum(n)::integer AS count,
        ${health('healthy', "health = 'healthy'")}, ${health('unhealthy', "health = 'unhealthy'")},
        ${health('warning', "health = 'warning'")},
        ${health('unknown', "health NOT IN ('healthy', 'unhealthy', 'warning')")},
        ${cost('cost_per_minute')}, ${cost('cost_total_1d')}, ${cost('cost_total_7d')}, ${cost('cost_total_30d')},
        CASE WHEN min(agent_id::text) = max(agent_id::text) THEN min(agent_id::text) END AS agent_id
      FROM config_type_item_counts ${live}
      GROUP BY type
      HAVING sum(n) > 0
    ),
    ch AS (SELECT s.type, sum(s.changes)::integer AS changes FROM config_type_summary_30d s ${live} GROUP BY s.type),
    an AS (
      SELECT type, jsonb_object_agg(key, total) AS analysis FROM (
        SELECT s.type, a.key, sum(a.value::integer)::integer AS total
        FROM config_type_summary_30d s, jsonb_each_text(s.analysis) a ${live}
        GROUP BY s.type, a.key
      ) x GROUP BY type
    )
    SELECT r.*, coalesce(ch.changes, 0) AS changes, coalesce(an.analysis, '{}'::jsonb) AS analysis, ag.name AS agent_name,
      (SELECT min(c.created_at) FROM config_items c WHERE c.type = r.g0 ${liveItem}) AS created_at,
      (SELECT max(c.updated_at) FROM config_items c WHERE c.type = r.g0 ${liveItem}) AS updated_at
    FROM rows r
    LEFT JOIN ch ON ch.type = r.g0
    LEFT JOIN an ON an.type = r.g0
    LEFT JOIN agents ag ON ag.id::text = r.agent_id
    ORDER BY r.g0`;
}
