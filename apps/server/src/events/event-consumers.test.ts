import type { EventName } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { createConsumerRegistry, type AsyncEventConsumer, type SyncEventConsumer } from './event-consumers.js';

const sync = (name: string, events: EventName[], concurrency?: number): SyncEventConsumer => ({
  mode: 'sync',
  name,
  events,
  handle: async () => undefined,
  ...(concurrency === undefined ? {} : { concurrency }),
});
const async = (name: string, events: EventName[], extra: Partial<AsyncEventConsumer> = {}): AsyncEventConsumer => ({
  mode: 'async',
  name,
  events,
  handle: async () => [],
  ...extra,
});

describe('the consumer registry', () => {
  it('gives each event name of the sync handlers one lane that runs them all, at the widest concurrency', () => {
    const registry = createConsumerRegistry();
    const notifications = sync('Notifications', ['check.failed', 'check.passed']);
    const playbooks = sync('Playbooks', ['check.failed'], 3);
    registry.add(notifications);
    registry.add(playbooks);
    expect(registry.lanes()).toEqual([
      {
        key: 'sync:check.failed',
        eventName: 'check.failed',
        mode: 'sync',
        concurrency: 3,
        handlers: [notifications, playbooks],
      },
      { key: 'sync:check.passed', eventName: 'check.passed', mode: 'sync', concurrency: 1, handlers: [notifications] },
    ]);
  });

  it('gives an async consumer a lane per event name', () => {
    const registry = createConsumerRegistry();
    const sender = async('Sender', ['config.created', 'config.deleted'], { batchSize: 1, concurrency: 5 });
    expect(registry.add(sender).map((lane) => [lane.key, lane.concurrency])).toEqual([
      ['async:Sender:config.created', 5],
      ['async:Sender:config.deleted', 5],
    ]);
  });

  it('refuses an unknown event name, a duplicate consumer name and an event named twice', () => {
    const registry = createConsumerRegistry();
    expect(() => registry.add(sync('Typo', ['check.fialed' as EventName]))).toThrow(
      "Unknown event name 'check.fialed'. Use one of: check.failed",
    );
    registry.add(sync('Notifications', ['check.failed']));
    expect(() => registry.add(sync('Notifications', ['check.passed']))).toThrow(
      "An event consumer named 'Notifications' is already registered",
    );
    expect(() => registry.add(sync('Twice', ['check.passed', 'check.passed']))).toThrow('names an event twice');
    expect(() => registry.add(sync('Nothing', []))).toThrow("Event consumer 'Nothing' names no events");
    expect(() => registry.add(sync(' ', ['check.passed']))).toThrow('needs a name');
  });

  it('keeps an event name to sync handlers or one async consumer', () => {
    const registry = createConsumerRegistry();
    registry.add(sync('Notifications', ['check.failed']));
    expect(() => registry.add(async('Sender', ['check.failed']))).toThrow(
      "Async event consumer 'Sender' cannot consume 'check.failed': it has sync handlers.",
    );
    registry.add(async('Sender', ['config.created']));
    expect(() => registry.add(sync('Audit', ['config.created']))).toThrow(
      "Event consumer 'Audit' cannot consume 'config.created': the async consumer 'Sender' does.",
    );
    expect(() => registry.add(async('Other', ['config.created']))).toThrow("the async consumer 'Sender' does");
  });

  it('refuses a concurrency or batch size that is not an integer from 1 to its bound', () => {
    const registry = createConsumerRegistry();
    expect(() => registry.add(sync('Zero', ['check.failed'], 0))).toThrow(
      "Event consumer 'Zero': concurrency must be an integer from 1 to 100, got 0",
    );
    expect(() => registry.add(async('Huge', ['check.failed'], { batchSize: 5000 }))).toThrow(
      "Event consumer 'Huge': batchSize must be an integer from 1 to 1000, got 5000",
    );
    // A refused registration leaves nothing behind.
    expect(registry.lanes()).toEqual([]);
  });
});
