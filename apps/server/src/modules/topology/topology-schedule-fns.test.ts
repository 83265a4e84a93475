import { describe, expect, it } from 'vitest';
import { nextTopologyRun } from './topology-schedule-fns.js';

const at = (iso: string) => new Date(iso);

describe('nextTopologyRun', () => {
  it('runs at once when never run or changed since the last run', () => {
    expect(nextTopologyRun('@every 1h', null, at('2026-01-01T00:00:00Z')).getTime()).toBe(0);
    expect(nextTopologyRun('@every 1h', at('2026-01-01T00:00:00Z'), at('2026-01-01T00:10:00Z')).getTime()).toBe(0);
  });
  it('follows @every (at least 10 s), cron and the 5 minute default', () => {
    const last = at('2026-01-01T00:00:00Z');
    const updated = at('2025-12-31T00:00:00Z');
    expect(nextTopologyRun('@every 1h', last, updated).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(nextTopologyRun('@every 1s', last, updated).toISOString()).toBe('2026-01-01T00:00:10.000Z');
    expect(nextTopologyRun('@hourly', last, updated).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(nextTopologyRun(null, last, updated).toISOString()).toBe('2026-01-01T00:05:00.000Z');
  });
});
