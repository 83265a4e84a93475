import { EVENT_MESSAGES, isEventName, type EventName } from '@lookout/contracts';
import type { Queryable } from '../db/transaction.js';
import type { QueuedEvent } from './events-repository.js';

/**
 * What a module registers to handle events (`events.consume(...)`, docs/events.md), and the
 * registry that turns registrations into lanes: one lane per event name of the sync handlers
 * (every sync handler of a name runs in the one transaction that claims the event), and one
 * per event name of each async consumer.
 */

export type EventHandlerContext = {
  /**
   * The transaction the events were claimed in: what the handler writes with it commits
   * together with their removal from the queue, or not at all.
   */
  tx: Queryable;
  /** Aborted when the queue stops and the stop grace has passed: cut long I/O short. */
  signal: AbortSignal;
};

/** An event an async handler could not handle, and why (an Error or a message). */
export type FailedEvent = { event: QueuedEvent; error: unknown };

/**
 * Sync: one event per transaction, for handlers that only write to the database. A handler
 * that throws rolls its writes back; the event comes back with the error, one attempt more.
 * Every sync handler of an event name runs, in registration order, for each event.
 */
export type SyncEventConsumer = {
  mode: 'sync';
  /** Names the consumer in logs and metrics; unique. */
  name: string;
  events: readonly EventName[];
  handle: (event: QueuedEvent, context: EventHandlerContext) => Promise<void>;
  /** Events of each name handled at once in this process (default 1). */
  concurrency?: number;
};

/**
 * Async: a batch per transaction, for handlers that call other systems. The handler returns
 * the events it could not handle (throwing fails the whole batch); they come back with their
 * error, one attempt more and one priority lower. An event name has one async consumer and
 * then no sync handlers.
 */
export type AsyncEventConsumer = {
  mode: 'async';
  name: string;
  events: readonly EventName[];
  handle: (events: QueuedEvent[], context: EventHandlerContext) => Promise<readonly FailedEvent[] | void>;
  /** Most events per claim (default 1). */
  batchSize?: number;
  /** Batches of each name handled at once in this process (default 1). */
  concurrency?: number;
};

export type EventConsumer = SyncEventConsumer | AsyncEventConsumer;

/** One claim loop group: the events of one name and who handles them. */
export type EventLane =
  | { key: string; eventName: EventName; mode: 'sync'; concurrency: number; handlers: SyncEventConsumer[] }
  | { key: string; eventName: EventName; mode: 'async'; concurrency: number; consumer: AsyncEventConsumer };

const MAX_CONCURRENCY = 100;
const MAX_BATCH_SIZE = 1_000;

function boundedInteger(value: number | undefined, max: number, what: string, consumer: string): number {
  const n = value ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new Error(`Event consumer '${consumer}': ${what} must be an integer from 1 to ${max}, got ${String(value)}`);
  }
  return n;
}

export function createConsumerRegistry() {
  const lanes = new Map<string, EventLane>();
  const consumerNames = new Set<string>();
  const syncLaneKey = (eventName: string) => `sync:${eventName}`;
  const asyncOwner = new Map<string, string>();

  /**
   * Checks a registration and adds it; returns the lanes it created or widened. A mistake
   * (unknown event name, a name already consumed the other way, a bad number) throws at
   * start-up, where the module registers.
   */
  function add(consumer: EventConsumer): EventLane[] {
    const label = consumer.name.trim();
    if (label === '' || label.length > 100) throw new Error('An event consumer needs a name of 1 to 100 characters');
    if (consumerNames.has(label)) throw new Error(`An event consumer named '${label}' is already registered`);
    if (consumer.events.length === 0) throw new Error(`Event consumer '${label}' names no events`);
    for (const eventName of consumer.events) {
      if (!isEventName(eventName)) throw new Error(EVENT_MESSAGES.unknownName(eventName));
      const owner = asyncOwner.get(eventName);
      if (owner) {
        throw new Error(
          `Event consumer '${label}' cannot consume '${eventName}': the async consumer '${owner}' does. An event name has sync handlers or one async consumer.`,
        );
      }
      if (consumer.mode === 'async' && lanes.has(syncLaneKey(eventName))) {
        throw new Error(
          `Async event consumer '${label}' cannot consume '${eventName}': it has sync handlers. An event name has sync handlers or one async consumer.`,
        );
      }
    }
    if (new Set(consumer.events).size !== consumer.events.length) {
      throw new Error(`Event consumer '${label}' names an event twice`);
    }
    const concurrency = boundedInteger(consumer.concurrency, MAX_CONCURRENCY, 'concurrency', label);
    if (consumer.mode === 'async') boundedInteger(consumer.batchSize, MAX_BATCH_SIZE, 'batchSize', label);
    consumerNames.add(label);

    const changed: EventLane[] = [];
    for (const eventName of consumer.events) {
      if (consumer.mode === 'async') {
        asyncOwner.set(eventName, label);
        const lane: EventLane = { key: `async:${label}:${eventName}`, eventName, mode: 'async', concurrency, consumer };
        lanes.set(lane.key, lane);
        changed.push(lane);
        continue;
      }
      const existing = lanes.get(syncLaneKey(eventName));
      if (existing?.mode === 'sync') {
        existing.handlers.push(consumer);
        existing.concurrency = Math.max(existing.concurrency, concurrency);
        changed.push(existing);
      } else {
        const lane: EventLane = {
          key: syncLaneKey(eventName),
          eventName,
          mode: 'sync',
          concurrency,
          handlers: [consumer],
        };
        lanes.set(lane.key, lane);
        changed.push(lane);
      }
    }
    return changed;
  }

  return { add, lanes: () => [...lanes.values()] };
}
