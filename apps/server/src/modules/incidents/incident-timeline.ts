import type { TimelineEntry } from '@lookout/contracts';
import type pg from 'pg';
import {
  incidentMarkdown,
  mergeTimeline,
  type ReportHypothesis,
  type ReportIncident,
  type ReportResponder,
} from './incident-report-fns.js';

/**
 * The automatic timeline of an incident (docs/incidents.md): its changelog, the status
 * transitions of the checks it holds as evidence, the changes of its config items, and the
 * notifications sent about its resources, from an hour before it started until it closed (or
 * now), merged by time. Each source is capped so a noisy resource cannot swamp the page.
 */

const PER_SOURCE = 200;
const WINDOW_BEFORE = "interval '1 hour'";

type Window = { id: string; from: string; to: string; checks: string[]; configs: string[]; resources: string[] };

export function createIncidentTimeline(pool: pg.Pool) {
  async function window(id: string): Promise<Window | undefined> {
    const { rows } = await pool.query<Window>(
      `SELECT i.id,
              to_json(i.created_at - ${WINDOW_BEFORE})#>>'{}' AS from,
              to_json(coalesce(i.closed, now()))#>>'{}' AS to,
              coalesce(array_agg(DISTINCT e.check_id) FILTER (WHERE e.check_id IS NOT NULL), '{}') AS checks,
              coalesce(array_agg(DISTINCT coalesce(e.config_id, a.config_id, g.config_id))
                       FILTER (WHERE coalesce(e.config_id, a.config_id, g.config_id) IS NOT NULL), '{}') AS configs,
              coalesce(array_agg(DISTINCT x.rid) FILTER (WHERE x.rid IS NOT NULL), '{}') AS resources
       FROM incidents i
       LEFT JOIN hypotheses h ON h.incident_id = i.id
       LEFT JOIN evidences e ON e.hypothesis_id = h.id
       LEFT JOIN config_analysis a ON a.id = e.config_analysis_id
       LEFT JOIN config_changes g ON g.id = e.config_change_id
       LEFT JOIN LATERAL (VALUES (e.check_id), (e.component_id), (e.config_id)) x(rid) ON true
       WHERE i.id = $1
       GROUP BY i.id`,
      [id],
    );
    return rows[0];
  }

  async function changelog(w: Window): Promise<TimelineEntry[]> {
    const { rows } = await pool.query<TimelineEntry>(
      `SELECT to_json(x.created_at)#>>'{}' AS at, 'changelog' AS kind, x.type AS title, x.description AS detail,
              NULL::jsonb AS resource
       FROM incident_histories x WHERE x.incident_id = $1 ORDER BY x.created_at LIMIT ${PER_SOURCE}`,
      [w.id],
    );
    return rows;
  }

  async function checkTransitions(w: Window): Promise<TimelineEntry[]> {
    if (w.checks.length === 0) return [];
    const { rows } = await pool.query<TimelineEntry>(
      `SELECT to_json(t.time)#>>'{}' AS at, 'check_status' AS kind,
              c.name || CASE WHEN t.status THEN ' passed' ELSE ' failed' END AS title,
              coalesce(nullif(t.error, ''), t.message) AS detail,
              jsonb_build_object('type', 'check', 'id', c.id, 'name', c.name) AS resource
       FROM (
         SELECT s.check_id, s.time, s.status, s.error, s.message,
                lag(s.status) OVER (PARTITION BY s.check_id ORDER BY s.time) AS previous
         FROM check_statuses s
         WHERE s.check_id = ANY($1::uuid[]) AND s.time BETWEEN $2::timestamptz AND $3::timestamptz
       ) t JOIN checks c ON c.id = t.check_id
       WHERE t.previous IS DISTINCT FROM t.status
       ORDER BY t.time LIMIT ${PER_SOURCE}`,
      [w.checks, w.from, w.to],
    );
    return rows;
  }

  async function configChanges(w: Window): Promise<TimelineEntry[]> {
    if (w.configs.length === 0) return [];
    const { rows } = await pool.query<TimelineEntry>(
      `SELECT to_json(g.created_at)#>>'{}' AS at, 'config_change' AS kind,
              coalesce(ci.name, 'config') || ': ' || g.change_type AS title, g.summary AS detail,
              jsonb_build_object('type', 'config', 'id', g.config_id, 'name', ci.name) AS resource
       FROM config_changes g LEFT JOIN config_items ci ON ci.id = g.config_id
       WHERE g.config_id = ANY($1::uuid[]) AND g.created_at BETWEEN $2::timestamptz AND $3::timestamptz
       ORDER BY g.created_at LIMIT ${PER_SOURCE}`,
      [w.configs, w.from, w.to],
    );
    return rows;
  }

  async function notifications(w: Window): Promise<TimelineEntry[]> {
    if (w.resources.length === 0) return [];
    const { rows } = await pool.query<TimelineEntry>(
      `SELECT to_json(n.created_at)#>>'{}' AS at, 'notification' AS kind,
              'Notification ' || n.status || coalesce(' (' || n.source_event || ')', '') AS title,
              coalesce(n.title, n.error) AS detail,
              jsonb_build_object('type', coalesce(n.resource_type, 'resource'), 'id', n.resource_id, 'name', NULL) AS resource
       FROM notification_send_history n
       WHERE n.resource_id = ANY($1::uuid[]) AND n.created_at BETWEEN $2::timestamptz AND $3::timestamptz
       ORDER BY n.created_at LIMIT ${PER_SOURCE}`,
      [w.resources, w.from, w.to],
    );
    return rows;
  }

  async function timeline(id: string): Promise<TimelineEntry[] | undefined> {
    const w = await window(id);
    if (!w) return undefined;
    const sources = await Promise.all([changelog(w), checkTransitions(w), configChanges(w), notifications(w)]);
    return mergeTimeline(...sources);
  }

  async function report(id: string): Promise<string | undefined> {
    const entries = await timeline(id);
    if (!entries) return undefined;
    const incident = await pool.query<ReportIncident>(
      `SELECT i.incident_id, i.title, i.description, i.type, i.severity, i.status,
              to_json(i.created_at)#>>'{}' AS created_at, to_json(i.acknowledged)#>>'{}' AS acknowledged,
              to_json(i.resolved)#>>'{}' AS resolved, to_json(i.closed)#>>'{}' AS closed,
              c.name AS commander, p.name AS created_by
       FROM incidents i LEFT JOIN people c ON c.id = i.commander_id LEFT JOIN people p ON p.id = i.created_by
       WHERE i.id = $1`,
      [id],
    );
    const hypotheses = await pool.query<ReportHypothesis>(
      `SELECT h.id, h.parent_id, h.type, h.title, h.status,
              coalesce((SELECT json_agg(json_build_object('type', e.type, 'description', e.description,
                         'definition_of_done', e.definition_of_done, 'done', e.done) ORDER BY e.created_at)
                        FROM evidences e WHERE e.hypothesis_id = h.id), '[]') AS evidences,
              coalesce((SELECT json_agg(json_build_object('comment', m.comment, 'created_by', p.name,
                         'created_at', m.created_at) ORDER BY m.created_at)
                        FROM comments m LEFT JOIN people p ON p.id = m.created_by WHERE m.hypothesis_id = h.id), '[]') AS comments
       FROM hypotheses h WHERE h.incident_id = $1 ORDER BY h.created_at`,
      [id],
    );
    const responders = await pool.query<ReportResponder>(
      `SELECT coalesce(p.name, t.name, 'unknown') AS name, r.properties ->> 'responderType' AS "responderType",
              to_json(r.created_at)#>>'{}' AS created_at, to_json(r.acknowledge_time)#>>'{}' AS acknowledge_time,
              r.external_id
       FROM responders r LEFT JOIN people p ON p.id = r.person_id LEFT JOIN teams t ON t.id = r.team_id
       WHERE r.incident_id = $1 AND r.deleted_at IS NULL ORDER BY r.created_at`,
      [id],
    );
    const row = incident.rows[0];
    if (!row) return undefined;
    return incidentMarkdown(row, hypotheses.rows, responders.rows, entries);
  }

  return { timeline, report };
}

export type IncidentTimeline = ReturnType<typeof createIncidentTimeline>;
