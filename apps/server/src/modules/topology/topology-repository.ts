import { TOPOLOGY_JOB_RESOURCE_TYPE, type TopologyDocument } from '@lookout/contracts';
import type pg from 'pg';

/** The topologies table: what the planner runs and what `lookout apply -f` writes. */

export type LiveTopology = {
  id: string;
  name: string;
  namespace: string;
  agentId: string;
  spec: unknown;
  schedule: string | null;
  updatedAt: Date;
  lastRun: Date | null;
};

const LIVE_SQL = `
SELECT t.id, t.name, t.namespace, t.agent_id, t.spec, coalesce(t.spec ->> 'schedule', t.schedule) AS schedule, t.updated_at,
  (SELECT max(h.time_start) FROM job_history h WHERE h.resource_type = '${TOPOLOGY_JOB_RESOURCE_TYPE}' AND h.resource_id = t.id::text) AS last_run
FROM topologies t WHERE t.deleted_at IS NULL`;

type LiveRow = {
  id: string;
  name: string;
  namespace: string;
  agent_id: string;
  spec: unknown;
  schedule: string | null;
  updated_at: Date;
  last_run: Date | null;
};

const toLive = (row: LiveRow): LiveTopology => ({
  id: row.id,
  name: row.name,
  namespace: row.namespace,
  agentId: row.agent_id,
  spec: row.spec,
  schedule: row.schedule,
  updatedAt: row.updated_at,
  lastRun: row.last_run,
});

export function createTopologyRepository(pool: pg.Pool) {
  return {
    /**
     * The topologies this Lookout runs on their schedule: its own. An agent's topologies (pushed
     * with its agent_id) run on the agent, which pushes their components; run here as well, they
     * would make a second set of the agent's components.
     */
    async liveTopologies(): Promise<LiveTopology[]> {
      const { rows } = await pool.query<LiveRow>(
        `${LIVE_SQL} AND t.agent_id = '00000000-0000-0000-0000-000000000000' ORDER BY t.name`,
      );
      return rows.map(toLive);
    },

    async topology(id: string): Promise<LiveTopology | undefined> {
      const { rows } = await pool.query<LiveRow>(`${LIVE_SQL} AND t.id = $1`, [id]);
      return rows[0] ? toLive(rows[0]) : undefined;
    },

    /** Creates or updates the topology named by the document's name and namespace. */
    async upsertTopology(document: TopologyDocument, source: string): Promise<{ id: string; created: boolean }> {
      const { metadata, spec } = document;
      const { rows } = await pool.query<{ id: string; created: boolean }>(
        `WITH found AS (
           SELECT id FROM topologies
           WHERE name = $1 AND namespace = $2 AND deleted_at IS NULL AND agent_id = '00000000-0000-0000-0000-000000000000'
         ), updated AS (
           UPDATE topologies SET spec = $3::jsonb, labels = $4::jsonb, schedule = $5, source = $6::source
           WHERE id IN (SELECT id FROM found) RETURNING id, false AS created
         ), inserted AS (
           INSERT INTO topologies (name, namespace, spec, labels, schedule, source)
           SELECT $1, $2, $3::jsonb, $4::jsonb, $5, $6::source WHERE NOT EXISTS (SELECT 1 FROM found)
           RETURNING id, true AS created
         )
         SELECT * FROM updated UNION ALL SELECT * FROM inserted`,
        [
          metadata.name,
          metadata.namespace,
          JSON.stringify(spec),
          metadata.labels ? JSON.stringify(metadata.labels) : null,
          spec.schedule ?? null,
          source,
        ],
      );
      return rows[0]!;
    },
  };
}

export type TopologyRepository = ReturnType<typeof createTopologyRepository>;
