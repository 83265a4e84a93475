import { RELATIVE_TIME_UNITS, type RelativeTimeUnit } from './constants.js';

/**
 * The one grammar of times and durations that Lookout reads, used by the web (time-range
 * picker, links) and the server (summary ranges, list filters, settings, schedules).
 *
 * Relative times (spec 1 section 9; units ms, s, m, h, d, w, M and y, months also `mo` as the
 * picker's options spell them, blanks between parts allowed):
 *
 * | Written              | Means                                                            |
 * |----------------------|------------------------------------------------------------------|
 * | `now`                | this instant                                                     |
 * | `now-15m`, `now+1h`  | an offset from now; offsets chain (`now-1d+2h`)                  |
 * | `now-1d/d`           | then rounded to the start of the unit (its end for an upper bound) |
 * | `7d`, `1h`, `-15m`   | a bare span: that long ago (how short links and the API write ranges) |
 *
 * After `now`, a first offset without a sign counts back as a bare span does (`now 1h`).
 * Minutes, hours and shorter units are exact lengths; days and weeks move the calendar date,
 * keeping the time of day; months and years keep the day of the month where it exists, else
 * the month's last day (one month before 31 March is 28 or 29 February). Calendar steps and
 * rounding use UTC by default, or the local time zone where a person reads the result (the web).
 *
 * Times: a relative time, or an ISO 8601 date or date-time (`2026-11-21`, `2026-11-21T10:00Z`).
 *
 * Durations (settings, schedules, folder ages): Go-style spans of exact units, `500ms`, `90s`,
 * `1h30m`, `7d`, `2w`, decimals allowed (`1.5s`).
 */

/** A relative time, read: signed offsets applied in order, then optional rounding. */
export type RelativeTime = {
  offsets: Array<{ amount: number; unit: RelativeTimeUnit }>;
  roundTo?: RelativeTimeUnit;
};

/** Which clock calendar steps and rounding follow: UTC (the server) or the local time zone (a browser). */
export type TimeCalendar = 'utc' | 'local';

export type ResolveTimeOptions = {
  /** Round to the end of the unit rather than its start (for the upper bound of a range). */
  roundUp?: boolean;
  /** Default `utc`. */
  calendar?: TimeCalendar;
};

/** Milliseconds of the units with a fixed length (durations use only these). */
export const DURATION_UNIT_MS = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
} as const;
type DurationUnit = keyof typeof DURATION_UNIT_MS;

// Longer spellings first: 'ms' and 'mo' before 'm'.
const UNIT = `(${['mo', ...RELATIVE_TIME_UNITS].sort((a, b) => b.length - a.length).join('|')})`;
const OFFSET = new RegExp(`\\s*([+-])?\\s*(\\d+)\\s*${UNIT}`, 'y');
const ROUNDING = new RegExp(`\\s*/\\s*${UNIT}$`, 'y');
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/y;
// Only text that starts with a full date is read as a time: Date.parse would take '500' for a year.
const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}/;

const unitOf = (spelling: string): RelativeTimeUnit => (spelling === 'mo' ? 'M' : (spelling as RelativeTimeUnit));

/** Reads a relative time (see the grammar above), or undefined when the text is not one. */
export function parseRelativeTime(text: string): RelativeTime | undefined {
  const source = text.trim();
  const fromNow = source.startsWith('now');
  const offsets: RelativeTime['offsets'] = [];
  let index = fromNow ? 'now'.length : 0;
  for (;;) {
    OFFSET.lastIndex = index;
    const offset = OFFSET.exec(source);
    if (!offset) break;
    const [, sign, amount, unit] = offset;
    // A bare span is one step back; offsets after the first carry their sign.
    if (!fromNow && (sign === '+' || offsets.length > 0)) return undefined;
    if (offsets.length > 0 && !sign) return undefined;
    offsets.push({ amount: sign === '+' ? Number(amount) : 0 - Number(amount), unit: unitOf(unit ?? '') });
    index = OFFSET.lastIndex;
  }
  if (!fromNow && offsets.length === 0) return undefined;
  if (index === source.length) return { offsets };
  ROUNDING.lastIndex = index;
  const rounding = fromNow ? ROUNDING.exec(source) : null;
  return rounding ? { offsets, roundTo: unitOf(rounding[1] ?? '') } : undefined;
}

/** The same relative time as `now` followed by its offsets and rounding (`7d` is `now-7d`). */
export function formatRelativeTime(time: RelativeTime): string {
  const offsets = time.offsets.map(({ amount, unit }) => `${amount < 0 ? '-' : '+'}${Math.abs(amount)}${unit}`);
  return `now${offsets.join('')}${time.roundTo ? `/${time.roundTo}` : ''}`;
}

/**
 * The instant a relative time means at `now` (text, or an expression already read), or
 * undefined when the text is not one or the result is no valid date.
 */
export function resolveRelativeTime(
  expression: string | RelativeTime,
  now: Date,
  options: ResolveTimeOptions = {},
): Date | undefined {
  const time = typeof expression === 'string' ? parseRelativeTime(expression) : expression;
  if (!time) return undefined;
  const clock = clockOf(options.calendar ?? 'utc');
  let at = new Date(now.getTime());
  for (const { amount, unit } of time.offsets) at = step(at, amount, unit, clock);
  if (time.roundTo) at = (options.roundUp ? endOf : startOf)(at, time.roundTo, clock);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * A time: a relative time resolved at `now`, or an ISO 8601 date or date-time. Returns
 * undefined when the text is neither.
 */
export function parseTimeExpression(value: string, now: Date, options: ResolveTimeOptions = {}): Date | undefined {
  const relative = resolveRelativeTime(value, now, options);
  if (relative) return relative;
  const text = value.trim();
  if (!DATE_PREFIX.test(text)) return undefined;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : new Date(parsed);
}

/** Milliseconds of a duration such as `500ms`, `24h`, `1h30m`, `7d` or `1.5s`; undefined when invalid. */
export function parseDurationMs(value: string): number | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  let total = 0;
  let index = 0;
  while (index < text.length) {
    DURATION_PART.lastIndex = index;
    const part = DURATION_PART.exec(text);
    if (!part) return undefined;
    total += Number(part[1]) * DURATION_UNIT_MS[part[2] as DurationUnit];
    index = DURATION_PART.lastIndex;
  }
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

// ---------------------------------------------------------------------------
// Calendar arithmetic, in UTC or local time
// ---------------------------------------------------------------------------

/** A date's calendar fields: year, month (0-11), day of month, hours, minutes, seconds, ms. */
type Fields = [number, number, number, number, number, number, number];

type Clock = { read: (date: Date) => Fields; weekday: (date: Date) => number; build: (fields: Fields) => Date };

const UTC_CLOCK: Clock = {
  read: (d) => [
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  ],
  weekday: (d) => d.getUTCDay(),
  build: ([year, month, day, hours, minutes, seconds, ms]) => {
    const date = new Date(0);
    date.setUTCFullYear(year, month, day);
    date.setUTCHours(hours, minutes, seconds, ms);
    return date;
  },
};

const LOCAL_CLOCK: Clock = {
  read: (d) => [
    d.getFullYear(),
    d.getMonth(),
    d.getDate(),
    d.getHours(),
    d.getMinutes(),
    d.getSeconds(),
    d.getMilliseconds(),
  ],
  weekday: (d) => d.getDay(),
  build: ([year, month, day, hours, minutes, seconds, ms]) => {
    const date = new Date(0);
    date.setFullYear(year, month, day);
    date.setHours(hours, minutes, seconds, ms);
    return date;
  },
};

const clockOf = (calendar: TimeCalendar): Clock => (calendar === 'local' ? LOCAL_CLOCK : UTC_CLOCK);

/** Days in a month (0-11) of a year; months past December roll into the next year. */
function daysInMonth(year: number, month: number): number {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month + 1, 0);
  return lastDay.getUTCDate();
}

/** Days since the week's Monday (weeks start on Monday throughout the console). */
const daysSinceMonday = (date: Date, clock: Clock): number => (clock.weekday(date) + 6) % 7;

function step(date: Date, amount: number, unit: RelativeTimeUnit, clock: Clock): Date {
  if (unit === 'ms' || unit === 's' || unit === 'm' || unit === 'h') {
    return new Date(date.getTime() + amount * DURATION_UNIT_MS[unit]);
  }
  const [year, month, day, ...time] = clock.read(date);
  if (unit === 'd' || unit === 'w') return clock.build([year, month, day + amount * (unit === 'w' ? 7 : 1), ...time]);
  const target = month + amount * (unit === 'y' ? 12 : 1);
  return clock.build([year, target, Math.min(day, daysInMonth(year, target)), ...time]);
}

function startOf(date: Date, unit: RelativeTimeUnit, clock: Clock): Date {
  const [year, month, day, hours, minutes, seconds] = clock.read(date);
  switch (unit) {
    case 'ms':
      return date;
    case 's':
      return clock.build([year, month, day, hours, minutes, seconds, 0]);
    case 'm':
      return clock.build([year, month, day, hours, minutes, 0, 0]);
    case 'h':
      return clock.build([year, month, day, hours, 0, 0, 0]);
    case 'd':
      return clock.build([year, month, day, 0, 0, 0, 0]);
    case 'w':
      return clock.build([year, month, day - daysSinceMonday(date, clock), 0, 0, 0, 0]);
    case 'M':
      return clock.build([year, month, 1, 0, 0, 0, 0]);
    case 'y':
      return clock.build([year, 0, 1, 0, 0, 0, 0]);
  }
}

function endOf(date: Date, unit: RelativeTimeUnit, clock: Clock): Date {
  const [year, month, day, hours, minutes, seconds] = clock.read(date);
  switch (unit) {
    case 'ms':
      return date;
    case 's':
      return clock.build([year, month, day, hours, minutes, seconds, 999]);
    case 'm':
      return clock.build([year, month, day, hours, minutes, 59, 999]);
    case 'h':
      return clock.build([year, month, day, hours, 59, 59, 999]);
    case 'd':
      return clock.build([year, month, day, 23, 59, 59, 999]);
    case 'w':
      return clock.build([year, month, day + 6 - daysSinceMonday(date, clock), 23, 59, 59, 999]);
    case 'M':
      return clock.build([year, month, daysInMonth(year, month), 23, 59, 59, 999]);
    case 'y':
      return clock.build([year, 11, 31, 23, 59, 59, 999]);
  }
}
