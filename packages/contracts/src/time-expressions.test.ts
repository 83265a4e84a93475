import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatRelativeTime,
  parseDurationMs,
  parseRelativeTime,
  parseTimeExpression,
  resolveRelativeTime,
} from './time-expressions.js';

// The grammar replaces three readers (the summary API's, the list filters' and the time-range
// picker's) and two duration parsers (settings', check runners'): every spelling one of them
// accepted is accepted here, with the same meaning.

const now = new Date('2026-11-21T10:00:00.000Z');
const utc = (iso: string) => new Date(iso);

describe('parseRelativeTime', () => {
  it('reads now and offsets from it in every unit, months also as mo', () => {
    expect(parseRelativeTime('now')).toEqual({ offsets: [] });
    expect(parseRelativeTime('now-15m')).toEqual({ offsets: [{ amount: -15, unit: 'm' }] });
    expect(parseRelativeTime('now+1h')).toEqual({ offsets: [{ amount: 1, unit: 'h' }] });
    for (const unit of ['ms', 's', 'm', 'h', 'd', 'w', 'M', 'y'] as const) {
      expect(parseRelativeTime(`now-2${unit}`)).toEqual({ offsets: [{ amount: -2, unit }] });
    }
    expect(parseRelativeTime('now-1mo')).toEqual({ offsets: [{ amount: -1, unit: 'M' }] });
  });

  it('reads chains and rounding', () => {
    expect(parseRelativeTime('now-1d+2h/h')).toEqual({
      offsets: [
        { amount: -1, unit: 'd' },
        { amount: 2, unit: 'h' },
      ],
      roundTo: 'h',
    });
    expect(parseRelativeTime('now/w')).toEqual({ offsets: [], roundTo: 'w' });
    expect(parseRelativeTime('now-1M/mo')).toEqual({ offsets: [{ amount: -1, unit: 'M' }], roundTo: 'M' });
  });

  it('reads a bare span as that long ago', () => {
    expect(parseRelativeTime('7d')).toEqual({ offsets: [{ amount: -7, unit: 'd' }] });
    expect(parseRelativeTime('-15m')).toEqual({ offsets: [{ amount: -15, unit: 'm' }] });
    expect(parseRelativeTime('3mo')).toEqual({ offsets: [{ amount: -3, unit: 'M' }] });
    expect(parseRelativeTime('0m')).toEqual({ offsets: [{ amount: 0, unit: 'm' }] });
  });

  it('allows blanks between the parts; a first offset without a sign counts back', () => {
    expect(parseRelativeTime(' now - 1 h ')).toEqual({ offsets: [{ amount: -1, unit: 'h' }] });
    expect(parseRelativeTime('1 h')).toEqual({ offsets: [{ amount: -1, unit: 'h' }] });
    expect(parseRelativeTime('now 1h')).toEqual({ offsets: [{ amount: -1, unit: 'h' }] });
    expect(parseRelativeTime('now-1d / d')).toEqual({ offsets: [{ amount: -1, unit: 'd' }], roundTo: 'd' });
  });

  it('rejects anything else', () => {
    for (const text of [
      '',
      'now-',
      'now-15',
      'now-15x',
      'now*2h',
      'now-1d2h',
      'now-1h+',
      'now/',
      'nowish',
      'later',
      'yesterday',
      '+1h',
      '1 hour',
      '1x',
      '1h30m',
      '7d/d',
      'NOW-1h',
    ]) {
      expect(parseRelativeTime(text), text).toBeUndefined();
    }
  });
});

describe('formatRelativeTime', () => {
  it('writes the canonical now form', () => {
    const format = (text: string) => formatRelativeTime(parseRelativeTime(text)!);
    expect(format('7d')).toBe('now-7d');
    expect(format('1mo')).toBe('now-1M');
    expect(format('now')).toBe('now');
    expect(format('now - 1d + 2h / h')).toBe('now-1d+2h/h');
    expect(format('now+1w')).toBe('now+1w');
  });
});

describe('resolveRelativeTime in UTC (the server)', () => {
  it('moves by exact lengths and calendar days', () => {
    expect(resolveRelativeTime('now', now)).toEqual(now);
    expect(resolveRelativeTime('now-1h', now)).toEqual(utc('2026-11-21T09:00:00.000Z'));
    expect(resolveRelativeTime('1h', now)).toEqual(utc('2026-11-21T09:00:00.000Z'));
    expect(resolveRelativeTime('15m', now)).toEqual(utc('2026-11-21T09:45:00.000Z'));
    expect(resolveRelativeTime('now+30s', now)).toEqual(utc('2026-11-21T10:00:30.000Z'));
    expect(resolveRelativeTime('now-500ms', now)).toEqual(utc('2026-11-21T09:59:59.500Z'));
    expect(resolveRelativeTime('7d', now)).toEqual(utc('2026-11-14T10:00:00.000Z'));
    expect(resolveRelativeTime('2w', now)).toEqual(utc('2026-11-07T10:00:00.000Z'));
    expect(resolveRelativeTime('now-1d+2h', now)).toEqual(utc('2026-11-20T12:00:00.000Z'));
  });

  it('counts months and years on the calendar, keeping the day where the month has it', () => {
    expect(resolveRelativeTime('1mo', now)).toEqual(utc('2026-10-21T10:00:00.000Z'));
    expect(resolveRelativeTime('now-3M', now)).toEqual(utc('2026-08-21T10:00:00.000Z'));
    expect(resolveRelativeTime('1y', now)).toEqual(utc('2025-11-21T10:00:00.000Z'));
    expect(resolveRelativeTime('now-1M', utc('2026-03-31T12:00:00Z'))).toEqual(utc('2026-02-28T12:00:00Z'));
    expect(resolveRelativeTime('now+1M', utc('2028-01-31T12:00:00Z'))).toEqual(utc('2028-02-29T12:00:00Z'));
    expect(resolveRelativeTime('now-1y', utc('2028-02-29T12:00:00Z'))).toEqual(utc('2027-02-28T12:00:00Z'));
    expect(resolveRelativeTime('now-13M', utc('2026-01-15T00:00:00Z'))).toEqual(utc('2024-12-15T00:00:00Z'));
  });

  it('rounds to the start of a unit, or its end for an upper bound; weeks start on Monday', () => {
    // 2026-11-21 is a Saturday.
    expect(resolveRelativeTime('now/d', now)).toEqual(utc('2026-11-21T00:00:00.000Z'));
    expect(resolveRelativeTime('now/d', now, { roundUp: true })).toEqual(utc('2026-11-21T23:59:59.999Z'));
    expect(resolveRelativeTime('now/w', now)).toEqual(utc('2026-11-16T00:00:00.000Z'));
    expect(resolveRelativeTime('now-1w/w', now, { roundUp: true })).toEqual(utc('2026-11-15T23:59:59.999Z'));
    expect(resolveRelativeTime('now/M', now, { roundUp: true })).toEqual(utc('2026-11-30T23:59:59.999Z'));
    expect(resolveRelativeTime('now/y', now)).toEqual(utc('2026-01-01T00:00:00.000Z'));
    expect(resolveRelativeTime('now/h', now, { roundUp: true })).toEqual(utc('2026-11-21T10:59:59.999Z'));
  });

  it('is undefined for text that is no relative time or no date', () => {
    expect(resolveRelativeTime('yesterday', now)).toBeUndefined();
    expect(resolveRelativeTime('now-99999999999999999999y', now)).toBeUndefined();
  });
});

describe('resolveRelativeTime in local time (the web)', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    // Summer time begins in Berlin on 31 March 2024 at 02:00.
    process.env.TZ = 'Europe/Berlin';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('keeps the time of day across a clock change and rounds to local days', () => {
    const noon = new Date(2024, 2, 31, 12, 0);
    expect(noon.getTimezoneOffset()).toBe(-120);
    expect(resolveRelativeTime('now-1d', noon, { calendar: 'local' })).toEqual(new Date(2024, 2, 30, 12, 0));
    expect(resolveRelativeTime('now-24h', noon, { calendar: 'local' })).toEqual(new Date(2024, 2, 30, 11, 0));
    expect(resolveRelativeTime('now/d', noon, { calendar: 'local' })).toEqual(new Date(2024, 2, 31));
    expect(resolveRelativeTime('now-1M/M', noon, { calendar: 'local', roundUp: true })).toEqual(
      new Date(2024, 1, 29, 23, 59, 59, 999),
    );
    // The same instant in UTC is another day's start.
    expect(resolveRelativeTime('now/d', noon)).toEqual(new Date('2024-03-31T00:00:00Z'));
  });

  it('applies offsets and rounds as the time-range picker does', () => {
    // Wednesday 2024-05-15 14:30:45.500 local time.
    const at = new Date(2024, 4, 15, 14, 30, 45, 500);
    const local = (text: string, roundUp = false) => resolveRelativeTime(text, at, { calendar: 'local', roundUp });
    expect(local('now-15m')).toEqual(new Date(2024, 4, 15, 14, 15, 45, 500));
    expect(local('now+1h')).toEqual(new Date(2024, 4, 15, 15, 30, 45, 500));
    expect(local('now-500ms')).toEqual(new Date(2024, 4, 15, 14, 30, 45, 0));
    expect(local('now-1M')).toEqual(new Date(2024, 3, 15, 14, 30, 45, 500));
    expect(local('now-1y')).toEqual(new Date(2023, 4, 15, 14, 30, 45, 500));
    expect(local('now-2w')).toEqual(new Date(2024, 4, 1, 14, 30, 45, 500));
    expect(local('now/d')).toEqual(new Date(2024, 4, 15));
    expect(local('now/d', true)).toEqual(new Date(2024, 4, 15, 23, 59, 59, 999));
    expect(local('now/w')).toEqual(new Date(2024, 4, 13));
    expect(local('now-1w/w', true)).toEqual(new Date(2024, 4, 12, 23, 59, 59, 999));
    // A Sunday belongs to the week that began the Monday before.
    expect(resolveRelativeTime('now/w', new Date(2024, 4, 19, 9), { calendar: 'local' })).toEqual(
      new Date(2024, 4, 13),
    );
  });
});

describe('parseTimeExpression', () => {
  it('reads relative times', () => {
    expect(parseTimeExpression('now-1h', now)).toEqual(utc('2026-11-21T09:00:00.000Z'));
    expect(parseTimeExpression('now', now)).toEqual(now);
    expect(parseTimeExpression('now-1d/d', now)).toEqual(utc('2026-11-20T00:00:00.000Z'));
  });

  it('reads ISO 8601 dates and times', () => {
    expect(parseTimeExpression('2026-11-20T08:30:00Z', now)).toEqual(utc('2026-11-20T08:30:00Z'));
    expect(parseTimeExpression('2026-11-20T08:30:00+02:00', now)).toEqual(utc('2026-11-20T06:30:00Z'));
    expect(parseTimeExpression('2026-11-20 08:30:00.123456789Z', now)).toEqual(utc('2026-11-20T08:30:00.123Z'));
    expect(parseTimeExpression('2026-11-20T08:30:00.000+0200', now)).toEqual(utc('2026-11-20T06:30:00Z'));
    expect(parseTimeExpression('2026-11-20', now)).toEqual(utc('2026-11-20T00:00:00Z'));
  });

  it('returns undefined for anything else', () => {
    for (const text of ['yesterday', '+1h', '1 hour', '2026-13-45', '', 'now-', '1x', '500', '2026-11-20garbage']) {
      expect(parseTimeExpression(text, now), text).toBeUndefined();
    }
  });
});

describe('parseDurationMs', () => {
  it('reads Go-style durations with days and weeks', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('30s')).toBe(30_000);
    expect(parseDurationMs(' 90m ')).toBe(5_400_000);
    expect(parseDurationMs('24h')).toBe(86_400_000);
    expect(parseDurationMs('1d')).toBe(86_400_000);
    expect(parseDurationMs('2w')).toBe(1_209_600_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('1.5s')).toBe(1500);
    expect(parseDurationMs('0.0005s')).toBe(1);
  });

  it('is undefined for anything else', () => {
    for (const text of ['', '5', 'one day', '10 minutes', '1h 30m', '1M', '1y', '1mo', '-5s', 's']) {
      expect(parseDurationMs(text), text).toBeUndefined();
    }
  });
});
