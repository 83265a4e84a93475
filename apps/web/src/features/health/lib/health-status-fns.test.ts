import { describe, expect, it } from 'vitest';
import {
  ageFromNow,
  defaultRangeOption,
  groupHealth,
  healthDotColour,
  staleRunAge,
  transitionAge,
  uptimePercent,
} from './health-status-fns';

const now = new Date('2026-01-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('healthDotColour (spec 1 section 4)', () => {
  it.each([
    ['degraded', 'red'],
    ['missing', 'red'],
    ['unhealthy', 'red'],
    [false, 'red'],
    ['unknown', 'grey'],
    ['suspended', 'grey'],
    [null, 'grey'],
    ['warning', 'orange'],
    ['warn', 'orange'],
    ['mixed', 'orange'],
    ['healthy', 'green'],
    [true, 'green'],
  ] as const)('%s is %s', (status, colour) => {
    expect(healthDotColour(status)).toBe(colour);
  });
});

describe('groupHealth', () => {
  it('is good when all pass, bad when all fail, mixed otherwise', () => {
    expect(groupHealth(['healthy', 'healthy'])).toBe('healthy');
    expect(groupHealth(['unhealthy', 'unhealthy'])).toBe('unhealthy');
    expect(groupHealth(['healthy', 'unhealthy'])).toBe('mixed');
    expect(groupHealth(['healthy', null])).toBe('mixed');
    expect(groupHealth([null])).toBe('unknown');
  });
});

describe('ages', () => {
  it('shows a transition only between 0 and 7 days ago', () => {
    expect(transitionAge(ago(5 * MINUTE), now)).toBe('5 minutes ago');
    expect(transitionAge(ago(6 * DAY), now)).toBe('6 days ago');
    expect(transitionAge(ago(8 * DAY), now)).toBeUndefined();
    expect(transitionAge(null, now)).toBeUndefined();
  });
  it('shows the last run only when it is over an hour old', () => {
    expect(staleRunAge(ago(30 * MINUTE), now)).toBeUndefined();
    expect(staleRunAge(ago(3 * HOUR), now)).toBe('3 hours ago');
  });
  it('reads the future as in …', () => {
    expect(ageFromNow(new Date(now.getTime() + 30_000).toISOString(), now)).toBe('in 30 seconds');
  });
});

describe('uptimePercent', () => {
  it('is passed over all runs, and undefined without runs', () => {
    expect(uptimePercent({ passed: 3, failed: 1 })).toBe(75);
    expect(uptimePercent({ passed: 0, failed: 0 })).toBeUndefined();
  });
});

describe('defaultRangeOption', () => {
  it('buckets the age of the last run from 1h up to 5y', () => {
    expect(defaultRangeOption(ago(10 * MINUTE), now)).toBe('1h');
    expect(defaultRangeOption(ago(2 * HOUR), now)).toBe('3h');
    expect(defaultRangeOption(ago(20 * HOUR), now)).toBe('1d');
    expect(defaultRangeOption(ago(10 * DAY), now)).toBe('2w');
    expect(defaultRangeOption(ago(3000 * DAY), now)).toBe('5y');
    expect(defaultRangeOption(null, now)).toBe('1h');
  });
});
