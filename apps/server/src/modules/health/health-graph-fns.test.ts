import { describe, expect, it } from 'vitest';
import { graphPlan, graphSources, graphWindow, GRAPH_WINDOWS_MS } from './health-graph-fns.js';
import { DAY_MS, HOUR_MS } from './health-rollup-fns.js';

const at = (iso: string) => new Date(iso);
const MINUTE = 60_000;

describe('graphWindow', () => {
  it('picks the shortest window that keeps the points within count', () => {
    expect(graphWindow(HOUR_MS, 300)).toBe(MINUTE);
    expect(graphWindow(24 * HOUR_MS, 300)).toBe(5 * MINUTE);
    expect(graphWindow(7 * DAY_MS, 300)).toBe(HOUR_MS);
    expect(graphWindow(30 * DAY_MS, 300)).toBe(3 * HOUR_MS);
    expect(graphWindow(HOUR_MS, 4)).toBe(15 * MINUTE);
  });

  it('falls back to the longest window when even that gives more points', () => {
    expect(graphWindow(5 * 365 * DAY_MS, 10)).toBe(GRAPH_WINDOWS_MS[GRAPH_WINDOWS_MS.length - 1]);
  });
});

describe('graphSources', () => {
  const range = { from: at('2026-11-01T10:30:00Z'), to: at('2026-11-08T10:30:00Z') };
  const marks = { hourly: at('2026-11-08T10:20:00Z'), daily: at('2026-11-08T10:00:00Z') };

  it('reads windows under an hour from raw rows only', () => {
    expect(graphSources(range, marks, 30 * MINUTE)).toEqual({ raw: [range], hourly: [], daily: [] });
  });

  it('reads hour windows from hourly buckets up to the hourly mark and raw rows after it', () => {
    expect(graphSources(range, marks, HOUR_MS)).toEqual({
      raw: [{ from: marks.hourly, to: range.to }],
      hourly: [{ from: at('2026-11-01T10:00:00Z'), to: marks.hourly }],
      daily: [],
    });
  });

  it('reads day windows from daily buckets up to the daily mark, then hourly, then raw', () => {
    expect(graphSources(range, marks, DAY_MS)).toEqual({
      raw: [{ from: marks.hourly, to: range.to }],
      hourly: [{ from: marks.daily, to: marks.hourly }],
      daily: [{ from: at('2026-11-01T00:00:00Z'), to: marks.daily }],
    });
  });

  it('reads raw rows only before any roll-up, or when the range starts after the hourly mark', () => {
    expect(graphSources(range, {}, DAY_MS)).toEqual({ raw: [range], hourly: [], daily: [] });
    const late = { from: at('2026-11-08T10:25:00Z'), to: at('2026-11-09T10:25:00Z') };
    expect(graphSources(late, marks, HOUR_MS)).toEqual({ raw: [late], hourly: [], daily: [] });
  });

  it('stops at the range end when the marks are past it', () => {
    const past = { from: at('2026-10-01T00:00:00Z'), to: at('2026-10-20T06:00:00Z') };
    expect(graphSources(past, marks, DAY_MS)).toEqual({
      raw: [],
      hourly: [],
      daily: [{ from: at('2026-10-01T00:00:00Z'), to: past.to }],
    });
  });
});

describe('graphPlan', () => {
  const range = { from: at('2026-11-08T09:30:00Z'), to: at('2026-11-08T10:30:00Z') };

  it('returns single runs when the range holds at most count and all of them are raw', () => {
    expect(graphPlan({ range, marks: {}, count: 300, rawRuns: 60, totalRuns: 60 })).toEqual({
      windowMs: 0,
      sources: { raw: [range], hourly: [], daily: [] },
    });
    expect(graphPlan({ range, marks: {}, count: 300, rawRuns: 0, totalRuns: 0 }).windowMs).toBe(0);
  });

  it('returns windows when there are more runs than count, or raw rows were already deleted', () => {
    expect(graphPlan({ range, marks: {}, count: 300, rawRuns: 301, totalRuns: 360 }).windowMs).toBe(MINUTE);
    const month = { from: at('2026-10-01T00:00:00Z'), to: at('2026-11-01T00:00:00Z') };
    expect(graphPlan({ range: month, marks: {}, count: 300, rawRuns: 10, totalRuns: 700 }).windowMs).toBe(3 * HOUR_MS);
  });
});
