import { EVENT_LIMITS, EVENT_MESSAGES, EVENT_QUEUE_DEFAULTS, isEventName, type EventName } from '@lookout/contracts';
import { AppError } from '../http/app-error.js';

/** Pure rules of the event queue: what may be enqueued, its settings, the error kept on a failure. */

/** How the queue retries, polls and keeps events (EVENT_QUEUE_DEFAULTS; tests shorten them). */
export type EventQueueSettings = {
  /** A failed event waits backoffBaseMs × attempts^backoffExponent before its next try. */
  backoffBaseMs: number;
  backoffExponent: number;
  /** Tries after the first; an event that failed 1 + maxRetries times stays as a dead letter. */
  maxRetries: number;
  /** Longest a consumer sleeps without a notification. */
  pollIntervalMs: number;
  /** The daily cleanup deletes events queued longer ago than this. */
  retentionDays: number;
  /** On stop, how long handlers under way may run before their signal is aborted. */
  stopGraceMs: number;
};

/** The code of the 400 an invalid event is refused with. */
export const INVALID_EVENT = 'invalid_event';

const invalid = (message: string) => new AppError(400, INVALID_EVENT, message);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PRIORITY_LIMIT = 1_000_000;

/** An event as the application asks to queue it, checked. */
export type EventInput = {
  name: EventName;
  eventId: string | null;
  properties: Record<string, string>;
  priority: number;
  delayMs: number | null;
};

/** The type of a JSON-ish value as a message names it. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Checks an event the application enqueues: a known name, a UUID or null as its id, a map of
 * strings as its properties, an integer priority and a delay within the retention. Throws a
 * 400 AppError naming what is wrong and how to fix it.
 */
export function checkEventInput(
  name: string,
  eventId: string | null,
  properties: unknown,
  options: { priority?: number; delayMs?: number } = {},
): EventInput {
  if (!isEventName(name)) throw invalid(EVENT_MESSAGES.unknownName(name));
  if (eventId !== null && (typeof eventId !== 'string' || !UUID.test(eventId))) {
    throw invalid(EVENT_MESSAGES.badEventId(String(eventId)));
  }
  const props = properties ?? {};
  if (typeof props !== 'object' || Array.isArray(props)) throw invalid(EVENT_MESSAGES.propertiesNotObject);
  const entries = Object.entries(props);
  if (entries.length > EVENT_LIMITS.maxProperties) throw invalid(EVENT_MESSAGES.tooManyProperties(entries.length));
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw invalid(EVENT_MESSAGES.nonStringProperty(key, typeName(value)));
    if (key.length > EVENT_LIMITS.maxPropertyKeyLength) throw invalid(EVENT_MESSAGES.propertyKeyTooLong(key));
    if (value.length > EVENT_LIMITS.maxPropertyValueLength) throw invalid(EVENT_MESSAGES.propertyValueTooLong(key));
  }
  const priority = options.priority ?? EVENT_QUEUE_DEFAULTS.priority;
  if (!Number.isInteger(priority) || Math.abs(priority) > PRIORITY_LIMIT) {
    throw invalid(EVENT_MESSAGES.badPriority(priority));
  }
  const delayMs = options.delayMs ?? null;
  if (delayMs !== null && !(Number.isFinite(delayMs) && delayMs >= 0 && delayMs <= EVENT_LIMITS.maxDelayMs)) {
    throw invalid(EVENT_MESSAGES.badDelay(delayMs));
  }
  return {
    name,
    eventId: eventId === null ? null : eventId.toLowerCase(),
    properties: Object.fromEntries(entries) as Record<string, string>,
    priority,
    delayMs: delayMs === 0 ? null : delayMs,
  };
}

/** The queue's settings: the defaults with `overrides` on top, each checked. */
export function resolveEventQueueSettings(overrides: Partial<EventQueueSettings> = {}): EventQueueSettings {
  const settings: EventQueueSettings = {
    backoffBaseMs: EVENT_QUEUE_DEFAULTS.backoffBaseMs,
    backoffExponent: EVENT_QUEUE_DEFAULTS.backoffExponent,
    maxRetries: EVENT_QUEUE_DEFAULTS.maxRetries,
    pollIntervalMs: EVENT_QUEUE_DEFAULTS.pollIntervalMs,
    retentionDays: EVENT_QUEUE_DEFAULTS.retentionDays,
    stopGraceMs: 10_000,
    ...overrides,
  };
  for (const [key, value] of Object.entries(settings)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new Error(`Event queue setting ${key} must be a number of 0 or more, got ${String(value)}`);
    }
  }
  if (!Number.isInteger(settings.maxRetries)) {
    throw new Error(`Event queue setting maxRetries must be an integer, got ${settings.maxRetries}`);
  }
  if (settings.pollIntervalMs < 1) throw new Error('Event queue setting pollIntervalMs must be at least 1 ms');
  return settings;
}

/** How long a failed event waits before try `attempts + 1` (attempts: the failures so far). */
export function backoffMs(attempts: number, settings: Pick<EventQueueSettings, 'backoffBaseMs' | 'backoffExponent'>) {
  return settings.backoffBaseMs * attempts ** settings.backoffExponent;
}

/** What a failed try keeps as its error: the message (or the thrown value), at most maxErrorLength. */
export function errorText(error: unknown): string {
  const text =
    error instanceof Error
      ? error.message || error.name
      : typeof error === 'string'
        ? error
        : (JSON.stringify(error) ?? String(error));
  const message = text.trim() === '' ? 'The handler failed without a message.' : text;
  return message.length > EVENT_LIMITS.maxErrorLength
    ? `${message.slice(0, EVENT_LIMITS.maxErrorLength - 1)}…`
    : message;
}
