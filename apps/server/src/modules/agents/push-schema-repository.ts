import { AGENT_PUSH_TABLES, type AgentPushTable } from '@lookout/contracts';
import type pg from 'pg';

/** A foreign key of a pushed table, as the upsert and the conflict report need it. */
export type PushForeignKey = {
  columns: readonly string[];
  parentTable: string;
  parentColumns: readonly string[];
};

/** What the upstream's own schema says about one table an agent pushes. */
export type PushTableSchema = {
  table: AgentPushTable;
  /** The columns a push may write, in table order: not generated, not `is_pushed`. */
  columns: readonly string[];
  /** The row's key: the primary key, or the first unique index of plain columns when there is none. */
  key: readonly string[];
  /** The key's NOT NULL columns: every pushed row must carry them. */
  requiredKey: readonly string[];
  /**
   * True when `INSERT ... ON CONFLICT (key)` finds every existing row: a primary key, or a
   * unique index whose columns are all NOT NULL or that treats NULLs as equal. False for a
   * unique index over a nullable column (two NULLs never conflict there).
   */
  conflictSafe: boolean;
  hasAgentId: boolean;
  foreignKeys: readonly PushForeignKey[];
  /**
   * Nullable single-column references to tables agents do not push (people): an agent's
   * `created_by` names a person of the agent's own database, which the upstream keeps only
   * when it knows that person and otherwise stores as NULL.
   */
  localReferences: readonly PushForeignKey[];
  /**
   * For a table without agent_id: its references to pushed tables that have one (a status's
   * check, a change's config item). Their rows carry the owner, so a pushed row must refer only
   * to the caller's own parents.
   */
  ownedParents: readonly PushForeignKey[];
};

export type PushSchema = ReadonlyMap<AgentPushTable, PushTableSchema>;

type TableRow = {
  table: AgentPushTable;
  columns: string[];
  not_null: string[];
  primary_key: string[] | null;
  unique_key: string[] | null;
  unique_nulls_not_distinct: boolean | null;
  foreign_keys: { columns: string[]; parent_table: string; parent_columns: string[] }[];
};

/** Tables whose rows the agent's id replaces rather than references. */
const OVERWRITTEN_REFERENCES = new Set(['agents']);

/**
 * Reads the pushed tables' columns, keys and foreign keys from the catalog once, and keeps
 * them: migrations run before the server listens, so the schema does not change under it.
 */
export function createPushSchemaRepository(pool: pg.Pool) {
  let cached: Promise<PushSchema> | undefined;

  async function read(): Promise<PushSchema> {
    const { rows } = await pool.query<TableRow>(
      `SELECT t.relname AS table,
              (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
                WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
                  AND a.attgenerated = '' AND a.attidentity <> 'a' AND a.attname <> 'is_pushed') AS columns,
              (SELECT coalesce(array_agg(a.attname::text), '{}') FROM pg_attribute a
                WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attnotnull) AS not_null,
              (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM pg_index i
                 CROSS JOIN unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                WHERE i.indrelid = t.oid AND i.indisprimary) AS primary_key,
              u.key AS unique_key, u.nulls_not_distinct AS unique_nulls_not_distinct,
              (SELECT coalesce(json_agg(json_build_object(
                        'columns', (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum),
                        'parent_table', c.confrelid::regclass::text,
                        'parent_columns', (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                                             JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum))), '[]')
                 FROM pg_constraint c WHERE c.conrelid = t.oid AND c.contype = 'f') AS foreign_keys
         FROM pg_class t
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
         LEFT JOIN LATERAL (
           SELECT array_agg(a.attname::text ORDER BY k.ord) AS key, bool_or(i.indnullsnotdistinct) AS nulls_not_distinct
             FROM (SELECT i.* FROM pg_index i
                    WHERE i.indrelid = t.oid AND i.indisunique AND NOT i.indisprimary AND i.indpred IS NULL
                      AND i.indexprs IS NULL
                    ORDER BY i.indexrelid LIMIT 1) i
             CROSS JOIN unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
         ) u ON true
        WHERE t.relkind IN ('r', 'p') AND t.relname = ANY($1::text[])`,
      [AGENT_PUSH_TABLES],
    );
    const schema = new Map<AgentPushTable, PushTableSchema>();
    for (const row of rows) {
      const key = row.primary_key ?? row.unique_key;
      if (!key) throw new Error(`${row.table} has neither a primary key nor a unique index: agents cannot push it.`);
      const notNull = new Set(row.not_null);
      const foreignKeys = row.foreign_keys.map((fk) => ({
        columns: fk.columns,
        parentTable: fk.parent_table,
        parentColumns: fk.parent_columns,
      }));
      schema.set(row.table, {
        table: row.table,
        columns: row.columns,
        key,
        requiredKey: key.filter((column) => notNull.has(column)),
        conflictSafe:
          row.primary_key !== null || row.unique_nulls_not_distinct === true || key.every((c) => notNull.has(c)),
        hasAgentId: row.columns.includes('agent_id'),
        foreignKeys: foreignKeys.filter((fk) => !OVERWRITTEN_REFERENCES.has(fk.parentTable)),
        localReferences: foreignKeys.filter(
          (fk) =>
            fk.columns.length === 1 &&
            !notNull.has(fk.columns[0]!) &&
            !OVERWRITTEN_REFERENCES.has(fk.parentTable) &&
            !(AGENT_PUSH_TABLES as readonly string[]).includes(fk.parentTable),
        ),
        ownedParents: [],
      });
    }
    for (const table of schema.values()) {
      if (table.hasAgentId) continue;
      table.ownedParents = table.foreignKeys.filter(
        (fk) => schema.get(fk.parentTable as AgentPushTable)?.hasAgentId === true,
      );
    }
    const missing = AGENT_PUSH_TABLES.filter((table) => !schema.has(table));
    if (missing.length > 0) throw new Error(`The database has no table ${missing.join(', ')} that agents push.`);
    return schema;
  }

  return {
    /** The schema of every pushed table (read on first use). */
    schema(): Promise<PushSchema> {
      cached ??= read().catch((error: unknown) => {
        cached = undefined;
        throw error;
      });
      return cached;
    },
  };
}
