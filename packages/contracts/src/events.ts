import { z } from 'zod';

/**
 * The event queue (docs/events.md, ADR 0016): the names of the events that go through it, its
 * defaults, the messages its enqueue API refuses bad input with, and the row of the
 * `event_queue_summary` view the Event Queue settings page lists (spec 3 sections 2.9 and 3).
 */

/**
 * Every event name the queue accepts: the events of spec 3 section 9 (what a notification
 * rule can name). Database triggers produce the `check.*` events now (migration
 * 13_event_queue.sql); the config, component and playbook triggers come with those domains.
 * A domain that adds an event of its own (incident events, `notification.send`) adds its
 * name here.
 */
export const EVENT_NAMES = [
  'check.failed',
  'check.passed',
  'component.healthy',
  'component.unhealthy',
  'component.unknown',
  'component.warning',
  // config.changed (a change that is not a scrape's diff) and config.degraded (unhealthy to
  // warning) are queued by 18_catalog.sql's triggers as in the original (backend-model 1.14).
  'config.changed',
  'config.created',
  'config.degraded',
  'config.deleted',
  'config.healthy',
  'config.unhealthy',
  'config.unknown',
  'config.updated',
  'config.warning',
  'playbook.approval.inserted',
  'playbook.spec.approval.updated',
  // One rendered message to one recipient, queued by the notifications consumer
  // (modules/notifications; docs/notifications.md) and sent by its async sender.
  'notification.send',
  // A responder added to an incident (23_incidents.sql), handed to the incidents module, which
  // emails a person or email responder and opens a ticket for a team's ticketing responder.
  'incident.responder.created',
  // A component whose incidents or insights changed (26_topology_changes.sql), rolled up by the
  // topology's sync consumer (docs/topology.md).
  'topology.rollup',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** True when `name` is one of {@link EVENT_NAMES}. */
export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

/** The channel the `event_queue` insert trigger notifies, with the event's name as payload. */
export const EVENT_QUEUE_CHANNEL = 'event_queue_updates';

/**
 * How the queue retries and keeps events, as the original runs it: a failed event waits
 * `backoffBaseMs × attempts^backoffExponent` (1 min, 32 min, about 4 h) and is tried at most
 * `1 + maxRetries` times; then it stays as a dead letter. Consumers poll every
 * `pollIntervalMs` when no notification wakes them. Events older than `retentionDays` are
 * deleted daily; `failed_events` shows the failures of the last `failedEventsDays` days.
 */
export const EVENT_QUEUE_DEFAULTS = {
  backoffBaseMs: 60_000,
  backoffExponent: 5,
  maxRetries: 3,
  pollIntervalMs: 60_000,
  retentionDays: 30,
  failedEventsDays: 7,
  /** The default priority of an event; higher is claimed first. */
  priority: 100,
} as const;

/** Limits of what the application may enqueue. */
export const EVENT_LIMITS = {
  /** Properties per event. */
  maxProperties: 100,
  /** Characters of a property's key. */
  maxPropertyKeyLength: 200,
  /** Characters of a property's value. */
  maxPropertyValueLength: 10_000,
  /** Characters of an error kept on a failed event (longer ones are cut). */
  maxErrorLength: 4_000,
  /** The longest delay an event may be enqueued with (30 days: the retention). */
  maxDelayMs: 30 * 24 * 3_600_000,
} as const;

/** Messages the enqueue API and the consumer registration refuse bad input with. */
export const EVENT_MESSAGES = {
  unknownName: (name: string) =>
    `Unknown event name '${name}'. Use one of: ${EVENT_NAMES.join(', ')} (a new event adds its name to EVENT_NAMES).`,
  badEventId: (eventId: string) =>
    `The event id '${eventId}' is not a UUID. Pass the id of the row the event is about, or null for no de-duplication.`,
  propertiesNotObject: 'Event properties must be an object of string values, such as {"status": "healthy"}.',
  nonStringProperty: (key: string, type: string) =>
    `Event property '${key}' is a ${type}; every property value must be a string (convert it with String(...) or JSON.stringify(...)).`,
  tooManyProperties: (count: number) =>
    `An event carries at most ${EVENT_LIMITS.maxProperties} properties; this one has ${count}.`,
  propertyKeyTooLong: (key: string) =>
    `Event property key '${key.slice(0, 40)}…' is longer than ${EVENT_LIMITS.maxPropertyKeyLength} characters.`,
  propertyValueTooLong: (key: string) =>
    `Event property '${key}' is longer than ${EVENT_LIMITS.maxPropertyValueLength} characters.`,
  badPriority: (priority: unknown) =>
    `An event's priority must be an integer between -1000000 and 1000000 (higher runs first); got ${String(priority)}.`,
  badDelay: (delayMs: unknown) =>
    `An event's delay must be a number of milliseconds between 0 and ${EVENT_LIMITS.maxDelayMs} (30 days); got ${String(delayMs)}.`,
} as const;

/**
 * One row of the `event_queue_summary` view, per event name (GET
 * /api/db/event_queue_summary?order=last_failure.desc):
 * - `pending`: events waiting for their first try;
 * - `failed`: events that failed at least once (waiting for a retry, or dead letters);
 * - `average_attempts`: the mean attempts of the failed ones (null when none failed);
 * - `first_failure`: when the oldest failed event was queued (its first try follows at once);
 * - `last_failure`: the latest failed try;
 * - `most_common_error`: the error most failed events carry.
 */
export const eventQueueSummaryRowSchema = z.object({
  name: z.string().max(255),
  pending: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  average_attempts: z.number().nonnegative().nullable(),
  first_failure: z.string().max(64).nullable(),
  last_failure: z.string().max(64).nullable(),
  most_common_error: z.string().max(EVENT_LIMITS.maxErrorLength).nullable(),
});
export type EventQueueSummaryRow = z.infer<typeof eventQueueSummaryRowSchema>;
