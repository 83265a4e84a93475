import type { Queryable } from '../../db/transaction.js';
import type { QueuedEvent } from '../../events/events.js';
import type { SilenceTarget } from './notification-match-fns.js';
import { playbookSubject } from './notification-playbook-subjects.js';
import type { NotificationsRepository, ResourceContext } from './notifications-repository.js';

/**
 * What an event is about (backend-model 2.9): the check, component or catalog item an event
 * names, read in the deciding transaction, as the variables rules' filters and templates see
 * (the original's template scope: `check`/`canary`/`check_status`, `component`, `config`,
 * `agent`, the resource's `name`/`status`/`health`/`labels`/`tags`, `new_state` for a catalog
 * item created, updated or deleted, `permalink` and `silenceURL`), and the ids a silence can
 * cover it by.
 */

/** The event's resource and the variables its rules' filters and templates see. */
export type EventSubject = {
  resourceId: string;
  resourceType: 'check' | 'canary' | 'component' | 'config' | 'playbook' | 'playbook_run';
  health: string | null;
  status: string | null;
  /** What a silence can cover it by; null when no silence applies (playbook events). */
  target: SilenceTarget | null;
  variables: Record<string, unknown>;
};

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A CEL identifier that no variable of the scope already uses (tags are added as variables too). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for']);

async function checkSubject(
  q: Queryable,
  repository: NotificationsRepository,
  event: QueuedEvent,
  publicUrl: string,
): Promise<EventSubject | undefined> {
  if (!event.eventId) return undefined;
  const context = await repository.checkContext(q, event.eventId);
  if (!context) return undefined;
  const checkId = event.eventId;
  const canaryId = text(context.check.canary_id) ?? undefined;
  const eventTime = event.properties.last_runtime ?? event.createdAt.toISOString();
  return {
    resourceId: checkId,
    resourceType: 'check',
    health: event.name === 'check.failed' ? 'unhealthy' : 'healthy',
    status: text(context.check.status),
    target: { check_id: checkId, ...(canaryId ? { canary_id: canaryId } : {}), ancestors: [] },
    variables: {
      check: context.check,
      canary: context.canary ?? {},
      check_status: context.checkStatus ?? {},
      source_event: event.name,
      event_time: eventTime,
      permalink: `${publicUrl}/health?checkId=${checkId}`,
      silenceURL: `${publicUrl}/notifications/silences/add?check_id=${checkId}`,
    },
  };
}

/** The resource's common fields as top-level variables, and its tags beside them. */
function aliases(row: Record<string, unknown>, taken: Record<string, unknown>): Record<string, unknown> {
  const tags = row.tags && typeof row.tags === 'object' ? (row.tags as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {
    name: text(row.name) ?? '',
    status: text(row.status) ?? '',
    health: text(row.health) ?? '',
    labels: row.labels && typeof row.labels === 'object' ? row.labels : {},
    tags,
  };
  for (const [key, value] of Object.entries(tags)) {
    if (!IDENTIFIER.test(key) || CEL_RESERVED.has(key) || key in out || key in taken) continue;
    out[key] = value;
  }
  return out;
}

/** component.<health>: the component (roll-up health) and its agent; recursive silences of its ancestors. */
async function componentSubject(
  q: Queryable,
  repository: NotificationsRepository,
  event: QueuedEvent,
  publicUrl: string,
): Promise<EventSubject | undefined> {
  if (!event.eventId) return undefined;
  const context = await repository.componentContext(q, event.eventId);
  if (!context) return undefined;
  const id = event.eventId;
  const base = {
    component: context.resource,
    agent: context.agent ?? {},
    source_event: event.name,
    event_time: event.createdAt.toISOString(),
    permalink: `${publicUrl}/topology/${id}`,
    silenceURL: `${publicUrl}/notifications/silences/add?component_id=${id}`,
  };
  return resourceSubject(id, 'component', context, { ...base, ...aliases(context.resource, base) });
}

/** What a catalog event says happened to the item (the original's `new_state`). */
const NEW_STATE: Partial<Record<string, string>> = {
  'config.created': 'created',
  'config.updated': 'updated',
  'config.deleted': 'deleted',
};

/**
 * config.*: the catalog item. config.updated names the change (config_changes row), whose
 * `config_id` property is the item; the other events name the item itself.
 */
async function configSubject(
  q: Queryable,
  repository: NotificationsRepository,
  event: QueuedEvent,
  publicUrl: string,
): Promise<EventSubject | undefined> {
  const id = event.name === 'config.updated' ? event.properties.config_id : event.eventId;
  if (!id) return undefined;
  const context = await repository.configContext(q, id);
  if (!context) return undefined;
  const newState = NEW_STATE[event.name];
  const base = {
    config: context.resource,
    agent: context.agent ?? {},
    source_event: event.name,
    event_time: event.createdAt.toISOString(),
    ...(newState ? { new_state: newState } : {}),
    permalink: `${publicUrl}/catalog/${id}`,
    silenceURL: `${publicUrl}/notifications/silences/add?config_id=${id}`,
  };
  return resourceSubject(id, 'config', context, { ...base, ...aliases(context.resource, base) });
}

function resourceSubject(
  id: string,
  kind: 'component' | 'config',
  context: ResourceContext,
  variables: Record<string, unknown>,
): EventSubject {
  return {
    resourceId: id,
    resourceType: kind,
    health: text(context.resource.health),
    status: text(context.resource.status),
    target: { [kind === 'component' ? 'component_id' : 'config_id']: id, ancestors: context.ancestors },
    variables,
  };
}

/** Reads the resource an event is about; undefined when it no longer exists. */
export function subjectOf(
  q: Queryable,
  repository: NotificationsRepository,
  event: QueuedEvent,
  publicUrl: string,
): Promise<EventSubject | undefined> {
  if (event.name.startsWith('check.')) return checkSubject(q, repository, event, publicUrl);
  if (event.name.startsWith('component.')) return componentSubject(q, repository, event, publicUrl);
  if (event.name.startsWith('config.')) return configSubject(q, repository, event, publicUrl);
  if (event.name.startsWith('playbook.')) return playbookSubject(q, event, publicUrl);
  return Promise.resolve(undefined);
}
