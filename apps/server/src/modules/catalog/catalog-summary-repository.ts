import {
  CATALOG_CHANGES_DEFAULT_FROM,
  CATALOG_CHANGES_PAGE_SIZE,
  CATALOG_SUMMARY_WINDOW,
  parseDurationMs,
  type CatalogChangesRequest,
  type CatalogChangesResponse,
  type CatalogSummaryRequest,
  type CatalogSummaryRow,
} from '@lookout/contracts';
import type pg from 'pg';
import { AppError } from '../../http/app-error.js';
import { changesConditions, changesOrder, groupExpression, SqlParts } from './catalog-summary-fns.js';

const toNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const toIso = (value: unknown): string | null =>
  value instanceof Date ? value.toISOString() : (value as string | null);

/** The SQL of POST /api/catalog/summary and POST /api/catalog/changes (ui-calls 3.5). */
export function createCatalogSummaryRepository(pool: pg.Pool) {
  return {
    /**
     * Live (or all) items grouped by type and each group-by key: counts by health, changes and
     * open insights within their windows, summed costs.
     */
    async summary(body: CatalogSummaryRequest): Promise<CatalogSummaryRow[]> {
      const parts = new SqlParts();
      const keys = ['type', ...(body.groupBy ?? []).filter((key) => key !== 'type')];
      const groups = keys.map((key) => groupExpression(key, parts));
      if (!body.deleted) parts.where.push('ci.deleted_at IS NULL');
      parts.valueList(`coalesce(ci.health, 'unknown')`, body.health);
      parts.valueList('ci.status', body.status);
      for (const [label, value] of Object.entries(body.filter ?? {})) {
        parts.valueList(`ci.labels ->> ${parts.param(label)}`, value);
      }
      // Windows are durations (30d, 24h), validated by the schema; they travel as milliseconds.
      const windowMs = (since: string | undefined) => parseDurationMs(since ?? CATALOG_SUMMARY_WINDOW) ?? 0;
      const changesSince = parts.param(windowMs(body.changes?.since));
      const analysisSince = parts.param(windowMs(body.analysis?.since));
      const selectGroups = groups.map((expr, index) => `${expr} AS g${index}`).join(', ');
      const groupBy = groups.map((_, index) => `g${index}`).join(', ');
      const interval = (p: string) => `(${p}::bigint * interval '1 millisecond')`;
      const sql = `
        WITH items AS (SELECT ci.* FROM config_items ci ${parts.sql()}),
        ch AS (
          SELECT c.config_id, count(*)::integer AS n FROM config_changes c
          WHERE c.created_at > now() - ${interval(changesSince)} AND c.config_id IN (SELECT id FROM items)
          GROUP BY c.config_id
        ),
        an AS (
          SELECT a.config_id, a.analysis_type, count(*)::integer AS n FROM config_analysis a
          WHERE a.status = 'open' AND a.last_observed > now() - ${interval(analysisSince)}
            AND a.config_id IN (SELECT id FROM items)
          GROUP BY a.config_id, a.analysis_type
        ),
        rows AS (
          SELECT ${selectGroups},
            count(*)::integer AS count,
            count(*) FILTER (WHERE ci.health = 'healthy')::integer AS healthy,
            count(*) FILTER (WHERE ci.health = 'unhealthy')::integer AS unhealthy,
            count(*) FILTER (WHERE ci.health = 'warning')::integer AS warning,
            count(*) FILTER (WHERE ci.health IS NULL OR ci.health NOT IN ('healthy', 'unhealthy', 'warning'))::integer AS unknown,
            coalesce(sum(ch.n), 0)::integer AS changes,
            sum(ci.cost_per_minute) AS cost_per_minute, sum(ci.cost_total_1d) AS cost_total_1d,
            sum(ci.cost_total_7d) AS cost_total_7d, sum(ci.cost_total_30d) AS cost_total_30d,
            min(ci.created_at) AS created_at, max(ci.updated_at) AS updated_at,
            CASE WHEN count(DISTINCT ci.agent_id) = 1 THEN min(ci.agent_id::text) END AS agent_id,
            array_agg(ci.id) AS ids
          FROM items ci LEFT JOIN ch ON ch.config_id = ci.id
          GROUP BY ${groupBy}
        )
        SELECT r.*, ag.name AS agent_name,
          (SELECT coalesce(jsonb_object_agg(x.analysis_type, x.n), '{}'::jsonb) FROM (
             SELECT an.analysis_type, sum(an.n)::integer AS n FROM an WHERE an.config_id = ANY(r.ids) GROUP BY an.analysis_type
           ) x) AS analysis
        FROM rows r LEFT JOIN agents ag ON ag.id::text = r.agent_id
        ORDER BY r.g0`;
      const result = await pool.query<Record<string, unknown>>(sql, parts.params);
      return result.rows.map((row) => {
        const health: Record<string, number> = {};
        for (const key of ['healthy', 'unhealthy', 'warning', 'unknown'] as const) {
          const n = Number(row[key]);
          if (n > 0) health[key] = n;
        }
        const out: CatalogSummaryRow = {
          type: row.g0 as string | null,
          count: Number(row.count),
          health,
          analysis: row.analysis as Record<string, number>,
          changes: Number(row.changes),
          cost_per_minute: toNumber(row.cost_per_minute),
          cost_total_1d: toNumber(row.cost_total_1d),
          cost_total_7d: toNumber(row.cost_total_7d),
          cost_total_30d: toNumber(row.cost_total_30d),
          created_at: toIso(row.created_at),
          updated_at: toIso(row.updated_at),
          agent: row.agent_id ? { id: row.agent_id as string, name: (row.agent_name as string) ?? '' } : null,
        };
        keys.forEach((key, index) => {
          if (index > 0) out[key] = row[`g${index}`] ?? null;
        });
        return out;
      });
    },

    /** One page of changes (all items, or one item and its related ones), the total and counts by type. */
    async changes(body: CatalogChangesRequest, now = new Date()): Promise<CatalogChangesResponse> {
      const order = changesOrder(body.sort_by);
      if (!order) throw AppError.badRequest(`sort_by: "${body.sort_by}" is not a column of the changes list.`);
      const parts = new SqlParts();
      let source = 'catalog_changes';
      if (body.id) {
        const recursive = body.recursive ?? 'none';
        source = `related_changes_recursive(${parts.param(body.id)}::uuid, ${parts.param(recursive)}, ${parts.param(
          body.include_deleted_configs ?? false,
        )}, ${parts.param(body.depth ?? 5)})`;
      }
      const problem = changesConditions(body, now, parts, CATALOG_CHANGES_DEFAULT_FROM);
      if (problem) throw AppError.badRequest(problem.message, { field: problem.field });
      const where = parts.sql();
      const counts = await pool.query<{ change_type: string; n: number }>(
        `SELECT cc.change_type, count(*)::integer AS n FROM ${source} cc ${where} GROUP BY cc.change_type`,
        parts.params,
      );
      const summary: Record<string, number> = {};
      let total = 0;
      for (const { change_type, n } of counts.rows) {
        summary[change_type] = n;
        total += n;
      }
      const pageSize = body.page_size ?? CATALOG_CHANGES_PAGE_SIZE;
      const offset = ((body.page ?? 1) - 1) * pageSize;
      const limit = parts.param(pageSize);
      const skip = parts.param(offset);
      const page = await pool.query<Record<string, unknown>>(
        `SELECT cc.id, cc.config_id, cc.name, cc.type, cc.config_class, cc.change_type, cc.severity, cc.summary,
                cc.source, cc.tags, cc.created_at, cc.first_observed, cc.count, cc.created_by::text AS created_by,
                cc.external_created_by, cc.deleted_at
         FROM ${source} cc ${where}
         ORDER BY cc.${order.column} ${order.direction} NULLS LAST, cc.id ${order.direction}
         LIMIT ${limit} OFFSET ${skip}`,
        parts.params,
      );
      const changes = page.rows.map((row) => ({
        ...(row as CatalogChangesResponse['changes'][number]),
        created_at: toIso(row.created_at) ?? '',
        first_observed: toIso(row.first_observed),
        deleted_at: toIso(row.deleted_at),
        count: Number(row.count),
      }));
      return { summary, changes, total };
    },
  };
}

export type CatalogSummaryRepository = ReturnType<typeof createCatalogSummaryRepository>;
