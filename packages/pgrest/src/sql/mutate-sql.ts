import type { PlanCondition, PlanOrder, ReadNode } from '../plan/plan-types.js';
import type { Column, Table } from '../schema/schema-types.js';
import { conditionSql, orderSql, representationCall } from './condition-sql.js';
import { qualified, quoteIdent, type SqlParams } from './sql-params.js';

/** Rows a mutation hands to the response: the whole row, or nothing (return=minimal). */
export type Returning = 'row' | 'none';

/** A guard condition added to UPDATE/DELETE so a concurrent change cannot slip through. */
export type GuardCondition = { column: Column; allowed: string };

function guardSql(alias: string, guard: GuardCondition | undefined, params: SqlParams): string | undefined {
  if (!guard) return undefined;
  return `${quoteIdent(alias)}.${quoteIdent(guard.column.name)}::text IS NOT DISTINCT FROM ${params.add(guard.allowed)}`;
}

/**
 * RETURNING: nothing, the whole row, or a row of the table's type holding only `columns`
 * (the others NULL). PostgREST returns only the columns the response needs, so a caller
 * whose role may read just those columns gets its representation instead of 42501.
 */
function returningSql(returning: Returning, table: Table, columns: string[] | undefined): string {
  if (returning === 'none') return ' RETURNING 1 AS "one"';
  if (columns === undefined) return ' RETURNING "t0" AS "r"';
  const wanted = new Set(columns);
  const values = [...table.columnsByName.values()]
    .sort((a, b) => a.position - b.position)
    .map((column) => (wanted.has(column.name) ? `"t0".${quoteIdent(column.name)}` : `NULL::${column.type}`));
  return ` RETURNING ROW(${values.join(', ')})::${qualified(table)} AS "r"`;
}

/**
 * Rows of a payload whose columns include some with a `json AS domain` representation: each
 * object (`"_j"."v"`) is read as PostgREST reads it, the parsed columns as json handed to their
 * parser (`json_to_record`, which also turns a JSON null into NULL), the others populated as
 * usual from the object reduced to those keys, so a value of a parsed column (or of a key left
 * out by `columns=`) is never read as the column's type.
 */
function parsedRows(
  table: Table,
  columns: Column[],
  payload: string,
  params: SqlParams,
): { from: string; value: (column: Column) => string } {
  const parsed = columns.filter((column) => column.representation?.fromJson);
  const plain = columns.filter((column) => !column.representation?.fromJson).map((column) => column.name);
  const reduced = `(SELECT json_object_agg("_k"."key", "_k"."value") FROM json_each("_j"."v") AS "_k" WHERE "_k"."key" = ANY(${params.add(plain)}::text[]))`;
  const definitions = parsed.map((column) => `${quoteIdent(column.name)} json`).join(', ');
  const from =
    `json_array_elements(${payload}::json) AS "_j"("v")` +
    ` CROSS JOIN LATERAL json_populate_record(NULL::${qualified(table)}, ${reduced}) AS "_p"` +
    ` CROSS JOIN LATERAL json_to_record("_j"."v") AS "_r"(${definitions})`;
  const value = (column: Column): string => {
    const parser = column.representation?.fromJson;
    return parser ? representationCall(parser, `"_r".${quoteIdent(column.name)}`) : `"_p".${quoteIdent(column.name)}`;
  };
  return { from, value };
}

function hasJsonParser(columns: Column[]): boolean {
  return columns.some((column) => column.representation?.fromJson);
}

/** INSERT (optionally upsert) from a JSON array bound as one parameter. */
export function insertSql(input: {
  table: Table;
  columns: Column[];
  payload: string;
  rowCount: number;
  missingDefault: boolean;
  onConflict?: { columns: string[]; resolution: 'merge-duplicates' | 'ignore-duplicates' };
  /** PUT: only the first object of the payload is written (PostgREST ignores the others). */
  firstOnly?: boolean;
  returning: Returning;
  /** Columns the response reads (undefined: the whole row). */
  returnColumns?: string[];
  guard?: GuardCondition;
  params: SqlParams;
}): string {
  const { table, columns, params } = input;
  const target = `${qualified(table)} AS "t0"`;
  const limit = input.firstOnly ? ' LIMIT 1' : '';
  if (columns.length === 0) {
    if (input.rowCount === 0) return `SELECT NULL::${qualified(table)} AS "r" WHERE FALSE`;
    // One row of defaults per object (`[{}, {}]` inserts two rows, as in PostgREST): a
    // zero-column SELECT leaves every column to its default.
    const payload = params.add(input.payload);
    return `INSERT INTO ${target} SELECT FROM json_array_elements(${payload}::json)${limit}${returningSql(input.returning, table, input.returnColumns)}`;
  }
  const payload = params.add(input.payload);
  const names = columns.map((column) => quoteIdent(column.name)).join(', ');
  let select: string;
  if (hasJsonParser(columns)) {
    const rows = parsedRows(table, columns, payload, params);
    const values = columns.map((column) =>
      input.missingDefault
        ? `CASE WHEN "_j"."v" -> ${params.add(column.name)}::text IS NULL THEN ${column.default ?? 'NULL'} ELSE ${rows.value(column)} END`
        : rows.value(column),
    );
    select = `SELECT ${values.join(', ')} FROM ${rows.from}`;
  } else if (input.missingDefault) {
    const values = columns.map((column) => {
      const fallback = column.default ?? 'NULL';
      return `CASE WHEN "_j"."v" -> ${params.add(column.name)}::text IS NULL THEN ${fallback} ELSE "_p".${quoteIdent(column.name)} END`;
    });
    select = `SELECT ${values.join(', ')} FROM json_array_elements(${payload}::json) AS "_j"("v") CROSS JOIN LATERAL json_populate_record(NULL::${qualified(table)}, "_j"."v") AS "_p"`;
  } else {
    select = `SELECT ${columns.map((column) => `"_p".${quoteIdent(column.name)}`).join(', ')} FROM json_populate_recordset(NULL::${qualified(table)}, ${payload}::json) AS "_p"`;
  }
  let sql = `INSERT INTO ${target} (${names}) ${select}${limit}`;
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
  return sql + returningSql(input.returning, table, input.returnColumns);
}

/**
 * WHERE for UPDATE/DELETE: filters and, with limit/offset, the first rows in the order. A
 * table's rows are picked by their physical identity (tableoid and ctid: exact, NULL-safe, and
 * unique across partitions). A view has none: as in PostgREST, its rows are those whose order
 * columns match the first rows', and an order that is not unique can match more rows than
 * the limit, which the handler refuses (PGRST110).
 */
function targetWhere(input: {
  table: Table;
  node: ReadNode;
  conditions: PlanCondition[];
  order: PlanOrder[];
  limit?: bigint;
  offset: bigint;
  guard?: GuardCondition;
  params: SqlParams;
}): string {
  const { node, params } = input;
  const parts = input.conditions.map((condition) => conditionSql(node, condition, params));
  if (input.limit !== undefined || input.offset > 0n) {
    const keys = limitedByRowIdentity(input.table)
      ? ['"t0".tableoid', '"t0".ctid']
      : [...new Set(input.order.filter((term) => !term.child).map((term) => term.ref.column.name))].map(
          (name) => `"t0".${quoteIdent(name)}`,
        );
    let sub = `SELECT ${keys.join(', ')} FROM ${qualified(input.table)} AS "t0"`;
    const subWhere = input.conditions.map((condition) => conditionSql(node, condition, params));
    if (subWhere.length > 0) sub += ` WHERE ${subWhere.join(' AND ')}`;
    if (input.order.length > 0) sub += ` ORDER BY ${orderSql(node, input.order, params).join(', ')}`;
    if (input.limit !== undefined) sub += params.limit(input.limit);
    if (input.offset > 0n) sub += ` OFFSET ${params.add(input.offset)}`;
    parts.push(`(${keys.join(', ')}) IN (${sub})`);
  }
  const guard = guardSql('t0', input.guard, params);
  if (guard) parts.push(guard);
  return parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '';
}

/** Whether a limited UPDATE/DELETE picks its rows by tableoid and ctid (tables) or by order columns (views). */
export function limitedByRowIdentity(table: Table): boolean {
  return table.kind === 'table';
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
  limit?: bigint;
  offset: bigint;
  returning: Returning;
  returnColumns?: string[];
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
  let source = `SELECT * FROM json_populate_recordset(NULL::${qualified(table)}, ${payload}::json)`;
  if (hasJsonParser(input.columns)) {
    const rows = parsedRows(table, input.columns, payload, params);
    const values = input.columns
      .filter((column) => !input.defaults.has(column.name))
      .map((column) => `${rows.value(column)} AS ${quoteIdent(column.name)}`);
    source = `SELECT ${values.join(', ')} FROM ${rows.from}`;
  }
  const from = ` FROM (${source} LIMIT 1) AS "_p"`;
  return `UPDATE ${qualified(table)} AS "t0" SET ${sets}${from}${targetWhere(input)}${returningSql(input.returning, table, input.returnColumns)}`;
}

/** DELETE with filters (and limit/order through ctid). */
export function deleteSql(input: {
  table: Table;
  node: ReadNode;
  conditions: PlanCondition[];
  order: PlanOrder[];
  limit?: bigint;
  offset: bigint;
  returning: Returning;
  returnColumns?: string[];
  guard?: GuardCondition;
  params: SqlParams;
}): string {
  return `DELETE FROM ${qualified(input.table)} AS "t0"${targetWhere(input)}${returningSql(input.returning, input.table, input.returnColumns)}`;
}
