import type { AgentPushBacklog, AgentPushRow, AgentPushTable } from '@lookout/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/transaction.js';
import { PUSH_TABLE_DEFINITIONS, PUSH_TABLES } from './agent-push-tables.js';

/**
 * One row version read for a push: the row as the upstream gets it (every column but
 * is_pushed), where it is (`tid`, its ctid) and which version it is (`version`, ctid/xmin). The
 * mark after the upstream's 200 matches both, so a row changed meanwhile (a new version) stays
 * unpushed and goes again.
 */
export type PushedRow = { tid: string; version: string; row: AgentPushRow };

/** The rows of one push, table by table in AGENT_PUSH_TABLES order. */
export type PushPage = Map<AgentPushTable, PushedRow[]>;

/** A single-column foreign key between two pushed tables. */
type PushReference = { child: AgentPushTable; column: string; parent: AgentPushTable; parentColumn: string };

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const ROW_COLUMNS = `t.ctid::text AS tid, t.ctid::text || '/' || t.xmin::text AS version, to_jsonb(t) - 'is_pushed' AS row`;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many rows a page holds over all tables. */
export const pageSize = (page: PushPage): number => [...page.values()].reduce((sum, rows) => sum + rows.length, 0);

export type AgentPushRepository = ReturnType<typeof createAgentPushRepository>;

export function createAgentPushRepository(pool: pg.Pool) {
  let references: Promise<PushReference[]> | undefined;

  /** The foreign keys between pushed tables (uuid columns), read once from the catalog. */
  function pushReferences(): Promise<PushReference[]> {
    references ??= pool
      .query<PushReference>(
        `SELECT c.conrelid::regclass::text AS child, a.attname AS "column",
                c.confrelid::regclass::text AS parent, pa.attname AS "parentColumn"
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
         JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
         WHERE c.contype = 'f' AND cardinality(c.conkey) = 1 AND pa.atttypid = 'uuid'::regtype
           AND c.conrelid::regclass::text = ANY ($1::text[]) AND c.confrelid::regclass::text = ANY ($1::text[])`,
        [PUSH_TABLES],
      )
      .then((result) => result.rows)
      .catch((error: unknown) => {
        references = undefined;
        throw error;
      });
    return references;
  }

  async function rowsWhere(table: AgentPushTable, column: string, values: string[]): Promise<PushedRow[]> {
    if (values.length === 0) return [];
    const { rows } = await pool.query<PushedRow>(
      `SELECT ${ROW_COLUMNS} FROM ${quote(table)} t WHERE t.${quote(column)} = ANY ($1::uuid[])`,
      [values],
    );
    return rows;
  }

  /** Adds rows to the page's table, skipping versions already in it; returns how many were new. */
  function addRows(page: PushPage, table: AgentPushTable, rows: PushedRow[]): number {
    const current = page.get(table) ?? [];
    const known = new Set(current.map((row) => row.version));
    const added = rows.filter((row) => !known.has(row.version));
    if (added.length > 0) page.set(table, [...added, ...current]);
    return added.length;
  }

  return {
    /**
     * Makes this database an agent's (agent_push_state.enabled, migration 37): from now on new
     * and changed rows wait to be pushed. The first time, every row the Lookout owns is queued,
     * so everything it had before it became an agent goes up once. Returns how many rows that
     * queued (0 when it already was an agent).
     */
    async startPushing(): Promise<number> {
      return withTransaction(pool, async (tx) => {
        const { rows } = await tx.query<{ enabled: boolean }>('SELECT enabled FROM agent_push_state FOR UPDATE');
        if (rows[0]?.enabled) return 0;
        await tx.query('UPDATE agent_push_state SET enabled = true, changed_at = now()');
        let queued = 0;
        for (const table of PUSH_TABLES) {
          const result = await tx.query(
            `UPDATE ${quote(table)} t SET is_pushed = false WHERE t.is_pushed AND ${PUSH_TABLE_DEFINITIONS[table].local}`,
          );
          queued += result.rowCount ?? 0;
        }
        return queued;
      });
    },

    /** This database is no agent's (a plain `lookout serve`): rows are born pushed again. */
    async stopPushing(): Promise<boolean> {
      const result = await pool.query('UPDATE agent_push_state SET enabled = false, changed_at = now() WHERE enabled');
      return (result.rowCount ?? 0) > 0;
    },

    /**
     * Up to `limit` unpushed rows of this Lookout's own per table, oldest first, in one
     * statement, so that every table is read from the same snapshot.
     */
    async readUnpushed(limit: number, skip: ReadonlySet<AgentPushTable> = new Set()): Promise<PushPage> {
      const parts = PUSH_TABLES.flatMap((table, index) => {
        // A table set aside after a refusal is not read at all until its back-off ends.
        if (skip.has(table)) return [];
        const { changedAt, local } = PUSH_TABLE_DEFINITIONS[table];
        return `(SELECT ${index} AS table_index, ${ROW_COLUMNS} FROM ${quote(table)} t
                 WHERE NOT t.is_pushed AND ${local} ORDER BY ${changedAt} LIMIT $1)`;
      });
      const page: PushPage = new Map();
      if (parts.length === 0) return page;
      const { rows } = await pool.query<PushedRow & { table_index: number }>(parts.join('\nUNION ALL\n'), [limit]);
      for (const { table_index, ...row } of rows) {
        const table = PUSH_TABLES[table_index]!;
        const list = page.get(table) ?? [];
        list.push(row);
        page.set(table, list);
      }
      return page;
    },

    /** How many rows wait over all tables, and when the oldest of them was written. */
    async backlog(): Promise<AgentPushBacklog> {
      const parts = PUSH_TABLES.map((table) => {
        const { changedAt, local } = PUSH_TABLE_DEFINITIONS[table];
        return `SELECT count(*) AS waiting, min(${changedAt}) AS oldest FROM ${quote(table)} t WHERE NOT t.is_pushed AND ${local}`;
      });
      const { rows } = await pool.query<{ queue_length: string; oldest_unpushed_at: Date | null }>(
        `SELECT coalesce(sum(waiting), 0)::bigint AS queue_length, min(oldest) AS oldest_unpushed_at
         FROM (${parts.join('\nUNION ALL\n')}) backlog`,
      );
      const row = rows[0]!;
      return {
        queue_length: Number(row.queue_length),
        oldest_unpushed_at: row.oldest_unpushed_at ? row.oldest_unpushed_at.toISOString() : null,
      };
    },

    /**
     * Marks exactly the row versions of `page` pushed (the trigger of migration 34 keeps every
     * other column as it is); a version changed since it was read no longer matches and stays
     * unpushed. Returns how many rows were marked.
     */
    async markPushed(page: PushPage): Promise<number> {
      let marked = 0;
      for (const table of PUSH_TABLES) {
        const rows = page.get(table);
        if (!rows || rows.length === 0) continue;
        const result = await pool.query(
          `UPDATE ${quote(table)} t SET is_pushed = true
           WHERE t.ctid = ANY ($1::tid[]) AND NOT t.is_pushed
             AND t.ctid::text || '/' || t.xmin::text = ANY ($2::text[])`,
          [rows.map((row) => row.tid), rows.map((row) => row.version)],
        );
        marked += result.rowCount ?? 0;
      }
      return marked;
    },

    /**
     * Adds to `page` the rows its rows refer to in other pushed tables (their canary, check,
     * config item, component, playbook, ...), and theirs in turn, pushed before or not: what the
     * upstream needs when it answered 409 because it lacks a parent (it was reset, or a parent
     * fell outside the page). Returns how many rows were added.
     */
    async addParents(page: PushPage): Promise<number> {
      const links = await pushReferences();
      let added = 0;
      // Children come after their parents in AGENT_PUSH_TABLES: walking backwards reaches the
      // parents of added parents too. A table that refers to itself (components under
      // components) is walked again until nothing new comes.
      for (const table of [...PUSH_TABLES].reverse()) {
        for (let round = 0; round < 20; round += 1) {
          let addedThisRound = 0;
          for (const link of links.filter((candidate) => candidate.child === table)) {
            const values = new Set<string>();
            for (const { row } of page.get(table) ?? []) {
              const value = row[link.column];
              if (typeof value === 'string' && UUID_PATTERN.test(value)) values.add(value);
            }
            const parents = await rowsWhere(link.parent, link.parentColumn, [...values]);
            addedThisRound += addRows(page, link.parent, parents);
          }
          added += addedThisRound;
          if (addedThisRound === 0 || !links.some((link) => link.child === table && link.parent === table)) break;
        }
      }
      return added;
    },
  };
}
