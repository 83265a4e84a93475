import { describe, expect, it } from 'vitest';
import {
  ceilTo,
  dailyRollupWindow,
  DAY_MS,
  floorTo,
  HOUR_MS,
  hourlyRollupWindow,
  retentionCutoffs,
  roundTo,
  summarySegments,
} from './health-rollup-fns.js';

const t = (iso: string) => new Date(iso);
const slice = (from: string, to: string) => ({ from: t(from), to: t(to) });

describe('bucket boundaries', () => {
  it('floors, ceils and rounds to UTC hours and days', () => {
    expect(floorTo(t('2026-11-21T10:35:12Z'), HOUR_MS)).toEqual(t('2026-11-21T10:00:00Z'));
    expect(ceilTo(t('2026-11-21T10:35:12Z'), HOUR_MS)).toEqual(t('2026-11-21T11:00:00Z'));
    expect(ceilTo(t('2026-11-21T10:00:00Z'), HOUR_MS)).toEqual(t('2026-11-21T10:00:00Z'));
    expect(roundTo(t('2026-11-21T10:29:59Z'), HOUR_MS)).toEqual(t('2026-11-21T10:00:00Z'));
    expect(roundTo(t('2026-11-21T10:30:00Z'), HOUR_MS)).toEqual(t('2026-11-21T11:00:00Z'));
    expect(floorTo(t('2026-11-21T23:59:59Z'), DAY_MS)).toEqual(t('2026-11-21T00:00:00Z'));
  });
});

describe('summarySegments', () => {
  const marks = { hourly: t('2026-11-21T16:34:00Z'), daily: t('2026-11-21T16:00:00Z') };

  it('reads a range of an hour or less from raw rows only, exactly', () => {
    const range = slice('2026-11-21T15:40:00Z', '2026-11-21T16:40:00Z');
    expect(summarySegments(range, marks)).toEqual({ raw: [range], hourly: [], daily: [] });
  });

  it('reads everything raw while the roll-ups have never run', () => {
    const range = slice('2026-11-14T16:40:00Z', '2026-11-21T16:40:00Z');
    expect(summarySegments(range, {})).toEqual({ raw: [range], hourly: [], daily: [] });
  });

  it('reads 7 days as daily buckets, the hours around them and a few raw minutes after the hourly mark', () => {
    const range = slice('2026-11-14T16:40:00Z', '2026-11-21T16:40:00Z');
    expect(summarySegments(range, marks)).toEqual({
      // 16:40 rounds to 17:00; the partial hourly bucket of 16:00 is exact up to the mark.
      raw: [slice('2026-11-21T16:34:00Z', '2026-11-21T16:40:00Z')],
      hourly: [
        slice('2026-11-14T17:00:00Z', '2026-11-15T00:00:00Z'),
        slice('2026-11-21T16:00:00Z', '2026-11-21T16:34:00Z'),
      ],
      daily: [slice('2026-11-15T00:00:00Z', '2026-11-21T16:00:00Z')],
    });
  });

  it('covers every instant of the range exactly once (no gap, no overlap)', () => {
    const range = slice('2026-11-14T16:40:00Z', '2026-11-21T16:40:00Z');
    const segments = summarySegments(range, marks);
    // Expand bucket starts into the time they cover, cut at the marks (partial buckets).
    const covered = [
      ...segments.raw,
      ...segments.hourly.map((s) => ({
        from: s.from,
        to: new Date(Math.min(ceilTo(s.to, HOUR_MS).getTime(), marks.hourly.getTime())),
      })),
      ...segments.daily.map((s) => ({ from: s.from, to: new Date(Math.min(s.to.getTime(), marks.daily.getTime())) })),
    ].sort((a, b) => a.from.getTime() - b.from.getTime());
    for (let i = 1; i < covered.length; i++) {
      expect(covered[i]!.from.getTime()).toBe(covered[i - 1]!.to.getTime());
    }
    expect(covered[0]!.from).toEqual(t('2026-11-14T17:00:00Z'));
    expect(covered.at(-1)!.to).toEqual(range.to);
  });

  it('reads the part of a short range before its first whole hour raw', () => {
    const range = slice('2026-11-21T12:20:00Z', '2026-11-21T16:40:00Z');
    expect(summarySegments(range, marks)).toEqual({
      raw: [
        slice('2026-11-21T12:20:00Z', '2026-11-21T13:00:00Z'),
        slice('2026-11-21T16:34:00Z', '2026-11-21T16:40:00Z'),
      ],
      hourly: [slice('2026-11-21T13:00:00Z', '2026-11-21T16:34:00Z')],
      daily: [],
    });
  });

  it('ends a range in the past on whole buckets and reads its last partial hour raw', () => {
    const range = slice('2026-11-18T00:00:00Z', '2026-11-20T10:30:00Z');
    expect(summarySegments(range, marks)).toEqual({
      raw: [slice('2026-11-20T10:00:00Z', '2026-11-20T10:30:00Z')],
      hourly: [slice('2026-11-20T00:00:00Z', '2026-11-20T10:00:00Z')],
      daily: [slice('2026-11-18T00:00:00Z', '2026-11-20T00:00:00Z')],
    });
  });

  it('falls back to raw rows when the roll-ups lag behind the whole range', () => {
    const range = slice('2026-11-21T12:20:00Z', '2026-11-21T16:40:00Z');
    const stale = { hourly: t('2026-11-21T12:10:00Z') };
    expect(summarySegments(range, stale)).toEqual({ raw: [range], hourly: [], daily: [] });
  });
});

describe('roll-up windows', () => {
  it('rebuilds hourly buckets from the hour before the last partial one, to now', () => {
    const now = t('2026-11-21T16:40:00Z');
    expect(hourlyRollupWindow(now, t('2026-11-21T16:35:00Z'), 30 * DAY_MS)).toEqual(
      slice('2026-11-21T15:00:00Z', '2026-11-21T16:40:00Z'),
    );
  });

  it('starts a first hourly roll-up at the raw retention limit', () => {
    const now = t('2026-11-21T16:40:00Z');
    expect(hourlyRollupWindow(now, undefined, 30 * DAY_MS).from).toEqual(t('2026-10-22T16:00:00Z'));
    expect(hourlyRollupWindow(now, t('2020-01-01T00:00:00Z'), 30 * DAY_MS).from).toEqual(t('2026-10-22T16:00:00Z'));
  });

  it('sums whole hours into days, from the day before the last partial one', () => {
    expect(dailyRollupWindow(t('2026-11-21T16:34:00Z'), t('2026-11-21T15:00:00Z'), 90 * DAY_MS)).toEqual(
      slice('2026-11-20T00:00:00Z', '2026-11-21T16:00:00Z'),
    );
  });

  it('skips the daily roll-up until another hour is complete', () => {
    expect(dailyRollupWindow(t('2026-11-21T16:34:00Z'), t('2026-11-21T16:00:00Z'), 90 * DAY_MS)).toBeUndefined();
  });

  it('computes retention cutoffs from days', () => {
    const now = t('2026-11-21T00:00:00Z');
    expect(retentionCutoffs(now, { raw: 30, hourly: 90, daily: 270 })).toEqual({
      raw: t('2026-10-22T00:00:00Z'),
      hourly: t('2026-08-23T00:00:00Z'),
      daily: t('2026-02-24T00:00:00Z'),
    });
  });
});
