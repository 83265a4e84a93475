import {
  CATALOG_CHANGES_DEFAULT_FROM,
  CATALOG_CHANGES_PAGE_SIZE,
  type CatalogChangesRequest,
  type CatalogChangesResponse,
  type CatalogSummaryRequest,
  type CatalogSummaryRow,
} from '@lookout/contracts';
import type pg from 'pg';
import { AppError } from '../../http/app-error.js';
import { changeRowConditions, countableByHour, hourlyCountSql, pagedByChanges } from './catalog-change-counts.js';
import { changesConditions, changesOrder, SqlParts } from './catalog-summary-fns.js';
import { summarySql } from './catalog-summary-sql.js';

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
      const { sql, params, keys } = summarySql(body);
      const result = await pool.query<Record<string, unknown>>(sql, params);
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
      // Whole hours from the hourly counts when only change type and severity filter the range.
      const countParts = new SqlParts([...parts.params]);
      const hourly = countableByHour(body)
        ? hourlyCountSql(body, countParts, parts.where, now, CATALOG_CHANGES_DEFAULT_FROM)
        : undefined;
      const counts = await pool.query<{ change_type: string; n: number }>(
        hourly ?? `SELECT cc.change_type, count(*)::integer AS n FROM ${source} cc ${where} GROUP BY cc.change_type`,
        hourly ? countParts.params : parts.params,
      );
      const summary: Record<string, number> = {};
      let total = 0;
      for (const { change_type, n } of counts.rows) {
        summary[change_type] = n;
        total += n;
      }
      // created_at is never NULL: without NULLS LAST the order is that of its index (created_at, id).
      const nulls = order.column === 'created_at' ? '' : ' NULLS LAST';
      const pageSize = body.page_size ?? CATALOG_CHANGES_PAGE_SIZE;
      const offset = ((body.page ?? 1) - 1) * pageSize;
      const limit = parts.param(pageSize);
      const skip = parts.param(offset);
      const orderBy = `ORDER BY cc.${order.column} ${order.direction}${nulls}, cc.id ${order.direction}`;
      // Without item filters, the page's ids come from config_changes in index order and only
      // those 200 changes meet their items (not every change skipped by the offset).
      const chosen = pagedByChanges(body, order.column)
        ? `WHERE cc.id IN (SELECT cc.id FROM config_changes cc WHERE ${changeRowConditions(parts.where).join(' AND ')}
                           ${orderBy} LIMIT ${limit} OFFSET ${skip})
           ${orderBy}`
        : `${where} ${orderBy} LIMIT ${limit} OFFSET ${skip}`;
      const page = await pool.query<Record<string, unknown>>(
        `SELECT cc.id, cc.config_id, cc.name, cc.type, cc.config_class, cc.change_type, cc.severity, cc.summary,
                cc.source, cc.tags, cc.created_at, cc.first_observed, cc.count, cc.created_by::text AS created_by,
                cc.external_created_by, cc.deleted_at
         FROM ${source} cc ${chosen}`,
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
