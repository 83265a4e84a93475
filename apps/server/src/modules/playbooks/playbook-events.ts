import {
  NIL_AGENT_ID,
  parameterProblems,
  parsePlaybookSpec,
  PLAYBOOK_DEFAULTS,
  type EventName,
} from '@lookout/contracts';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/transaction.js';
import type { QueuedEvent } from '../../events/events.js';
import { evaluatePlaybookCel } from './playbook-cel-fns.js';
import { matchLabelSelector } from './playbook-match-fns.js';
import { timeoutNanos } from './playbook-plan-fns.js';
import { insertRun } from './playbook-runs-repository.js';
import { withDefaults } from './playbook-service.js';
import { loadTarget } from './playbook-targets.js';

/** The resource events that can trigger playbooks (`on.canary`, `on.component`, `on.config`). */
export const PLAYBOOK_TRIGGER_EVENT_NAMES: readonly EventName[] = [
  'check.failed',
  'check.passed',
  'component.healthy',
  'component.unhealthy',
  'component.warning',
  'component.unknown',
  'config.healthy',
  'config.unhealthy',
  'config.warning',
  'config.unknown',
  'config.created',
  'config.updated',
  'config.deleted',
];

const KIND = { check: 'canary', component: 'component', config: 'config' } as const;

/**
 * Starts the runs a resource event triggers (the original's playbook.Handle): each live
 * playbook with an `on.<kind>` entry for the event, whose labels match the resource and whose
 * filter (CEL over the resource as `check` / `component` / `config`, and `event`) is true, gets
 * a scheduled run against it, in the event's transaction. A playbook whose parameter defaults
 * do not satisfy its rules is skipped with a warning.
 */
export async function triggerPlaybooks(tx: Queryable, event: QueuedEvent, logger: Logger): Promise<number> {
  const [kind, state] = event.name.split('.') as ['check' | 'component' | 'config', string];
  if (!event.eventId || !(kind in KIND)) return 0;
  const key = KIND[kind];
  const { rows } = await tx.query<{ id: string; name: string; spec: unknown }>(
    // An agent's playbooks run where the agent runs, on its own events (migration 36).
    `SELECT id, name, spec FROM playbooks
     WHERE deleted_at IS NULL AND agent_id = $2 AND jsonb_typeof(spec -> 'on' -> $1) = 'array'`,
    [key, NIL_AGENT_ID],
  );
  if (rows.length === 0) return 0;
  const target = await loadTarget(tx, kind, event.eventId);
  if (!target) return 0;
  let started = 0;
  for (const row of rows) {
    const parsed = parsePlaybookSpec(row.spec);
    if (!parsed.ok) continue;
    const triggers = (parsed.spec.on?.[key] ?? []) as Array<{
      event: string;
      labels?: Record<string, string>;
      filter?: string;
    }>;
    const fires = triggers.some((trigger) => {
      if (trigger.event !== state) return false;
      const labels = Object.entries(trigger.labels ?? {})
        .map(([name, value]) => `${name}=${value}`)
        .join(',');
      if (labels && !matchLabelSelector(labels, target.labels)) return false;
      if (!trigger.filter) return true;
      const outcome = evaluatePlaybookCel(trigger.filter, {
        [kind]: target.row,
        event: { name: event.name, properties: event.properties },
      });
      return outcome.ok && outcome.value === true;
    });
    if (!fires) continue;
    const params = withDefaults(parsed.spec.parameters ?? [], {}, target);
    const problems = parameterProblems(parsed.spec.parameters ?? [], params);
    if (problems.length > 0) {
      logger.warn(
        { playbook: row.name, problems },
        'Event-triggered playbook skipped: its parameter defaults are invalid',
      );
      continue;
    }
    await insertRun(tx, {
      playbookId: row.id,
      spec: parsed.spec,
      status: 'scheduled',
      parameters: params,
      [`${kind}Id`]: target.id,
      createdBy: null,
      timeoutNanos: timeoutNanos(parsed.spec.timeout, PLAYBOOK_DEFAULTS.runTimeout),
      request: { event: event.name, properties: event.properties },
    } as Parameters<typeof insertRun>[1]);
    started++;
  }
  return started;
}
