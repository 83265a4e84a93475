import { EVENT_LIMITS, EVENT_NAMES, EVENT_QUEUE_DEFAULTS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error.js';
import { backoffMs, checkEventInput, errorText, INVALID_EVENT, resolveEventQueueSettings } from './event-fns.js';

const ID = '0194b0f4-6a55-7c3e-9d4e-3b1c2a4f5e6d';

/** The AppError `work` throws, so a test can read its status, code and message. */
function refusal(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkEventInput', () => {
  it('accepts a known event with string properties and fills the defaults', () => {
    expect(checkEventInput('check.failed', ID.toUpperCase(), { last_runtime: '2026-01-01T00:00:00Z' })).toEqual({
      name: 'check.failed',
      eventId: ID,
      properties: { last_runtime: '2026-01-01T00:00:00Z' },
      priority: EVENT_QUEUE_DEFAULTS.priority,
      delayMs: null,
    });
    expect(checkEventInput('config.created', null, undefined, { priority: 5, delayMs: 1500 })).toMatchObject({
      eventId: null,
      properties: {},
      priority: 5,
      delayMs: 1500,
    });
  });

  it('refuses an unknown event name with a 400 that lists the known ones', () => {
    const error = refusal(() => checkEventInput('check.exploded', ID, {}));
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe(INVALID_EVENT);
    expect(error.message).toContain("Unknown event name 'check.exploded'");
    expect(error.message).toContain(EVENT_NAMES.join(', '));
  });

  it('refuses an event id that is not a UUID', () => {
    expect(refusal(() => checkEventInput('check.failed', 'check-42', {})).message).toBe(
      "The event id 'check-42' is not a UUID. Pass the id of the row the event is about, or null for no de-duplication.",
    );
  });

  it('refuses property values that are not strings, naming the key and the type', () => {
    expect(refusal(() => checkEventInput('check.failed', ID, { attempts: 3 })).message).toBe(
      "Event property 'attempts' is a number; every property value must be a string (convert it with String(...) or JSON.stringify(...)).",
    );
    expect(refusal(() => checkEventInput('check.failed', ID, { when: null })).message).toContain('is a null');
    expect(refusal(() => checkEventInput('check.failed', ID, { tags: ['a'] })).message).toContain('is a array');
    expect(refusal(() => checkEventInput('check.failed', ID, { nested: { a: '1' } })).message).toContain('is a object');
  });

  it('refuses properties that are not an object, too many, or too long', () => {
    expect(refusal(() => checkEventInput('check.failed', ID, ['a'])).message).toBe(
      'Event properties must be an object of string values, such as {"status": "healthy"}.',
    );
    expect(refusal(() => checkEventInput('check.failed', ID, 'status=healthy')).message).toContain('must be an object');
    const many = Object.fromEntries(Array.from({ length: EVENT_LIMITS.maxProperties + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(refusal(() => checkEventInput('check.failed', ID, many)).message).toContain('at most 100 properties');
    const long = { body: 'x'.repeat(EVENT_LIMITS.maxPropertyValueLength + 1) };
    expect(refusal(() => checkEventInput('check.failed', ID, long)).message).toContain(
      "Event property 'body' is longer",
    );
    const longKey = { ['k'.repeat(EVENT_LIMITS.maxPropertyKeyLength + 1)]: 'v' };
    expect(refusal(() => checkEventInput('check.failed', ID, longKey)).message).toContain('key');
  });

  it('refuses a priority that is not an integer and a delay outside 0 to 30 days', () => {
    expect(refusal(() => checkEventInput('check.failed', ID, {}, { priority: 1.5 })).message).toContain(
      "An event's priority must be an integer",
    );
    expect(refusal(() => checkEventInput('check.failed', ID, {}, { delayMs: -1 })).message).toContain(
      "An event's delay must be a number of milliseconds",
    );
    expect(refusal(() => checkEventInput('check.failed', ID, {}, { delayMs: Number.NaN })).statusCode).toBe(400);
    expect(
      refusal(() => checkEventInput('check.failed', ID, {}, { delayMs: EVENT_LIMITS.maxDelayMs + 1 })).statusCode,
    ).toBe(400);
  });
});

describe('backoffMs', () => {
  it('waits 1 min, 32 min and about 4 h after failures 1, 2 and 3 with the defaults', () => {
    const settings = resolveEventQueueSettings();
    expect([1, 2, 3].map((attempts) => backoffMs(attempts, settings))).toEqual([60_000, 1_920_000, 14_580_000]);
    expect(backoffMs(0, settings)).toBe(0);
  });
});

describe('resolveEventQueueSettings', () => {
  it('takes the defaults and overrides, and refuses a negative, fractional or zero setting where it matters', () => {
    expect(resolveEventQueueSettings({ maxRetries: 1 })).toMatchObject({ maxRetries: 1, backoffBaseMs: 60_000 });
    expect(() => resolveEventQueueSettings({ backoffBaseMs: -1 })).toThrow(
      'backoffBaseMs must be a number of 0 or more',
    );
    expect(() => resolveEventQueueSettings({ maxRetries: 1.5 })).toThrow('maxRetries must be an integer');
    expect(() => resolveEventQueueSettings({ pollIntervalMs: 0 })).toThrow('pollIntervalMs must be at least 1 ms');
  });
});

describe('errorText', () => {
  it('keeps an error message, a thrown string or value, and cuts a long one', () => {
    expect(errorText(new Error('SMTP said no'))).toBe('SMTP said no');
    expect(errorText('plain')).toBe('plain');
    expect(errorText({ code: 42 })).toBe('{"code":42}');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText(new Error(''))).toBe('Error');
    expect(errorText('  ')).toBe('The handler failed without a message.');
    expect(errorText('x'.repeat(10_000))).toHaveLength(EVENT_LIMITS.maxErrorLength);
  });
});
