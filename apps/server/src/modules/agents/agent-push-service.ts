import type { AgentIdentity, AgentPushResult, AgentPushTable } from '@lookout/contracts';
import type pg from 'pg';
import { isPgError } from '../../db/pg-errors.js';
import { withTransaction } from '../../db/transaction.js';
import {
  foreignParentSql,
  missingParentSql,
  parsePushBody,
  rowId,
  rowsNotStored,
  upsertSql,
  type PushBatch,
} from './agent-push-fns.js';
import type { AgentsRepository } from './agents-repository.js';
import type { createPushSchemaRepository } from './push-schema-repository.js';

/** SQLSTATE of a row referring to a parent that does not exist (`foreign_key_violation`). */
const PG_FOREIGN_KEY_VIOLATION = '23503';

/** How a push failed, for the route to answer: 400 bad rows, 409 missing parents or rows held by others. */
export type PushFailure =
  | { kind: 'bad-request'; message: string }
  | { kind: 'missing-parents'; table: AgentPushTable; ids: string[]; message: string }
  | { kind: 'not-owned'; table: AgentPushTable; ids: string[]; message: string };

export class PushRefused extends Error {
  constructor(readonly failure: PushFailure) {
    super(failure.message);
  }
}

/** A PostgreSQL error a pushed row caused: bad values, NOT NULL, CHECK, a unique index, a trigger's refusal. */
function isRowError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown }).code;
  return (
    error instanceof Error &&
    typeof code === 'string' &&
    (code.startsWith('22') || code === '23502' || code === '23505' || code === '23514' || code === 'P0001')
  );
}

export type AgentPushService = ReturnType<typeof createAgentPushService>;

/**
 * Stores an agent's push: every table in AGENT_PUSH_TABLES order in one transaction, rows under
 * the caller's agent, upserted by key, with the triggers that would redo the agent's own work
 * switched off (`lookout.agent_push`, migration 33). The agent is marked seen and received, and
 * its backlog stored, in the same transaction.
 */
export function createAgentPushService(deps: {
  pool: pg.Pool;
  schema: ReturnType<typeof createPushSchemaRepository>;
  agents: Pick<AgentsRepository, 'markSeen'>;
}) {
  async function storeBatch(tx: pg.PoolClient, agent: AgentIdentity, batch: PushBatch): Promise<number> {
    const rows = JSON.stringify(batch.rows);
    await refuseForeignParents(tx, agent, batch, rows);
    await tx.query('SAVEPOINT push_table');
    try {
      // $2, the agent's id, appears only in tables that have agent_id.
      const params = batch.schema.hasAgentId ? [rows, agent.id] : [rows];
      const result = await tx.query<Record<string, string | null>>(upsertSql(batch), params);
      if (batch.schema.hasAgentId) {
        const refused = rowsNotStored(batch, result.rows);
        if (refused.length > 0) {
          throw new PushRefused({
            kind: 'not-owned',
            table: batch.schema.table,
            ids: refused,
            message:
              `${batch.schema.table}: ${refused.length} row(s) have the id of a row that belongs to another agent ` +
              'or to this Lookout; they were not stored.',
          });
        }
      }
      await tx.query('RELEASE SAVEPOINT push_table');
      return batch.rows.length;
    } catch (error) {
      if (error instanceof PushRefused) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT push_table');
      if (isPgError(error, PG_FOREIGN_KEY_VIOLATION)) {
        const ids = await rowsWithMissingParents(tx, batch, rows);
        throw new PushRefused({
          kind: 'missing-parents',
          table: batch.schema.table,
          ids,
          message:
            `${batch.schema.table}: ${ids.length || 'some'} row(s) refer to rows this Lookout does not have ` +
            `(${error.message}); push those parents first.`,
        });
      }
      if (isRowError(error)) {
        throw new PushRefused({ kind: 'bad-request', message: `${batch.schema.table}: ${error.message}.` });
      }
      throw error;
    }
  }

  /** Refuses rows of a table without agent_id that refer to parents of this Lookout or another agent. */
  async function refuseForeignParents(tx: pg.PoolClient, agent: AgentIdentity, batch: PushBatch, rows: string) {
    const positions = new Set<number>();
    for (const fk of batch.schema.ownedParents) {
      const result = await tx.query<{ n: number }>(foreignParentSql(batch.schema.table, fk), [rows, agent.id]);
      for (const row of result.rows) positions.add(row.n);
    }
    if (positions.size === 0) return;
    const ids = [...positions].sort((a, b) => a - b).map((n) => rowId(batch.rows[n - 1]!, batch.schema.key));
    throw new PushRefused({
      kind: 'not-owned',
      table: batch.schema.table,
      ids,
      message:
        `${batch.schema.table}: ${ids.length} row(s) refer to rows that belong to another agent or to this Lookout; ` +
        'they were not stored.',
    });
  }

  /** The ids of the rows whose parent along any foreign key is missing (earlier tables of the push count). */
  async function rowsWithMissingParents(tx: pg.PoolClient, batch: PushBatch, rows: string): Promise<string[]> {
    const positions = new Set<number>();
    for (const fk of batch.schema.foreignKeys) {
      const result = await tx.query<{ n: number }>(missingParentSql(batch.schema.table, fk), [rows]);
      for (const row of result.rows) positions.add(row.n);
    }
    return [...positions].sort((a, b) => a - b).map((n) => rowId(batch.rows[n - 1]!, batch.schema.key));
  }

  return {
    /** Validates and stores one push; throws PushRefused for what the agent must fix or resend. */
    async push(agent: AgentIdentity, body: unknown): Promise<AgentPushResult> {
      const { batches, backlog } = parsePushBody(body, await deps.schema.schema());
      return withTransaction(deps.pool, async (tx) => {
        await tx.query(`SELECT set_config('lookout.agent_push', 'on', true)`);
        const saved: AgentPushResult['saved'] = {};
        for (const batch of batches) saved[batch.schema.table] = await storeBatch(tx, agent, batch);
        await deps.agents.markSeen(tx, agent, { received: true, backlog });
        return { saved };
      });
    },
  };
}
