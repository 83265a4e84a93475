import type { CreateIncidentBody, DefinitionOfDoneState, IncidentStatus } from '@lookout/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';

/**
 * SQL of the incidents module beyond /api/db: the create flow, the definition-of-done state
 * and its evaluation inputs, and the reconcile step. Rules, responders and the timeline have
 * their own repository files.
 */

export type IncidentRow = {
  id: string;
  incident_id: string;
  title: string;
  description: string;
  type: string;
  status: IncidentStatus;
  severity: string;
  created_by: string;
  commander_id: string | null;
  communicator_id: string | null;
  created_at: string;
  updated_at: string;
  root_hypothesis_id: string;
};

/** One scripted definition-of-done item with the data its script reads. */
export type ScriptedEvidence = {
  id: string;
  script: string;
  done: boolean;
  incident: Record<string, unknown>;
  check: Record<string, unknown> | null;
  analysis: Record<string, unknown> | null;
  component: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
};

const INCIDENT_COLUMNS = `i.id, i.incident_id, i.title, i.description, i.type, i.status, i.severity, i.created_by,
  i.commander_id, i.communicator_id, i.created_at, i.updated_at`;

export type IncidentsRepository = ReturnType<typeof createIncidentsRepository>;

export function createIncidentsRepository(pool: pg.Pool) {
  return {
    /**
     * The incident, its root hypothesis (made by the insert trigger, titled as asked) and the
     * evidence on it when one is given, in the caller's transaction.
     */
    async create(
      q: Queryable,
      body: CreateIncidentBody,
      createdBy: string,
      extra: { ruleId?: string; ruleResourceId?: string } = {},
    ): Promise<IncidentRow | undefined> {
      const inserted = await q.query<{ id: string }>(
        `INSERT INTO incidents (title, description, severity, status, type, created_by, commander_id, communicator_id,
                                incident_rule_id, rule_resource_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (incident_rule_id, rule_resource_id)
           WHERE rule_resource_id IS NOT NULL AND status NOT IN ('resolved', 'closed') DO NOTHING
         RETURNING id`,
        [
          body.title,
          body.description,
          body.severity,
          body.status,
          body.type,
          createdBy,
          body.commander_id ?? null,
          body.communicator_id ?? null,
          extra.ruleId ?? null,
          extra.ruleResourceId ?? null,
        ],
      );
      const id = inserted.rows[0]?.id;
      if (!id) return undefined;
      if (body.hypothesis_title) {
        await q.query(`UPDATE hypotheses SET title = $2 WHERE incident_id = $1 AND type = 'root'`, [
          id,
          body.hypothesis_title,
        ]);
      }
      const row = await this.find(q, id);
      if (row && body.evidence) {
        const e = body.evidence;
        await q.query(
          `INSERT INTO evidences (hypothesis_id, type, description, evidence, component_id, config_id, check_id,
                                  config_change_id, config_analysis_id, definition_of_done, script, created_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
          [
            row.root_hypothesis_id,
            e.type,
            e.description,
            e.evidence ? JSON.stringify(e.evidence) : null,
            e.component_id ?? null,
            e.config_id ?? null,
            e.check_id ?? null,
            e.config_change_id ?? null,
            e.config_analysis_id ?? null,
            e.definition_of_done ?? false,
            e.script ?? null,
            createdBy,
          ],
        );
      }
      return row;
    },

    async find(q: Queryable, id: string): Promise<IncidentRow | undefined> {
      const { rows } = await q.query<IncidentRow>(
        `SELECT ${INCIDENT_COLUMNS},
                (SELECT h.id FROM hypotheses h WHERE h.incident_id = i.id AND h.type = 'root' ORDER BY h.created_at LIMIT 1)
                  AS root_hypothesis_id
         FROM incidents i WHERE i.id = $1`,
        [id],
      );
      return rows[0];
    },

    /** The definition-of-done items of an incident and whether all are done. */
    async definitionOfDone(id: string): Promise<DefinitionOfDoneState | undefined> {
      const incident = await pool.query<{ status: IncidentStatus }>(`SELECT status FROM incidents WHERE id = $1`, [id]);
      const status = incident.rows[0]?.status;
      if (!status) return undefined;
      const { rows } = await pool.query<DefinitionOfDoneState['items'][number]>(
        `SELECT e.id, e.type, e.description, e.done, e.script, e.script_result, (e.script IS NOT NULL) AS automatic
         FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
         WHERE h.incident_id = $1 AND e.definition_of_done
         ORDER BY e.created_at`,
        [id],
      );
      const done = rows.filter((row) => row.done).length;
      return {
        incident_id: id,
        status,
        items: rows,
        total: rows.length,
        done,
        complete: rows.length > 0 && done === rows.length,
      };
    },

    /** Every scripted item of an incident that is not closed, with what its script reads. */
    async scriptedEvidence(): Promise<ScriptedEvidence[]> {
      const { rows } = await pool.query<ScriptedEvidence>(
        `SELECT e.id, e.script, e.done,
                jsonb_build_object('id', i.id, 'incident_id', i.incident_id, 'title', i.title, 'status', i.status,
                                   'severity', i.severity, 'type', i.type) AS incident,
                CASE WHEN c.id IS NOT NULL THEN jsonb_build_object(
                  'id', c.id, 'name', c.name, 'type', c.type, 'namespace', c.namespace, 'status', c.status,
                  'last_transition_time', c.last_transition_time,
                  'age_seconds', floor(extract(epoch FROM now() - coalesce(c.last_transition_time, c.updated_at)))::bigint)
                END AS check,
                CASE WHEN a.id IS NOT NULL THEN jsonb_build_object(
                  'id', a.id, 'status', a.status, 'severity', a.severity, 'analyzer', a.analyzer,
                  'analysis_type', a.analysis_type, 'message', a.message)
                END AS analysis,
                CASE WHEN m.id IS NOT NULL THEN jsonb_build_object(
                  'id', m.id, 'name', m.name, 'type', m.type, 'status', coalesce(m.health, m.status),
                  'health', m.health, 'status_reason', m.status_reason)
                END AS component,
                CASE WHEN g.id IS NOT NULL THEN jsonb_build_object(
                  'id', g.id, 'name', g.name, 'type', g.type, 'health', g.health, 'status', g.status, 'config', g.config)
                END AS config
         FROM evidences e
         JOIN hypotheses h ON h.id = e.hypothesis_id
         JOIN incidents i ON i.id = h.incident_id
         LEFT JOIN checks c ON c.id = e.check_id
         LEFT JOIN config_analysis a ON a.id = e.config_analysis_id
         LEFT JOIN components m ON m.id = e.component_id
         LEFT JOIN config_items g ON g.id = e.config_id
         WHERE e.definition_of_done AND e.script IS NOT NULL AND i.closed IS NULL AND i.status <> 'closed'`,
      );
      return rows;
    },

    async setScriptResult(id: string, done: boolean, result: string): Promise<void> {
      await pool.query(
        `UPDATE evidences SET done = $2, script_result = $3
         WHERE id = $1 AND (done IS DISTINCT FROM $2 OR script_result IS DISTINCT FROM $3)`,
        [id, done, result],
      );
    },

    /**
     * Resolves the incidents whose definition of done is complete and changed after their last
     * status move (so reopening one by hand is not undone), unless their rule turned
     * auto-resolve off. Returns the incident numbers resolved.
     */
    async resolveCompleted(): Promise<string[]> {
      const { rows } = await pool.query<{ incident_id: string }>(
        `WITH dod AS (
           SELECT h.incident_id, bool_and(e.done) AS all_done, max(e.updated_at) AS last_change
           FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
           WHERE e.definition_of_done
           GROUP BY h.incident_id
         ), candidates AS (
           SELECT i.id FROM incidents i
           JOIN dod ON dod.incident_id = i.id AND dod.all_done
           LEFT JOIN incident_rules r ON r.id = i.incident_rule_id
           WHERE i.status IN ('new', 'open', 'investigating', 'mitigated')
             AND coalesce((r.spec -> 'autoResolve' ->> 'enabled')::boolean, true)
             AND dod.last_change > coalesce(
               (SELECT max(x.created_at) FROM incident_histories x
                WHERE x.incident_id = i.id AND x.type = 'incident.status_updated'), '-infinity')
         )
         UPDATE incidents i SET status = 'resolved' FROM candidates c WHERE i.id = c.id
         RETURNING i.incident_id`,
      );
      return rows.map((row) => row.incident_id);
    },
  };
}
