import {
  formatRelativeTime,
  parseRelativeTime,
  RECENT_TIME_RANGES_LIMIT,
  resolveRelativeTime,
  TIME_RANGE_OPTIONS,
  TIME_RANGE_PARAMS,
  type RelativeTimeUnit,
  type TimeRangeType,
} from '@lookout/contracts';
import { format, isValid, parse, parseISO } from 'date-fns';

/** A range relative to now, such as the last 15 minutes (`range` is `now-15m`). */
export type RelativeTimeRange = { type: 'relative'; display: string; range: string };
/** A fixed range; `from` and `to` are ISO 8601 timestamps. */
export type AbsoluteTimeRange = { type: 'absolute'; display: string; from: string; to: string };
/** A named quick range; `from` and `to` are expressions such as `now/d` resolved when used. */
export type MappedTimeRange = { type: 'mapped'; display: string; from: string; to: string };
/** A time range value (spec 1, section 3). */
export type TimeRange = RelativeTimeRange | AbsoluteTimeRange | MappedTimeRange;

export type TimeBounds = { from: Date; to: Date };

export type TimeRangeParam = (typeof TIME_RANGE_PARAMS)[number];

const UNIT_NAMES: Record<RelativeTimeUnit, string> = {
  ms: 'millisecond',
  s: 'second',
  m: 'minute',
  h: 'hour',
  d: 'day',
  w: 'week',
  M: 'month',
  y: 'year',
};

/**
 * An option such as '15m' or '1mo' as an amount and unit: a bare span of the one time grammar
 * (`@lookout/contracts`), longer than nothing.
 */
export function parseDurationOption(option: string): { amount: number; unit: RelativeTimeUnit } | undefined {
  const text = option.trim();
  const [offset] = text.startsWith('now') ? [] : (parseRelativeTime(text)?.offsets ?? []);
  return offset && offset.amount < 0 ? { amount: -offset.amount, unit: offset.unit } : undefined;
}

/** '15 minutes', '1 hour', '2 days'. */
export function durationLabel(amount: number, unit: RelativeTimeUnit): string {
  return `${amount} ${UNIT_NAMES[unit]}${amount === 1 ? '' : 's'}`;
}

export type TimeDirection = 'past' | 'future';

/** The relative range for a picker option: '15m' is 'Last 15 minutes' (`now-15m`), or 'Next ...'. */
export function relativeTimeRange(option: string, direction: TimeDirection = 'past'): RelativeTimeRange | undefined {
  const duration = parseDurationOption(option);
  if (!duration) return undefined;
  const { amount, unit } = duration;
  const past = direction === 'past';
  return {
    type: 'relative',
    display: `${past ? 'Last' : 'Next'} ${durationLabel(amount, unit)}`,
    range: `now${past ? '-' : '+'}${amount}${unit}`,
  };
}

function optionRanges(direction: TimeDirection): RelativeTimeRange[] {
  return TIME_RANGE_OPTIONS.flatMap((option) => relativeTimeRange(option, direction) ?? []);
}

/** 'Last 15 minutes' ... 'Last 5 years'. */
export const PAST_TIME_RANGES: ReadonlyArray<RelativeTimeRange> = optionRanges('past');
/** 'Next 15 minutes' ... 'Next 5 years'. */
export const FUTURE_TIME_RANGES: ReadonlyArray<RelativeTimeRange> = optionRanges('future');

/** Quick ranges; "previous" ranges round both ends to whole days, weeks or months. */
export const QUICK_TIME_RANGES: ReadonlyArray<MappedTimeRange> = [
  { type: 'mapped', display: 'Today so far', from: 'now/d', to: 'now' },
  { type: 'mapped', display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' },
  { type: 'mapped', display: 'This week so far', from: 'now/w', to: 'now' },
  { type: 'mapped', display: 'Previous week', from: 'now-1w/w', to: 'now-1w/w' },
  { type: 'mapped', display: 'This month so far', from: 'now/M', to: 'now' },
  { type: 'mapped', display: 'Previous month', from: 'now-1M/M', to: 'now-1M/M' },
  { type: 'mapped', display: 'This year so far', from: 'now/y', to: 'now' },
];

/** A relative `range` as a `now` expression; a bare duration ('15m', as older links carry) means the past. */
function rangeExpression(range: string): string | undefined {
  const time = parseRelativeTime(range);
  return time ? formatRelativeTime(time) : undefined;
}

/** A point given as an expression (`now-1d/d`, rounded in the viewer's time zone) or an ISO timestamp. */
function resolveTimePoint(point: string, now: Date, roundUp: boolean): Date | undefined {
  const relative = resolveRelativeTime(point, now, { roundUp, calendar: 'local' });
  if (relative) return relative;
  const date = parseISO(point);
  return isValid(date) ? date : undefined;
}

/** The concrete instants a time range covers at `now`. */
export function timeRangeToBounds(range: TimeRange, now: Date): TimeBounds | undefined {
  if (range.type === 'relative') {
    const expression = rangeExpression(range.range);
    const edge = expression ? resolveRelativeTime(expression, now, { calendar: 'local' }) : undefined;
    if (!edge) return undefined;
    return edge <= now ? { from: edge, to: now } : { from: now, to: edge };
  }
  const from = resolveTimePoint(range.from, now, false);
  const to = resolveTimePoint(range.to, now, true);
  return from && to ? { from, to } : undefined;
}

/** The format of the From and To inputs. */
export const DATE_TIME_INPUT_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const INPUT_FORMATS = [DATE_TIME_INPUT_FORMAT, 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd'] as const;

export function formatDateTimeInput(date: Date): string {
  return format(date, DATE_TIME_INPUT_FORMAT);
}

/** Reads a From/To input: 'yyyy-MM-dd HH:mm:ss', without seconds or time, or ISO 8601. */
export function parseDateTimeInput(text: string): Date | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  for (const pattern of INPUT_FORMATS) {
    const date = parse(trimmed, pattern, new Date(0));
    if (isValid(date)) return date;
  }
  const iso = parseISO(trimmed);
  return isValid(iso) ? iso : undefined;
}

/** An absolute range; `display` reads '2024-05-01 00:00 to 2024-05-02 12:30'. */
export function absoluteTimeRange(from: Date, to: Date): AbsoluteTimeRange {
  return {
    type: 'absolute',
    display: `${format(from, 'yyyy-MM-dd HH:mm')} to ${format(to, 'yyyy-MM-dd HH:mm')}`,
    from: from.toISOString(),
    to: to.toISOString(),
  };
}

/** Identity of a range, ignoring its display text (for list keys and duplicate checks). */
export function timeRangeKey(range: TimeRange): string {
  return range.type === 'relative' ? `relative|${range.range}` : `${range.type}|${range.from}|${range.to}`;
}

/** Whether two values mean the same range (the display text does not matter). */
export function isSameTimeRange(a: TimeRange, b: TimeRange): boolean {
  return timeRangeKey(a) === timeRangeKey(b);
}

/** Puts `range` first in the recent list, without duplicates, keeping at most `limit`. */
export function addRecentTimeRange(
  recent: ReadonlyArray<TimeRange>,
  range: TimeRange,
  limit: number = RECENT_TIME_RANGES_LIMIT,
): TimeRange[] {
  return [range, ...recent.filter((item) => !isSameTimeRange(item, range))].slice(0, limit);
}

function isTimeRangeType(value: unknown): value is TimeRangeType {
  return value === 'relative' || value === 'absolute' || value === 'mapped';
}

/** Builds a checked time range from loose parts (URL, storage); `undefined` when invalid. */
export function toTimeRange(parts: {
  type?: unknown;
  display?: unknown;
  range?: unknown;
  from?: unknown;
  to?: unknown;
}): TimeRange | undefined {
  const { type, display, range, from, to } = parts;
  if (!isTimeRangeType(type)) return undefined;
  const text = typeof display === 'string' && display.trim() ? display : undefined;
  // Validity does not depend on the moment; a fixed one keeps this function pure.
  const now = new Date(0);
  if (type === 'relative') {
    if (typeof range !== 'string') return undefined;
    const expression = rangeExpression(range);
    if (!expression) return undefined;
    const value: RelativeTimeRange = { type, display: text ?? '', range: expression };
    if (!timeRangeToBounds(value, now)) return undefined;
    return { ...value, display: text ?? defaultRelativeDisplay(expression) };
  }
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  const value = { type, display: text ?? `${from} to ${to}`, from, to };
  return timeRangeToBounds(value, now) ? value : undefined;
}

function defaultRelativeDisplay(expression: string): string {
  const known = [...PAST_TIME_RANGES, ...FUTURE_TIME_RANGES].find((item) => item.range === expression);
  return known?.display ?? expression;
}

/** The URL parameters of a range (spec 1, section 9): rangeType, display, and range or from/to. */
export function timeRangeToParams(range: TimeRange): Partial<Record<TimeRangeParam, string>> {
  if (range.type === 'relative') return { rangeType: range.type, display: range.display, range: range.range };
  return { rangeType: range.type, display: range.display, from: range.from, to: range.to };
}

/**
 * Reads a range from URL parameters. Links that carry only the short `timeRange` parameter
 * (a relative range such as `now-1h` or `1h`) are read as that relative range.
 */
export function timeRangeFromParams(params: URLSearchParams): TimeRange | undefined {
  // A hand-written `now+1h` arrives as `now 1h` ('+' means space in a query string).
  const read = (name: TimeRangeParam) => params.get(name)?.replaceAll(' ', '+');
  const rangeType = params.get('rangeType');
  if (rangeType) {
    return toTimeRange({
      type: rangeType,
      display: params.get('display'),
      range: read('range'),
      from: read('from'),
      to: read('to'),
    });
  }
  const shortForm = read('timeRange');
  return shortForm ? toTimeRange({ type: 'relative', range: shortForm }) : undefined;
}

/** A copy of `params` with every time-range parameter replaced by those of `range` (or removed). */
export function applyTimeRangeToParams(params: URLSearchParams, range: TimeRange | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of TIME_RANGE_PARAMS) next.delete(name);
  if (range) {
    for (const [name, value] of Object.entries(timeRangeToParams(range))) next.set(name, value);
  }
  return next;
}
