import type { ReadNode } from '../plan/plan-types.js';
import { bodySql, type BodyFormat } from '../sql/output-sql.js';
import { countSourceSql, rootSelectSql } from '../sql/read-sql.js';
import { SqlParams } from '../sql/sql-params.js';
import type { Statement, TextRow } from './batch.js';

/** What a read statement returns. */
export type SelectResult = {
  total: number | undefined;
  page: number;
  body: string;
  gucHeaders: string | null;
  gucStatus: string | null;
};

/** A read over the root relation or over a CTE prepared by `prelude` (function calls). */
export type SelectSpec = {
  root: ReadNode;
  /** SQL of the relation rows come from (`"s"."t"` or `"pgrst_call"`). */
  fromSql: string;
  /** CTEs to define first, e.g. the function call; they bind their values into `params`. */
  prelude?: (params: SqlParams) => string;
  format: BodyFormat;
  /** Custom body expression (scalar functions); defaults to the format's. */
  bodyOverride?: string;
  count?: 'exact' | 'planned' | 'estimated';
  maxRows?: number;
  /**
   * The rows come from a function call. PostgREST asks the planner about reads of relations
   * only: a call counts `estimated` exactly and gives no total for `planned`.
   */
  call?: boolean;
};

/** The planner's row estimate from an `EXPLAIN (FORMAT JSON)` row. */
function planRows(row: TextRow | undefined): number {
  const plan = row?.['QUERY PLAN'];
  const parsed: unknown = typeof plan === 'string' ? JSON.parse(plan) : undefined;
  if (Array.isArray(parsed)) {
    const first: unknown = parsed[0];
    if (typeof first === 'object' && first !== null) {
      const node = (first as { Plan?: { 'Plan Rows'?: unknown } }).Plan;
      if (typeof node?.['Plan Rows'] === 'number') return node['Plan Rows'];
    }
  }
  return 0;
}

function plannedCountStatement(spec: SelectSpec): Statement {
  const params = new SqlParams();
  const prelude = spec.prelude ? `WITH ${spec.prelude(params)} ` : '';
  return {
    text: `EXPLAIN (FORMAT JSON) ${prelude}${countSourceSql(spec.root, spec.fromSql, params)}`,
    values: params.values,
  };
}

function boundedCountStatement(spec: SelectSpec, bound: number): Statement {
  const params = new SqlParams();
  const prelude = spec.prelude ? `WITH ${spec.prelude(params)} ` : '';
  return {
    text: `${prelude}SELECT count(*) AS "n" FROM (${countSourceSql(spec.root, spec.fromSql, params)} LIMIT ${params.add(bound)}) AS "_c"`,
    values: params.values,
    prepare: true,
  };
}

/** The statements of a read and how to read their rows back. */
export type SelectStatements = {
  statements: Statement[];
  result: (rows: TextRow[][]) => SelectResult;
};

/**
 * A read: one statement building the body in PostgreSQL (JSON or CSV), the page row
 * count, the exact total when asked, and the `response.*` settings SQL may have set.
 * Planned counts come from EXPLAIN. An estimated count is PostgREST's: the rows are counted
 * up to `maxRows + 1`; at most `maxRows` is the exact count, beyond it the planner's estimate
 * when larger. Without `maxRows` every row is counted, and the estimate still wins when larger
 * (PostgREST compares the count with an absent max-rows as with one below any count). The
 * count statements do not depend on each other's results, so all of them go to PostgreSQL
 * together, ahead of the read. Calls count `estimated` exactly and `planned` not at all.
 */
export function selectStatements(spec: SelectSpec): SelectStatements {
  const estimated = spec.count === 'estimated' && !spec.call;
  const exact =
    spec.count === 'exact' || (spec.count === 'estimated' && (spec.call === true || spec.maxRows === undefined));
  const statements: Statement[] = [];
  let bounded = -1;
  let explained = -1;
  if (estimated && spec.maxRows !== undefined) {
    // Exact up to maxRows (counting at most maxRows + 1 rows), the planner's estimate beyond.
    bounded = statements.push(boundedCountStatement(spec, spec.maxRows + 1)) - 1;
  }
  if ((spec.count === 'planned' && !spec.call) || estimated)
    explained = statements.push(plannedCountStatement(spec)) - 1;
  const params = new SqlParams();
  const prelude = spec.prelude ? `${spec.prelude(params)}, ` : '';
  const source = rootSelectSql(spec.root, spec.fromSql, params);
  const total = exact
    ? `(SELECT count(*) FROM (${countSourceSql(spec.root, spec.fromSql, params)}) AS "_c")`
    : 'NULL::bigint';
  const main =
    statements.push({
      text:
        `WITH ${prelude}"pgrst_source" AS (${source}) ` +
        `SELECT ${total} AS "total", count(*) AS "page", ${spec.bodyOverride ?? bodySql(spec.format)} AS "body", ` +
        `nullif(current_setting('response.headers', true), '') AS "response_headers", ` +
        `nullif(current_setting('response.status', true), '') AS "response_status" ` +
        `FROM "pgrst_source" AS "_r"`,
      values: params.values,
      prepare: true,
    }) - 1;
  const maxRows = spec.maxRows;
  return {
    statements,
    result: (rows) => {
      let planned: number | undefined;
      if (bounded >= 0 && maxRows !== undefined) {
        const capped = Number(rows[bounded]?.[0]?.n ?? 0);
        planned = capped <= maxRows ? capped : Math.max(planRows(rows[explained]?.[0]), capped);
      } else if (explained >= 0) planned = planRows(rows[explained]?.[0]);
      const row = rows[main]?.[0];
      let totalValue = row?.total !== null && row?.total !== undefined ? Number(row.total) : planned;
      // Estimated without maxRows: every row was counted; the estimate wins when larger.
      if (estimated && maxRows === undefined && totalValue !== undefined && planned !== undefined)
        totalValue = Math.max(totalValue, planned);
      return {
        total: exact || planned !== undefined ? totalValue : undefined,
        page: Number(row?.page ?? 0),
        body: row?.body ?? 'null',
        gucHeaders: row?.response_headers ?? null,
        gucStatus: row?.response_status ?? null,
      };
    },
  };
}
