import type { Queryable } from '../../db/transaction.js';
import type { QueuedEvent } from '../../events/events.js';
import type { EventSubject } from './notification-subjects.js';

/**
 * What a playbook approval event is about (spec 3 section 9; docs/notifications.md). The
 * original queues both events but renders no message for them; Lookout's scope follows its
 * naming: `playbook`, `run`, `approval` (`approver`, the
 * name of who approved, and their `person`/`team`), `permalink` to the
 * run (or the playbook's runs), `source_event` and `event_time`. Neither has a resource kind a silence
 * can name, so no silence applies (target null); the repeat interval counts per run
 * (playbook.approval.inserted) or per playbook (playbook.spec.approval.updated).
 */

type ApprovalRow = {
  approval: Record<string, unknown>;
  run: Record<string, unknown>;
  playbook: Record<string, unknown>;
};

const PLAYBOOK_FIELDS = `jsonb_build_object('id', b.id, 'name', b.name, 'namespace', b.namespace, 'title', b.title,
  'icon', b.icon, 'category', b.category, 'description', b.description)`;

/** playbook.approval.inserted: the approval (event id), its run and the run's playbook. */
async function approvalSubject(q: Queryable, event: QueuedEvent, publicUrl: string): Promise<EventSubject | undefined> {
  if (!event.eventId) return undefined;
  const { rows } = await q.query<ApprovalRow>(
    `SELECT jsonb_build_object('id', a.id, 'created_at', a.created_at, 'approver', coalesce(p.name, t.name),
              'person', CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email) END,
              'team', CASE WHEN t.id IS NULL THEN NULL ELSE jsonb_build_object('id', t.id, 'name', t.name) END) AS approval,
            jsonb_build_object('id', r.id, 'status', r.status, 'playbook_id', r.playbook_id, 'created_at', r.created_at,
              'scheduled_time', r.scheduled_time, 'created_by', r.created_by) AS run,
            ${PLAYBOOK_FIELDS} AS playbook
       FROM playbook_approvals a
       JOIN playbook_runs r ON r.id = a.run_id
       JOIN playbooks b ON b.id = r.playbook_id
       LEFT JOIN people p ON p.id = a.person_id
       LEFT JOIN teams t ON t.id = a.team_id
      WHERE a.id = $1`,
    [event.eventId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const runId = String(row.run.id);
  return {
    resourceId: runId,
    resourceType: 'playbook_run',
    health: null,
    status: typeof row.run.status === 'string' ? row.run.status : null,
    target: null,
    variables: {
      playbook: row.playbook,
      run: row.run,
      approval: row.approval,
      source_event: event.name,
      event_time: event.createdAt.toISOString(),
      permalink: `${publicUrl}/playbooks/runs/${runId}`,
    },
  };
}

/** playbook.spec.approval.updated: the playbook (event id) whose approval settings changed. */
async function specApprovalSubject(
  q: Queryable,
  event: QueuedEvent,
  publicUrl: string,
): Promise<EventSubject | undefined> {
  if (!event.eventId) return undefined;
  const { rows } = await q.query<{ playbook: Record<string, unknown>; approval: unknown }>(
    `SELECT ${PLAYBOOK_FIELDS} AS playbook, b.spec -> 'approval' AS approval FROM playbooks b WHERE b.id = $1`,
    [event.eventId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    resourceId: event.eventId,
    resourceType: 'playbook',
    health: null,
    status: null,
    target: null,
    variables: {
      playbook: row.playbook,
      approval: row.approval ?? {},
      source_event: event.name,
      event_time: event.createdAt.toISOString(),
      permalink: `${publicUrl}/playbooks/runs?playbook=${event.eventId}`,
    },
  };
}

/** The subject of a playbook.* event; undefined for another event or a row that is gone. */
export function playbookSubject(
  q: Queryable,
  event: QueuedEvent,
  publicUrl: string,
): Promise<EventSubject | undefined> {
  if (event.name === 'playbook.approval.inserted') return approvalSubject(q, event, publicUrl);
  if (event.name === 'playbook.spec.approval.updated') return specApprovalSubject(q, event, publicUrl);
  return Promise.resolve(undefined);
}
