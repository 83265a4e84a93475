import {
  AGENT_PUSH_TABLES,
  agentPushBacklogSchema,
  type AgentPushBacklog,
  type AgentPushRow,
  type AgentPushTable,
} from '@lookout/contracts';
import type { PushForeignKey, PushSchema, PushTableSchema } from './push-schema-repository.js';

/** One table's rows of a push, ready to store: known table, objects with their key, no repeats. */
export type PushBatch = {
  schema: PushTableSchema;
  rows: AgentPushRow[];
  /** The columns this push writes: those the rows carry that the upstream table has. */
  columns: readonly string[];
};

export type ParsedPush = { batches: PushBatch[]; backlog: AgentPushBacklog | undefined };

/** Why a push body was refused (a 400), naming the table, row and field. */
export class PushBodyError extends Error {}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A row's key as the conflict report names it: the key's values, joined by ','. */
export function rowId(row: AgentPushRow, key: readonly string[]): string {
  return key.map((column) => (row[column] === null || row[column] === undefined ? '' : String(row[column]))).join(',');
}

/**
 * Checks a push body against the upstream's schema and puts its tables in AGENT_PUSH_TABLES
 * order (parents first). Unknown columns are dropped, not refused: an agent one version ahead
 * or behind still pushes what both know. A row repeated in one push (same key) is stored once,
 * the last one winning, since one INSERT cannot update the same row twice.
 */
export function parsePushBody(body: unknown, schema: PushSchema): ParsedPush {
  if (!isObject(body)) {
    throw new PushBodyError('The push body must be a JSON object with one array of rows per table.');
  }
  for (const name of Object.keys(body)) {
    if (name !== 'backlog' && !(AGENT_PUSH_TABLES as readonly string[]).includes(name)) {
      throw new PushBodyError(
        `Unknown table '${name}' in the push: agents push ${AGENT_PUSH_TABLES.join(', ')} (and 'backlog').`,
      );
    }
  }
  let backlog: AgentPushBacklog | undefined;
  if (body.backlog !== undefined) {
    const parsed = agentPushBacklogSchema.safeParse(body.backlog);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new PushBodyError(`backlog.${issue.path.join('.')}: ${issue.message}.`);
    }
    backlog = parsed.data;
  }
  const batches: PushBatch[] = [];
  for (const table of AGENT_PUSH_TABLES) {
    const rows = body[table];
    if (rows === undefined || rows === null) continue;
    if (!Array.isArray(rows)) throw new PushBodyError(`'${table}' must be an array of rows, not ${typeof rows}.`);
    if (rows.length === 0) continue;
    const tableSchema = schema.get(table);
    if (!tableSchema) throw new PushBodyError(`This Lookout has no table '${table}'.`);
    batches.push(batchOf(tableSchema, rows));
  }
  return { batches, backlog };
}

function batchOf(schema: PushTableSchema, rows: unknown[]): PushBatch {
  const byKey = new Map<string, AgentPushRow>();
  const carried = new Set<string>();
  rows.forEach((row, index) => {
    if (!isObject(row)) throw new PushBodyError(`${schema.table}[${index}] must be an object (one row).`);
    for (const column of schema.requiredKey) {
      if (row[column] === undefined || row[column] === null) {
        throw new PushBodyError(
          `${schema.table}[${index}] has no ${column}: every row needs its key (${schema.key.join(', ')}).`,
        );
      }
    }
    for (const column of Object.keys(row)) carried.add(column);
    byKey.set(JSON.stringify(schema.key.map((column) => row[column] ?? null)), row);
  });
  const columns = schema.columns.filter(
    (column) => carried.has(column) || schema.key.includes(column) || (column === 'agent_id' && schema.hasAgentId),
  );
  return { schema, rows: [...byKey.values()], columns };
}

/** What one column of the pushed rows becomes in the SELECT that feeds the upsert. */
function sourceExpression(schema: PushTableSchema, column: string): string {
  // Every row is stored under the caller's agent, whatever it says.
  if (column === 'agent_id' && schema.hasAgentId) return '$2::uuid';
  const local = schema.localReferences.find((fk) => fk.columns[0] === column);
  if (local) {
    const parent = quote(local.parentColumns[0]!);
    return `(SELECT p.${parent} FROM ${quote(local.parentTable)} p WHERE p.${parent} = r.${quote(column)})`;
  }
  return `r.${quote(column)}`;
}

/**
 * The statement that stores one batch: `$1` the rows as a JSON array, `$2` the agent's id.
 * Tables whose key finds every existing row upsert with INSERT ... ON CONFLICT (key) DO UPDATE
 * SET every pushed column; rows with an agent_id are updated only while they belong to the same
 * agent (RETURNING tells which rows were stored). The relationship tables keyed by a unique index
 * over a nullable column (where NULLs never conflict) MERGE on the key with IS NOT DISTINCT FROM.
 */
export function upsertSql(batch: PushBatch): string {
  const { schema, columns } = batch;
  const table = quote(schema.table);
  const list = columns.map(quote).join(', ');
  const select = columns.map((column) => `${sourceExpression(schema, column)} AS ${quote(column)}`).join(', ');
  const source = `SELECT ${select} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb) r`;
  const updated = columns.filter((column) => !schema.key.includes(column));
  if (schema.conflictSafe) {
    const action =
      updated.length === 0
        ? 'DO NOTHING'
        : `DO UPDATE SET ${updated.map((column) => `${quote(column)} = EXCLUDED.${quote(column)}`).join(', ')}` +
          (schema.hasAgentId ? ' WHERE t.agent_id = EXCLUDED.agent_id' : '');
    const returning = schema.key.map((column) => `t.${quote(column)}::text AS ${quote(column)}`).join(', ');
    return `INSERT INTO ${table} AS t (${list}) ${source} ON CONFLICT (${schema.key.map(quote).join(', ')}) ${action} RETURNING ${returning}`;
  }
  const on = schema.key
    .map((column) =>
      schema.requiredKey.includes(column)
        ? `t.${quote(column)} = s.${quote(column)}`
        : `t.${quote(column)} IS NOT DISTINCT FROM s.${quote(column)}`,
    )
    .join(' AND ');
  const matched =
    updated.length === 0
      ? ''
      : ` WHEN MATCHED THEN UPDATE SET ${updated.map((column) => `${quote(column)} = s.${quote(column)}`).join(', ')}`;
  return (
    `MERGE INTO ${table} AS t USING (${source}) AS s ON ${on}${matched}` +
    ` WHEN NOT MATCHED THEN INSERT (${list}) VALUES (${columns.map((column) => `s.${quote(column)}`).join(', ')})`
  );
}

/**
 * The positions (1-based) of the batch's rows whose parent along `fk` is missing upstream:
 * `$1` the rows. A row whose parent is another row of the same batch (components under
 * components) is not missing one.
 */
export function missingParentSql(table: AgentPushTable, fk: PushForeignKey): string {
  const match = (alias: string) =>
    fk.columns.map((column, i) => `${alias}.${quote(fk.parentColumns[i]!)} = r.${quote(column)}`).join(' AND ');
  const present = fk.columns.map((column) => `r.${quote(column)} IS NOT NULL`).join(' AND ');
  const sameBatch =
    fk.parentTable === table
      ? ` AND NOT EXISTS (SELECT 1 FROM jsonb_populate_recordset(NULL::${quote(table)}, $1::jsonb) b WHERE ${match('b')})`
      : '';
  return (
    `SELECT e.n::int AS n FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY e(row, n)` +
    ` CROSS JOIN LATERAL jsonb_populate_record(NULL::${quote(table)}, e.row) r` +
    ` WHERE ${present} AND NOT EXISTS (SELECT 1 FROM ${quote(fk.parentTable)} p WHERE ${match('p')})${sameBatch}`
  );
}

/**
 * The ids of the batch's rows that the upsert did not store: those whose id is held by a row of
 * another agent or of this Lookout (`stored` is what RETURNING gave, the key as text). Only
 * tables with agent_id refuse rows this way; their key is the uuid `id`, which PostgreSQL
 * answers in lower case.
 */
export function rowsNotStored(batch: PushBatch, stored: readonly Record<string, string | null>[]): string[] {
  if (stored.length === batch.rows.length) return [];
  const key = batch.schema.key;
  const idOf = (values: readonly unknown[]) =>
    values.map((value) => (value === null || value === undefined ? '' : String(value).toLowerCase())).join(',');
  const storedIds = new Set(stored.map((row) => idOf(key.map((column) => row[column]))));
  return batch.rows
    .filter((row) => !storedIds.has(idOf(key.map((column) => row[column]))))
    .map((row) => rowId(row, key));
}

/**
 * The positions (1-based) of the batch's rows that refer along `fk` to a parent owned by someone
 * else than the agent `$2` (this Lookout or another agent): `$1` the rows.
 */
export function foreignParentSql(table: AgentPushTable, fk: PushForeignKey): string {
  const match = fk.columns.map((column, i) => `p.${quote(fk.parentColumns[i]!)} = r.${quote(column)}`).join(' AND ');
  return (
    `SELECT e.n::int AS n FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY e(row, n)` +
    ` CROSS JOIN LATERAL jsonb_populate_record(NULL::${quote(table)}, e.row) r` +
    ` WHERE EXISTS (SELECT 1 FROM ${quote(fk.parentTable)} p WHERE ${match} AND p.agent_id IS DISTINCT FROM $2::uuid)`
  );
}
