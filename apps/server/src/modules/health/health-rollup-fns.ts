/**
 * Bucket arithmetic for check statuses: which hourly and daily buckets the roll-up jobs
 * rebuild, and which parts of a summary range are read from buckets and which from raw rows.
 *
 * Buckets start on UTC hour and day boundaries (SQL: `date_bin(..., '2000-01-01 UTC')`, the
 * same alignment as the Unix epoch). A roll-up's mark says how far it is complete: every
 * bucket holds all raw rows before the mark, so the bucket that contains the mark is partial
 * but exact up to it. The hourly job runs every few minutes and rebuilds buckets from raw
 * rows up to the moment it runs; the daily job rebuilds days from complete hourly buckets.
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A half-open time slice [from, to). */
export type TimeSlice = { from: Date; to: Date };

/**
 * How far each roll-up is complete (undefined: it never ran), and the refreshed last hour: made
 * `at`, exact for the raw rows of [at - 1 hour, exactUntil).
 */
export type RollupMarks = {
  hourly?: Date | undefined;
  daily?: Date | undefined;
  lastHour?: { at: Date; exactUntil: Date } | undefined;
};

/** Start of the UTC bucket of `unitMs` that contains `time`. */
export function floorTo(time: Date, unitMs: number): Date {
  return new Date(Math.floor(time.getTime() / unitMs) * unitMs);
}

/** The first bucket boundary at or after `time`. */
export function ceilTo(time: Date, unitMs: number): Date {
  return new Date(Math.ceil(time.getTime() / unitMs) * unitMs);
}

/** The nearest bucket boundary. */
export function roundTo(time: Date, unitMs: number): Date {
  return new Date(Math.round(time.getTime() / unitMs) * unitMs);
}

const max = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);
const nonEmpty = (slice: TimeSlice) => slice.to.getTime() > slice.from.getTime();

/**
 * Where the summary reads each part of `[range.from, range.to)` from:
 * - `raw`: slices of `check_statuses` rows (by `time`);
 * - `hourly` / `daily`: slices of bucket *starts* in `check_statuses_1h` / `_1d`.
 *
 * Short ranges (up to `rawOnlyMaxMs`, default one hour) and ranges the roll-ups cannot serve
 * are read raw, exactly. Longer ones use daily buckets for whole days, hourly buckets for the
 * hours around them and raw rows for the few minutes after the hourly mark. Ranges of a day
 * or more (`roundStartFromMs`) start at the nearest hour, so no raw rows are read at the
 * start; shorter ones read the part before their first whole hour raw.
 */
export function summarySegments(
  range: TimeSlice,
  marks: RollupMarks,
  options: { rawOnlyMaxMs?: number; roundStartFromMs?: number } = {},
): { raw: TimeSlice[]; hourly: TimeSlice[]; daily: TimeSlice[] } {
  const rawOnlyMaxMs = options.rawOnlyMaxMs ?? HOUR_MS;
  const roundStartFromMs = options.roundStartFromMs ?? DAY_MS;
  const { from, to } = range;
  const span = to.getTime() - from.getTime();
  const rawOnly = { raw: nonEmpty(range) ? [range] : [], hourly: [], daily: [] };
  if (span <= rawOnlyMaxMs || !marks.hourly) return rawOnly;

  // Buckets are usable up to `end`: the hourly mark when the range runs past it (its bucket is
  // partial but exact up to the mark), else the last whole hour before `to`.
  const end = to.getTime() >= marks.hourly.getTime() ? marks.hourly : floorTo(to, HOUR_MS);
  const start = span >= roundStartFromMs ? roundTo(from, HOUR_MS) : ceilTo(from, HOUR_MS);
  if (start.getTime() >= end.getTime()) return rawOnly;

  const raw: TimeSlice[] = [];
  if (span < roundStartFromMs) raw.push({ from, to: start });
  raw.push({ from: end, to });

  const hourly: TimeSlice[] = [];
  const daily: TimeSlice[] = [];
  // Daily buckets are usable up to their mark (exact up to it, like the hourly one) when the
  // range reaches it, else up to the last whole day before `end`.
  const dailyEnd = marks.daily
    ? end.getTime() >= marks.daily.getTime()
      ? marks.daily
      : floorTo(end, DAY_MS)
    : undefined;
  const firstDay = ceilTo(start, DAY_MS);
  if (dailyEnd && firstDay.getTime() < dailyEnd.getTime()) {
    hourly.push({ from: start, to: firstDay });
    daily.push({ from: firstDay, to: dailyEnd });
    // Hourly buckets from the daily mark on. The daily mark is an hour boundary, so the
    // bucket that starts there is not in any daily bucket.
    hourly.push({ from: dailyEnd, to: end });
  } else {
    hourly.push({ from: start, to: end });
  }
  return { raw: raw.filter(nonEmpty), hourly: hourly.filter(nonEmpty), daily };
}

/**
 * The raw rows the hourly job aggregates: from the start of the hour before the one its last
 * run left partial (late rows of a run that straddled the hour land there) to now, never
 * further back than `maxBackMs` (raw retention). Bucket-aligned, so whole buckets are rebuilt.
 */
export function hourlyRollupWindow(now: Date, previousMark: Date | undefined, maxBackMs: number): TimeSlice {
  const earliest = floorTo(new Date(now.getTime() - maxBackMs), HOUR_MS);
  const from = previousMark ? new Date(floorTo(previousMark, HOUR_MS).getTime() - HOUR_MS) : earliest;
  return { from: max(from, earliest), to: now };
}

/**
 * The hourly buckets the daily job sums into days: only whole hours (those before the hourly
 * mark's hour), from the start of the day before the one its last run left partial. Returns
 * undefined when no hour was completed since that run.
 */
export function dailyRollupWindow(
  hourlyMark: Date,
  previousMark: Date | undefined,
  maxBackMs: number,
): TimeSlice | undefined {
  const to = floorTo(hourlyMark, HOUR_MS);
  if (previousMark && previousMark.getTime() >= to.getTime()) return undefined;
  const earliest = floorTo(new Date(to.getTime() - maxBackMs), DAY_MS);
  const from = previousMark ? new Date(floorTo(previousMark, DAY_MS).getTime() - DAY_MS) : earliest;
  return { from: max(from, earliest), to };
}

/** Retention of each level of history, in days (ARCHITECTURE section 5; issue 6 item 3). */
export type RetentionDays = { raw: number; hourly: number; daily: number };

/** Rows older than these instants are deleted. */
export function retentionCutoffs(now: Date, days: RetentionDays): { raw: Date; hourly: Date; daily: Date } {
  const cutoff = (d: number) => new Date(now.getTime() - d * DAY_MS);
  return { raw: cutoff(days.raw), hourly: cutoff(days.hourly), daily: cutoff(days.daily) };
}
