import type { PlanCondition, PlanOrder, ReadNode } from '../plan/plan-types.js';
import type { Column, Table } from '../schema/schema-types.js';
import { conditionSql, orderSql } from './condition-sql.js';
import { qualified, quoteIdent, type SqlParams } from './sql-params.js';

/** Rows a mutation hands to the response: the whole row, or nothing (return=minimal). */
export type Returning = 'row' | 'none';

/** A guard condition added to UPDATE/DELETE so a concurrent change cannot slip through. */
export type GuardCondition = { column: Column; allowed: string };

function guardSql(alias: string, guard: GuardCondition | undefined, params: SqlParams): string | undefined {
  if (!guard) return undefined;
  return `${quoteIdent(alias)}.${quoteIdent(guard.column.name)}::text IS NOT DISTINCT FROM ${params.add(guard.allowed)}`;
}

function returningSql(returning: Returning, withInserted: boolean): string {
  if (returning === 'none') return ' RETURNING 1 AS "one"';
  return ` RETURNING "t0" AS "r"${withInserted ? ', ("t0".xmax = 0) AS "ins"' : ''}`;
}

/** INSERT (optionally upsert) from a JSON array bound as one parameter. */
export function insertSql(input: {
  table: Table;
  columns: Column[];
  payload: string;
  rowCount: number;
  missingDefault: boolean;
  onConflict?: { columns: string[]; resolution: 'merge-duplicates' | 'ignore-duplicates' };
  returning: Returning;
  guard?: GuardCondition;
  params: SqlParams;
}): string {
  const { table, columns, params } = input;
  const target = `${qualified(table)} AS "t0"`;
  if (columns.length === 0) {
    if (input.rowCount === 0) return `SELECT NULL::${qualified(table)} AS "r", FALSE AS "ins" WHERE FALSE`;
    return `INSERT INTO ${target} DEFAULT VALUES${returningSql(input.returning, input.onConflict !== undefined)}`;
  }
  const payload = params.add(input.payload);
  const names = columns.map((column) => quoteIdent(column.name)).join(', ');
  let select: string;
  if (input.missingDefault) {
    const values = columns.map((column) => {
      const fallback = column.default ?? 'NULL';
      return `CASE WHEN "_j"."v" -> ${params.add(column.name)}::text IS NULL THEN ${fallback} ELSE "_p".${quoteIdent(column.name)} END`;
    });
    select = `SELECT ${values.join(', ')} FROM json_array_elements(${payload}::json) AS "_j"("v") CROSS JOIN LATERAL json_populate_record(NULL::${qualified(table)}, "_j"."v") AS "_p"`;
  } else {
    select = `SELECT ${columns.map((column) => `"_p".${quoteIdent(column.name)}`).join(', ')} FROM json_populate_recordset(NULL::${qualified(table)}, ${payload}::json) AS "_p"`;
  }
  let sql = `INSERT INTO ${target} (${names}) ${select}`;
  if (input.onConflict) {
    const conflict = input.onConflict.columns.map(quoteIdent).join(', ');
    if (input.onConflict.resolution === 'ignore-duplicates') sql += ` ON CONFLICT (${conflict}) DO NOTHING`;
    else {
      const sets = columns
        .map((column) => `${quoteIdent(column.name)} = EXCLUDED.${quoteIdent(column.name)}`)
        .join(', ');
      const guard = guardSql('t0', input.guard, params);
      sql += ` ON CONFLICT (${conflict}) DO UPDATE SET ${sets}${guard ? ` WHERE ${guard}` : ''}`;
    }
  }
  return sql + returningSql(input.returning, input.onConflict !== undefined);
}

/** WHERE for UPDATE/DELETE: filters, and a ctid subquery when limit/offset/order apply. */
function targetWhere(input: {
  table: Table;
  node: ReadNode;
  conditions: PlanCondition[];
  order: PlanOrder[];
  limit?: number;
  offset: number;
  guard?: GuardCondition;
  params: SqlParams;
}): string {
  const { node, params } = input;
  const parts = input.conditions.map((condition) => conditionSql(node, condition, params));
  if (input.limit !== undefined || input.offset > 0) {
    let sub = `SELECT "t0".ctid FROM ${qualified(input.table)} AS "t0"`;
    const subWhere = input.conditions.map((condition) => conditionSql(node, condition, params));
    if (subWhere.length > 0) sub += ` WHERE ${subWhere.join(' AND ')}`;
    if (input.order.length > 0) sub += ` ORDER BY ${orderSql(node, input.order, params).join(', ')}`;
    if (input.limit !== undefined) sub += ` LIMIT ${params.add(input.limit)}`;
    if (input.offset > 0) sub += ` OFFSET ${params.add(input.offset)}`;
    parts.push(`"t0".ctid = ANY(ARRAY(${sub}))`);
  }
  const guard = guardSql('t0', input.guard, params);
  if (guard) parts.push(guard);
  return parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '';
}

/** UPDATE from the first object of a JSON array; absent keys use DEFAULT with missing=default. */
export function updateSql(input: {
  table: Table;
  columns: Column[];
  /** Columns to set to DEFAULT (listed in `columns=` but absent from the payload). */
  defaults: Set<string>;
  payload: string;
  node: ReadNode;
  conditions: PlanCondition[];
  order: PlanOrder[];
  limit?: number;
  offset: number;
  returning: Returning;
  guard?: GuardCondition;
  params: SqlParams;
}): string {
  const { table, params } = input;
  const sets = input.columns
    .map((column) =>
      input.defaults.has(column.name)
        ? `${quoteIdent(column.name)} = DEFAULT`
        : `${quoteIdent(column.name)} = "_p".${quoteIdent(column.name)}`,
    )
    .join(', ');
  const payload = params.add(input.payload);
  const from = ` FROM (SELECT * FROM json_populate_recordset(NULL::${qualified(table)}, ${payload}::json) LIMIT 1) AS "_p"`;
  return `UPDATE ${qualified(table)} AS "t0" SET ${sets}${from}${targetWhere(input)}${returningSql(input.returning, false)}`;
}

/** DELETE with filters (and limit/order through ctid). */
export function deleteSql(input: {
  table: Table;
  node: ReadNode;
  conditions: PlanCondition[];
  order: PlanOrder[];
  limit?: number;
  offset: number;
  returning: Returning;
  guard?: GuardCondition;
  params: SqlParams;
}): string {
  return `DELETE FROM ${qualified(input.table)} AS "t0"${targetWhere(input)}${returningSql(input.returning, false)}`;
}
