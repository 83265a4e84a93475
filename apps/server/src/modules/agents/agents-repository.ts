import { randomBytes } from 'node:crypto';
import type { AgentIdentity, AgentPushBacklog } from '@lookout/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';

export type AgentsRepository = ReturnType<typeof createAgentsRepository>;

/** The new agent's service person and row (backend-model 2.6, registration). */
export type NewAgent = {
  name: string;
  properties: Record<string, unknown>;
  createdBy: string | null;
};

/** `agents` rows and their service people, as the registration and the push need them. */
export function createAgentsRepository(pool: pg.Pool) {
  return {
    /**
     * Creates the service person `agent-<hex>` (email `agent-<hex>@local`, type 'agent') and
     * the agents row linked to it, in the caller's transaction. A live agent of the same name
     * makes the insert fail with a unique violation (agents_name_live_key).
     */
    async create(db: Queryable, agent: NewAgent): Promise<{ id: string; username: string; personId: string }> {
      const username = `agent-${randomBytes(8).toString('hex')}`;
      const person = await db.query<{ id: string }>(
        `INSERT INTO people (name, email, type) VALUES ($1, $2, 'agent') RETURNING id::text`,
        [username, `${username}@local`],
      );
      const personId = person.rows[0]!.id;
      const row = await db.query<{ id: string }>(
        `INSERT INTO agents (name, username, person_id, properties, created_by)
         VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id::text`,
        [agent.name, username, personId, JSON.stringify(agent.properties), agent.createdBy],
      );
      return { id: row.rows[0]!.id, username, personId };
    },

    /** The live agent of that name with its service person, or undefined. */
    async findLive(name: string): Promise<{ id: string; username: string; personId: string | null } | undefined> {
      const { rows } = await pool.query<{ id: string; username: string | null; person_id: string | null }>(
        `SELECT a.id::text, coalesce(a.username, p.name) AS username, a.person_id::text
           FROM agents a LEFT JOIN people p ON p.id = a.person_id
          WHERE a.name = $1 AND a.deleted_at IS NULL`,
        [name],
      );
      const row = rows[0];
      return row ? { id: row.id, username: row.username ?? '', personId: row.person_id } : undefined;
    },

    /**
     * Gives an agent created without one (by the data API, say) its service person, so that it
     * can hold tokens; answers that person's id.
     */
    async ensurePerson(db: Queryable, agentId: string): Promise<{ personId: string; username: string }> {
      const username = `agent-${randomBytes(8).toString('hex')}`;
      const person = await db.query<{ id: string }>(
        `INSERT INTO people (name, email, type) VALUES ($1, $2, 'agent') RETURNING id::text`,
        [username, `${username}@local`],
      );
      const personId = person.rows[0]!.id;
      await db.query('UPDATE agents SET person_id = $2, username = coalesce(username, $3) WHERE id = $1', [
        agentId,
        personId,
        username,
      ]);
      return { personId, username };
    },

    /**
     * Marks the agent seen (ping), or seen and received (push), and stores the backlog it
     * reported, when it reported one. One UPDATE; it does not touch updated_at's meaning
     * beyond the row trigger.
     */
    async markSeen(
      db: Queryable,
      agent: AgentIdentity,
      options: { received: boolean; backlog?: AgentPushBacklog | undefined },
    ): Promise<void> {
      await db.query(
        `UPDATE agents SET last_seen = now(),
                last_received = CASE WHEN $2 THEN now() ELSE last_received END,
                push_queue_length = CASE WHEN $3 THEN $4::integer ELSE push_queue_length END,
                push_oldest_unpushed_at = CASE WHEN $3 THEN $5::timestamptz ELSE push_oldest_unpushed_at END
          WHERE id = $1`,
        [
          agent.id,
          options.received,
          options.backlog !== undefined,
          options.backlog?.queue_length ?? null,
          options.backlog?.oldest_unpushed_at ?? null,
        ],
      );
    },
  };
}
