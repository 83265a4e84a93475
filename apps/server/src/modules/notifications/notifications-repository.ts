import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { NOTIFICATION_SEND_EVENT, type NotificationSendStatus } from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';
import type { RuleRow, SilenceRow, SilenceTarget } from './notification-match-fns.js';

/**
 * The notification tables (migration 20): rules, silences, send history and event traces.
 * The flow's writes take the consumer's transaction; the sender's outcome is written on the
 * pool at once (see notification-sender.ts for why).
 */

/** Blocked rows of the same rule, event, resource, recipient and status within this window add to `count`. */
const DEDUP_WINDOW = '24 hours';

export type CheckContext = {
  check: Record<string, unknown>;
  canary: Record<string, unknown> | null;
  checkStatus: Record<string, unknown> | null;
};

/** A component or catalog item as its events' variables show it, with what recursive silences need. */
export type ResourceContext = {
  resource: Record<string, unknown>;
  agent: Record<string, unknown> | null;
  /** Ids a recursive silence on one of them covers this resource by: its parents up the tree, and related items. */
  ancestors: string[];
};

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * The row (without the columns named in `omit`), its agent, and its ancestors: the parent_id
 * chain (bounded, cycle-safe) together with the ids of its dotted `path`, and for catalog
 * items also the items that name it in config_relationships.
 */
function resourceContextSql(table: 'components' | 'config_items', omit: string[]): string {
  const related =
    table === 'config_items'
      ? `UNION SELECT r.config_id FROM config_relationships r WHERE r.related_id = $1 AND r.deleted_at IS NULL`
      : '';
  return `WITH RECURSIVE up(id, parent_id, depth) AS (
            SELECT id, parent_id, 0 FROM ${table} WHERE id = $1
            UNION
            SELECT t.id, t.parent_id, up.depth + 1 FROM ${table} t JOIN up ON t.id = up.parent_id WHERE up.depth < 50
          ), ancestors(id) AS (
            SELECT id FROM up WHERE id <> $1
            UNION
            SELECT part::uuid FROM ${table} t, unnest(string_to_array(t.path, '.')) AS part
             WHERE t.id = $1 AND part ~ '${UUID_PATTERN}' AND part::uuid <> $1
            ${related}
          )
          SELECT to_jsonb(t) ${omit.map((column) => `- '${column}'`).join(' ')} AS resource,
                 (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM agents a WHERE a.id = t.agent_id) AS agent,
                 ARRAY(SELECT id FROM ancestors)::text[] AS ancestors
            FROM ${table} t WHERE t.id = $1`;
}

export type HistoryInput = {
  notificationId: string;
  status: NotificationSendStatus;
  sourceEvent: string;
  resourceId: string;
  resourceType: string;
  resourceHealth: string | null;
  resourceStatus: string | null;
  recipient: string;
  personId: string | null;
  teamId: string | null;
  payload: Record<string, unknown>;
  title: string;
  body: string;
  silencedBy: string | null;
  parentId: string | null;
  traceId: string;
  error: string | null;
};

export type SendableRow = {
  id: string;
  status: NotificationSendStatus;
  title: string | null;
  body: string;
  payload: Record<string, unknown> | null;
  retries: number;
  notification_id: string;
  person_id: string | null;
  team_id: string | null;
  custom_services: unknown[] | null;
  properties: Record<string, unknown> | null;
};

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;

export function createNotificationsRepository(pool: pg.Pool) {
  return {
    pool,

    async liveRules(q: Queryable): Promise<RuleRow[]> {
      const { rows } = await q.query<RuleRow>(
        `SELECT id, title, events, filter, template, properties, person_id, team_id, custom_services,
                repeat_interval, error, error_at
           FROM notifications WHERE deleted_at IS NULL ORDER BY created_at, id`,
      );
      return rows;
    },

    /** The check, its canary and its latest result, as the CEL variables show them. */
    async checkContext(q: Queryable, checkId: string): Promise<CheckContext | undefined> {
      const { rows } = await q.query<{
        check: Record<string, unknown>;
        canary: Record<string, unknown> | null;
        status: Record<string, unknown> | null;
      }>(
        `SELECT to_jsonb(c) - 'spec' - 'lease_owner' - 'lease_until' AS check,
                (SELECT jsonb_build_object('id', k.id, 'name', k.name, 'namespace', k.namespace, 'labels', k.labels)
                   FROM canaries k WHERE k.id = c.canary_id) AS canary,
                (SELECT jsonb_build_object('status', s.status, 'message', s.message, 'error', s.error,
                                           'duration', s.duration, 'time', s.time)
                   FROM check_statuses s WHERE s.check_id = c.id ORDER BY s.time DESC LIMIT 1) AS status
           FROM checks c WHERE c.id = $1`,
        [checkId],
      );
      const row = rows[0];
      return row ? { check: row.check, canary: row.canary, checkStatus: row.status } : undefined;
    },

    /** A component as component.* events show it (undefined when it is gone). */
    async componentContext(q: Queryable, componentId: string): Promise<ResourceContext | undefined> {
      const { rows } = await q.query<ResourceContext>(
        resourceContextSql('components', ['selectors', 'log_selectors', 'component_checks', 'configs']),
        [componentId],
      );
      return rows[0];
    },

    /** A catalog item as config.* events show it, soft-deleted ones included (config.deleted). */
    async configContext(q: Queryable, configId: string): Promise<ResourceContext | undefined> {
      const { rows } = await q.query<ResourceContext>(resourceContextSql('config_items', []), [configId]);
      return rows[0];
    },

    /** Active silences that may cover the target: named ids, or a filter (decided by the caller). */
    async activeSilences(q: Queryable, target: SilenceTarget): Promise<SilenceRow[]> {
      const { rows } = await q.query<SilenceRow>(
        `SELECT id, filter, recursive, config_id, check_id, canary_id, component_id
           FROM notification_silences
          WHERE deleted_at IS NULL AND error IS NULL
            AND ("from" IS NULL OR "from" <= now()) AND (until IS NULL OR until > now())
            AND (check_id = $1 OR canary_id = $2 OR component_id = ANY($3::uuid[]) OR config_id = ANY($3::uuid[])
                 OR filter IS NOT NULL)
          ORDER BY created_at, id`,
        [
          target.check_id ?? null,
          target.canary_id ?? null,
          [target.component_id, target.config_id, ...target.ancestors].filter((id): id is string => Boolean(id)),
        ],
      );
      return rows;
    },

    async teamSpec(q: Queryable, teamId: string): Promise<unknown> {
      const { rows } = await q.query<{ spec: unknown }>('SELECT spec FROM teams WHERE id = $1', [teamId]);
      return rows[0]?.spec ?? null;
    },

    /** The latest row sent (or about to be) of the rule, event, resource and recipient within the interval. */
    async recentSent(
      q: Queryable,
      input: Pick<HistoryInput, 'notificationId' | 'resourceId' | 'sourceEvent' | 'recipient'>,
      withinMs: number,
    ): Promise<string | null> {
      const { rows } = await q.query<{ id: string }>(
        `SELECT id FROM notification_send_history
          WHERE notification_id = $1 AND resource_id = $2 AND source_event = $3 AND recipient = $4
            AND status IN ('sent', 'pending') AND created_at > now() - make_interval(secs => $5::double precision / 1000)
          ORDER BY created_at DESC LIMIT 1`,
        [input.notificationId, input.resourceId, input.sourceEvent, input.recipient, withinMs],
      );
      return rows[0]?.id ?? null;
    },

    /**
     * A held-back message (silenced, repeat-interval): the same rule, event, resource, recipient
     * and status within a day only counts once more on the row it already has.
     */
    async recordBlocked(q: Queryable, input: HistoryInput): Promise<string> {
      const { rows } = await q.query<{ id: string }>(
        `UPDATE notification_send_history SET count = count + 1, silenced_by = $6, parent_id = $7, trace_id = $8
          WHERE id = (SELECT id FROM notification_send_history
                       WHERE notification_id = $1 AND resource_id = $2 AND source_event = $3 AND recipient = $4
                         AND status = $5 AND created_at > now() - interval '${DEDUP_WINDOW}'
                       ORDER BY created_at DESC LIMIT 1)
          RETURNING id`,
        [
          input.notificationId,
          input.resourceId,
          input.sourceEvent,
          input.recipient,
          input.status,
          input.silencedBy,
          input.parentId,
          input.traceId,
        ],
      );
      return rows[0]?.id ?? this.insert(q, input);
    },

    async insert(q: Queryable, input: HistoryInput): Promise<string> {
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO notification_send_history
           (notification_id, status, source_event, resource_id, resource_type, resource_health, resource_status,
            recipient, person_id, team_id, payload, title, body, silenced_by, parent_id, trace_id, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         RETURNING id`,
        [
          input.notificationId,
          input.status,
          input.sourceEvent,
          input.resourceId,
          input.resourceType,
          input.resourceHealth,
          input.resourceStatus,
          input.recipient,
          input.personId,
          input.teamId,
          input.payload,
          input.title,
          input.body,
          input.silencedBy,
          input.parentId,
          input.traceId,
          input.error,
        ],
      );
      return rows[0]!.id;
    },

    /**
     * Pending rows in one statement, then their `notification.send` events in one more (the
     * queue's own upsert, which wakes the sender when the transaction commits).
     */
    async insertPending(q: Queryable, inputs: HistoryInput[]): Promise<string[]> {
      if (inputs.length === 0) return [];
      const ids = inputs.map(() => randomUUID());
      const rows = inputs.map((input, index) => ({
        id: ids[index],
        notification_id: input.notificationId,
        source_event: input.sourceEvent,
        resource_id: input.resourceId,
        resource_type: input.resourceType,
        resource_health: input.resourceHealth,
        resource_status: input.resourceStatus,
        recipient: input.recipient,
        person_id: input.personId,
        team_id: input.teamId,
        payload: input.payload,
        title: input.title,
        body: input.body,
        trace_id: input.traceId,
        error: input.error,
      }));
      await q.query(
        `INSERT INTO notification_send_history
           (id, notification_id, status, source_event, resource_id, resource_type, resource_health, resource_status,
            recipient, person_id, team_id, payload, title, body, trace_id, error)
         SELECT id, notification_id, 'pending', source_event, resource_id, resource_type, resource_health, resource_status,
                recipient, person_id, team_id, payload, title, body, trace_id, error
           FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, notification_id uuid, source_event text, resource_id uuid,
                resource_type text, resource_health text, resource_status text, recipient text, person_id uuid,
                team_id uuid, payload jsonb, title text, body text, trace_id uuid, error text)`,
        [JSON.stringify(rows)],
      );
      await q.query(`SELECT lookout_enqueue_event($2, id) FROM unnest($1::uuid[]) AS id`, [
        ids,
        NOTIFICATION_SEND_EVENT,
      ]);
      return ids;
    },

    async setRuleError(q: Queryable, ruleId: string, error: string): Promise<void> {
      await q.query('UPDATE notifications SET error = $2, error_at = now() WHERE id = $1', [ruleId, error]);
    },

    async setSilenceError(q: Queryable, silenceId: string, error: string): Promise<void> {
      await q.query('UPDATE notification_silences SET error = $2 WHERE id = $1', [silenceId, error]);
    },

    async insertTrace(
      q: Queryable,
      trace: { eventName: string; resourceId: string; resourceType: string; eventTime: Date },
    ): Promise<string> {
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO notification_event_traces (event_name, resource_id, resource_type, event_time)
         VALUES ($1, $2, $3, $4) RETURNING id`,
        [trace.eventName, trace.resourceId, trace.resourceType, trace.eventTime],
      );
      return rows[0]!.id;
    },

    async setTraceRules(q: Queryable, traceId: string, rules: unknown[]): Promise<void> {
      await q.query('UPDATE notification_event_traces SET rules = $2 WHERE id = $1', [traceId, JSON.stringify(rules)]);
    },

    /** The history rows the sender may deliver (one query for a claimed batch), with what it needs of their rules. */
    async sendable(historyIds: string[]): Promise<Map<string, SendableRow>> {
      const { rows } = await pool.query<SendableRow>(
        `SELECT h.id, h.status, h.title, h.body, h.payload, h.retries, h.notification_id, h.person_id, h.team_id,
                n.custom_services, n.properties
           FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id
          WHERE h.id = ANY($1::uuid[])`,
        [historyIds],
      );
      return new Map(rows.map((row) => [row.id, row]));
    },

    async personEmail(personId: string): Promise<string | null> {
      const { rows } = await pool.query<{ email: string | null }>('SELECT email FROM people WHERE id = $1', [personId]);
      return rows[0]?.email ?? null;
    },

    async teamMemberEmails(teamId: string): Promise<string[]> {
      const { rows } = await pool.query<{ email: string }>(
        `SELECT p.email FROM team_members m JOIN people p ON p.id = m.person_id
          WHERE m.team_id = $1 AND p.deleted_at IS NULL AND p.email IS NOT NULL ORDER BY p.email`,
        [teamId],
      );
      return rows.map((row) => row.email);
    },

    teamSpecNow(teamId: string): Promise<unknown> {
      return this.teamSpec(pool, teamId);
    },

    /** Written at once (autocommit): a redelivered send then sees it and is not sent twice. */
    async markSent(historyId: string, durationMs: number): Promise<void> {
      await pool.query(
        `UPDATE notification_send_history SET status = 'sent', error = NULL, duration_millis = $2 WHERE id = $1`,
        [historyId, Math.round(durationMs)],
      );
    },

    async markFailed(historyId: string, error: string, durationMs: number): Promise<void> {
      await pool.query(
        `UPDATE notification_send_history SET status = 'error', error = $2, duration_millis = $3, retries = retries + 1
          WHERE id = $1 AND status <> 'sent'`,
        [historyId, error.slice(0, 4000), Math.round(durationMs)],
      );
    },

    async markCancelled(historyId: string, reason: string): Promise<void> {
      await pool.query(
        `UPDATE notification_send_history SET status = 'cancelled', error = $2 WHERE id = $1 AND status <> 'sent'`,
        [historyId, reason],
      );
    },

    /** Send history and traces older than the retention (the daily cleanup). */
    async deleteOlderThan(days: number): Promise<number> {
      const history = await pool.query(
        `DELETE FROM notification_send_history WHERE created_at < now() - make_interval(days => $1)`,
        [days],
      );
      const traces = await pool.query(
        `DELETE FROM notification_event_traces WHERE created_at < now() - make_interval(days => $1)`,
        [days],
      );
      return (history.rowCount ?? 0) + (traces.rowCount ?? 0);
    },
  };
}
