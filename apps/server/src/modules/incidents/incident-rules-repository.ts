import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';
import type { RuleResource } from './incident-rule-fns.js';

/**
 * What incident rules read: the live rules, and checks, components and insights in the shape
 * a rule judges (RuleResource). Consecutive failures of a check are its results since its
 * last passing one.
 */

export type StoredRule = { id: string; name: string; spec: unknown };

const CHECK_RESOURCE = `
  SELECT 'check' AS kind, c.id, c.name, c.namespace, c.type, c.status,
         (SELECT count(*)::int FROM check_statuses s
          WHERE s.check_id = c.id AND NOT s.status
            AND s.time > coalesce((SELECT max(p.time) FROM check_statuses p WHERE p.check_id = c.id AND p.status),
                                  '-infinity')) AS failures
  FROM checks c WHERE c.deleted_at IS NULL`;

const COMPONENT_RESOURCE = `
  SELECT 'component' AS kind, m.id, m.name, m.namespace, m.type, m.status, m.health
  FROM components m WHERE m.deleted_at IS NULL`;

const INSIGHT_RESOURCE = `
  SELECT 'insight' AS kind, a.id, g.name, g.labels ->> 'namespace' AS namespace, g.type, a.status,
         a.severity, a.analysis_type AS category, coalesce(a.summary, a.message) AS message
  FROM config_analysis a JOIN config_items g ON g.id = a.config_id
  WHERE g.deleted_at IS NULL`;

type ResourceRow = RuleResource & { failures?: number };

function clean(row: ResourceRow): RuleResource {
  const out: RuleResource = { kind: row.kind, id: row.id, name: row.name, namespace: row.namespace, type: row.type };
  for (const key of ['failures', 'status', 'health', 'severity', 'category', 'message'] as const) {
    if (row[key] !== undefined) Object.assign(out, { [key]: row[key] });
  }
  return out;
}

export type IncidentRulesRepository = ReturnType<typeof createIncidentRulesRepository>;

export function createIncidentRulesRepository(pool: pg.Pool) {
  return {
    async liveRules(q: Queryable = pool): Promise<StoredRule[]> {
      const { rows } = await q.query<StoredRule>(
        `SELECT id, name, spec FROM incident_rules WHERE deleted_at IS NULL ORDER BY name`,
      );
      return rows;
    },

    async rule(id: string): Promise<StoredRule | undefined> {
      const { rows } = await pool.query<StoredRule>(
        `SELECT id, name, spec FROM incident_rules WHERE id = $1 AND deleted_at IS NULL`,
        [id],
      );
      return rows[0];
    },

    async check(id: string, q: Queryable = pool): Promise<RuleResource | undefined> {
      const { rows } = await q.query<ResourceRow>(`${CHECK_RESOURCE} AND c.id = $1`, [id]);
      return rows[0] ? clean(rows[0]) : undefined;
    },

    async component(id: string, q: Queryable = pool): Promise<RuleResource | undefined> {
      const { rows } = await q.query<ResourceRow>(`${COMPONENT_RESOURCE} AND m.id = $1`, [id]);
      return rows[0] ? clean(rows[0]) : undefined;
    },

    /** What a rule's periodic run looks at: failing checks, unhealthy components, open insights. */
    async candidates(): Promise<RuleResource[]> {
      const checks = await pool.query<ResourceRow>(`${CHECK_RESOURCE} AND c.status = 'unhealthy'`);
      const components = await pool.query<ResourceRow>(
        `${COMPONENT_RESOURCE} AND (m.health IN ('unhealthy', 'warning') OR m.status IN ('unhealthy', 'warning'))`,
      );
      const insights = await pool.query<ResourceRow>(`${INSIGHT_RESOURCE} AND a.status = 'open'`);
      return [...checks.rows, ...components.rows, ...insights.rows].map(clean);
    },

    /** The live incident a rule opened for a resource, if any (de-duplication). */
    async openIncidentFor(ruleId: string, resourceId: string, q: Queryable = pool): Promise<string | undefined> {
      const { rows } = await q.query<{ id: string }>(
        `SELECT id FROM incidents WHERE incident_rule_id = $1 AND rule_resource_id = $2
           AND status NOT IN ('resolved', 'closed') LIMIT 1`,
        [ruleId, resourceId],
      );
      return rows[0]?.id;
    },

    /** A rule's responders on a new incident: people, and teams with a responder type. */
    async addResponders(
      q: Queryable,
      incidentId: string,
      responders: {
        person?: { id: string }[] | undefined;
        team?:
          | { id: string; responderType?: string | undefined; properties?: Record<string, string> | undefined }[]
          | undefined;
      },
    ): Promise<number> {
      let added = 0;
      for (const person of responders.person ?? []) {
        await q.query(
          `INSERT INTO responders (incident_id, type, person_id, properties)
           VALUES ($1, 'person', $2, '{"responderType":"person"}')`,
          [incidentId, person.id],
        );
        added += 1;
      }
      for (const team of responders.team ?? []) {
        await q.query(`INSERT INTO responders (incident_id, type, team_id, properties) VALUES ($1, 'system', $2, $3)`, [
          incidentId,
          team.id,
          JSON.stringify({ ...(team.properties ?? {}), responderType: team.responderType ?? 'email' }),
        ]);
        added += 1;
      }
      return added;
    },
  };
}
