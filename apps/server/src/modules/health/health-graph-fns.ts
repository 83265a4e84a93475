import { DAY_MS, floorTo, HOUR_MS, type RollupMarks, type TimeSlice } from './health-rollup-fns.js';

/**
 * How `GET /api/canary/api/graph` turns one check's runs over a range into at most about
 * `count` points: every run when the range holds few enough (and all of them are still raw),
 * else the runs of fixed windows, the shortest of GRAPH_WINDOWS_MS that keeps the points within
 * `count`. Windows under an hour are read from raw rows; longer ones from the hourly and daily
 * roll-ups where those are complete, and raw rows after them.
 */

const MINUTE_MS = 60_000;

const WEEK_MS = 7 * DAY_MS;

/** The windows a graph's points may cover (canary-checker's choice of partitions). */
export const GRAPH_WINDOWS_MS = [
  MINUTE_MS,
  5 * MINUTE_MS,
  15 * MINUTE_MS,
  30 * MINUTE_MS,
  HOUR_MS,
  3 * HOUR_MS,
  6 * HOUR_MS,
  12 * HOUR_MS,
  DAY_MS,
  WEEK_MS,
] as const;

/** Where a graph's points are read from: raw slices by `time`, bucket slices by bucket start. */
export type GraphSources = { raw: TimeSlice[]; hourly: TimeSlice[]; daily: TimeSlice[] };

/** The shortest window that splits `spanMs` into at most `count` windows; the longest when none does. */
export function graphWindow(spanMs: number, count: number): number {
  const fits = GRAPH_WINDOWS_MS.find((window) => Math.ceil(spanMs / window) <= count);
  return fits ?? WEEK_MS;
}

const nonEmpty = (slice: TimeSlice) => slice.to.getTime() > slice.from.getTime();
const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/**
 * The slices that hold a range's runs for points of `windowMs`. Under an hour (or before any
 * hourly roll-up): raw rows only. From an hour: hourly buckets up to the hourly mark (each holds
 * its raw rows up to it), raw rows after it; from a day, daily buckets up to the daily mark
 * first. A bucket is taken whole, so the first point may count runs from before the range start,
 * within its window; a bucket that ends before the range starts is not taken.
 */
export function graphSources(range: TimeSlice, marks: RollupMarks, windowMs: number): GraphSources {
  const rawOnly: GraphSources = { raw: nonEmpty(range) ? [range] : [], hourly: [], daily: [] };
  if (windowMs < HOUR_MS || !marks.hourly) return rawOnly;
  const hourlyEnd = earlier(marks.hourly, range.to);
  // Buckets before the mark hold nothing of the range when the range starts after the mark.
  if (hourlyEnd.getTime() <= range.from.getTime()) return rawOnly;
  const raw = [{ from: hourlyEnd, to: range.to }].filter(nonEmpty);
  const hourlyFrom = floorTo(range.from, HOUR_MS);
  if (windowMs >= DAY_MS && marks.daily) {
    const dailyEnd = earlier(marks.daily, hourlyEnd);
    if (dailyEnd.getTime() > range.from.getTime()) {
      return {
        raw,
        daily: [{ from: floorTo(range.from, DAY_MS), to: dailyEnd }],
        // The daily mark is an hour boundary: the hourly bucket starting there is in no day.
        hourly: [{ from: dailyEnd, to: hourlyEnd }].filter(nonEmpty),
      };
    }
  }
  return { raw, hourly: [{ from: hourlyFrom, to: hourlyEnd }], daily: [] };
}

/**
 * The points to read: single runs (window 0) when the range holds at most `count` raw runs and
 * no fewer than its total (none of them was deleted by retention yet), else windows.
 */
export function graphPlan(input: {
  range: TimeSlice;
  marks: RollupMarks;
  count: number;
  rawRuns: number;
  totalRuns: number;
}): { windowMs: number; sources: GraphSources } {
  const { range, marks, count, rawRuns, totalRuns } = input;
  if (rawRuns <= count && rawRuns >= totalRuns) return { windowMs: 0, sources: graphSources(range, marks, 0) };
  const windowMs = graphWindow(range.to.getTime() - range.from.getTime(), count);
  return { windowMs, sources: graphSources(range, marks, windowMs) };
}
