import type { RowGuard } from '../engine-types.js';
import type { TxClient } from '../exec/transaction.js';
import { PgrstError } from '../errors/pgrst-error.js';
import type { Column, Table } from '../schema/schema-types.js';
import { qualified, quoteIdent, SqlParams } from '../sql/sql-params.js';

/**
 * The error for a guarded row. Code `LK403` ("Lookout 403") is stable and documented in
 * the package README: clients can tell it apart from PostgreSQL's 42501.
 */
export function guardError(guard: RowGuard, value: string): PgrstError {
  return new PgrstError({ status: 403, code: 'LK403', message: guard.message(value) });
}

/** Text of a payload value as the guard compares it. */
function valueText(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Refuses payload rows that set the guarded column to another value. */
export function checkPayloadGuard(guard: RowGuard, rows: Record<string, unknown>[], keys: string[]): void {
  if (!keys.includes(guard.column)) return;
  for (const row of rows) {
    if (!(guard.column in row)) continue;
    const value = row[guard.column];
    if (valueText(value) !== guard.allowed || value === null) throw guardError(guard, valueText(value));
  }
}

/**
 * Refuses when an existing row the statement would change has the guarded column distinct
 * from the allowed value. `whereSql` selects the targeted rows of alias `"t0"` (its values
 * already bound in `params`); the rows found are locked until the transaction ends.
 */
export async function checkExistingRows(
  client: TxClient,
  guard: RowGuard,
  table: Table,
  column: Column,
  from: string,
  whereSql: string,
  params: SqlParams,
): Promise<void> {
  const allowed = params.add(guard.allowed);
  const condition = `${quoteIdent('t0')}.${quoteIdent(column.name)}::text IS DISTINCT FROM ${allowed}`;
  const where = whereSql === '' ? ` WHERE ${condition}` : `${whereSql} AND ${condition}`;
  const sql = `SELECT ${quoteIdent('t0')}.${quoteIdent(column.name)}::text AS "v" FROM ${qualified(table)} AS "t0"${from}${where} LIMIT 1 FOR UPDATE OF "t0"`;
  const [row] = await client.query<{ v: string | null }>(sql, params.values);
  if (row) throw guardError(guard, row.v ?? 'null');
}

/** A fresh parameter list for a guard query. */
export function guardParams(): SqlParams {
  return new SqlParams();
}
