import { TIME_RANGE_OPTIONS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  absoluteTimeRange,
  addRecentTimeRange,
  applyTimeRangeToParams,
  FUTURE_TIME_RANGES,
  parseDateTimeInput,
  parseDurationOption,
  PAST_TIME_RANGES,
  QUICK_TIME_RANGES,
  relativeTimeRange,
  timeRangeFromParams,
  timeRangeToBounds,
  timeRangeToParams,
  type MappedTimeRange,
  type TimeRange,
} from '@/components/ui/time-range-picker/time-range-fns';

// Wednesday 2024-05-15 14:30:45.500 local time.
const now = new Date(2024, 4, 15, 14, 30, 45, 500);

function quick(display: string): MappedTimeRange {
  const range = QUICK_TIME_RANGES.find((item) => item.display === display);
  if (!range) throw new Error(`no quick range ${display}`);
  return range;
}

describe('relative ranges', () => {
  it('reads picker options, with mo for months', () => {
    expect(parseDurationOption('15m')).toEqual({ amount: 15, unit: 'm' });
    expect(parseDurationOption('3mo')).toEqual({ amount: 3, unit: 'M' });
    expect(parseDurationOption('0m')).toBeUndefined();
    expect(parseDurationOption('now-15m')).toBeUndefined();
  });

  it('labels past and future ranges', () => {
    expect(relativeTimeRange('15m')).toEqual({ type: 'relative', display: 'Last 15 minutes', range: 'now-15m' });
    expect(relativeTimeRange('1h')).toEqual({ type: 'relative', display: 'Last 1 hour', range: 'now-1h' });
    expect(relativeTimeRange('1h', 'future')).toEqual({ type: 'relative', display: 'Next 1 hour', range: 'now+1h' });
    expect(relativeTimeRange('1mo')?.display).toBe('Last 1 month');
    expect(relativeTimeRange('2w')?.display).toBe('Last 2 weeks');
  });

  it('offers every time range option both ways', () => {
    expect(PAST_TIME_RANGES).toHaveLength(TIME_RANGE_OPTIONS.length);
    expect(FUTURE_TIME_RANGES).toHaveLength(TIME_RANGE_OPTIONS.length);
    expect(PAST_TIME_RANGES.at(0)?.display).toBe('Last 15 minutes');
    expect(PAST_TIME_RANGES.at(-1)?.display).toBe('Last 5 years');
    expect(FUTURE_TIME_RANGES.at(1)?.display).toBe('Next 1 hour');
  });

  it('bounds past ranges up to now and future ranges from now', () => {
    expect(timeRangeToBounds({ type: 'relative', display: '', range: 'now-1h' }, now)).toEqual({
      from: new Date(2024, 4, 15, 13, 30, 45, 500),
      to: now,
    });
    expect(timeRangeToBounds({ type: 'relative', display: '', range: 'now+2d' }, now)).toEqual({
      from: now,
      to: new Date(2024, 4, 17, 14, 30, 45, 500),
    });
  });
});

describe('quick ranges', () => {
  it('offers the seven quick ranges', () => {
    expect(QUICK_TIME_RANGES.map((range) => range.display)).toEqual([
      'Today so far',
      'Yesterday',
      'This week so far',
      'Previous week',
      'This month so far',
      'Previous month',
      'This year so far',
    ]);
  });

  it('computes Today so far', () => {
    expect(timeRangeToBounds(quick('Today so far'), now)).toEqual({ from: new Date(2024, 4, 15), to: now });
  });

  it('computes Yesterday as the whole previous day', () => {
    expect(timeRangeToBounds(quick('Yesterday'), now)).toEqual({
      from: new Date(2024, 4, 14, 0, 0, 0, 0),
      to: new Date(2024, 4, 14, 23, 59, 59, 999),
    });
  });

  it('computes This week so far from Monday', () => {
    expect(timeRangeToBounds(quick('This week so far'), now)).toEqual({ from: new Date(2024, 4, 13), to: now });
  });

  it('computes This week so far on a Sunday from the Monday before', () => {
    const sunday = new Date(2024, 4, 19, 9, 0);
    expect(timeRangeToBounds(quick('This week so far'), sunday)).toEqual({ from: new Date(2024, 4, 13), to: sunday });
  });

  it('computes Previous week as Monday to Sunday', () => {
    expect(timeRangeToBounds(quick('Previous week'), now)).toEqual({
      from: new Date(2024, 4, 6),
      to: new Date(2024, 4, 12, 23, 59, 59, 999),
    });
  });

  it('computes the month and year ranges', () => {
    expect(timeRangeToBounds(quick('This month so far'), now)).toEqual({ from: new Date(2024, 4, 1), to: now });
    expect(timeRangeToBounds(quick('Previous month'), now)).toEqual({
      from: new Date(2024, 3, 1),
      to: new Date(2024, 3, 30, 23, 59, 59, 999),
    });
    expect(timeRangeToBounds(quick('This year so far'), now)).toEqual({ from: new Date(2024, 0, 1), to: now });
  });
});

describe('absolute ranges', () => {
  it('parses the input formats', () => {
    expect(parseDateTimeInput('2024-05-01 10:20:30')).toEqual(new Date(2024, 4, 1, 10, 20, 30));
    expect(parseDateTimeInput('2024-05-01 10:20')).toEqual(new Date(2024, 4, 1, 10, 20));
    expect(parseDateTimeInput('2024-05-01')).toEqual(new Date(2024, 4, 1));
    expect(parseDateTimeInput('2024-05-01T10:20:30.000Z')).toEqual(new Date(Date.UTC(2024, 4, 1, 10, 20, 30)));
    expect(parseDateTimeInput('')).toBeUndefined();
    expect(parseDateTimeInput('2024-13-45')).toBeUndefined();
    expect(parseDateTimeInput('soon')).toBeUndefined();
  });

  it('stores ISO timestamps and a readable display', () => {
    const range = absoluteTimeRange(new Date(2024, 4, 1, 8, 0), new Date(2024, 4, 2, 17, 30));
    expect(range.display).toBe('2024-05-01 08:00 to 2024-05-02 17:30');
    expect(timeRangeToBounds(range, now)).toEqual({
      from: new Date(2024, 4, 1, 8, 0),
      to: new Date(2024, 4, 2, 17, 30),
    });
  });
});

describe('recently used ranges', () => {
  const last = (option: string) => relativeTimeRange(option) as TimeRange;

  it('puts the newest first, without duplicates', () => {
    let recent: TimeRange[] = [];
    recent = addRecentTimeRange(recent, last('15m'));
    recent = addRecentTimeRange(recent, last('1h'));
    recent = addRecentTimeRange(recent, last('15m'));
    expect(recent.map((range) => range.display)).toEqual(['Last 15 minutes', 'Last 1 hour']);
  });

  it('keeps at most 4', () => {
    const recent = ['15m', '1h', '2h', '3h', '6h'].reduce<TimeRange[]>(
      (list, option) => addRecentTimeRange(list, last(option)),
      [],
    );
    expect(recent.map((range) => range.display)).toEqual([
      'Last 6 hours',
      'Last 3 hours',
      'Last 2 hours',
      'Last 1 hour',
    ]);
  });
});

describe('URL parameters', () => {
  const roundTrip = (range: TimeRange) => timeRangeFromParams(applyTimeRangeToParams(new URLSearchParams(), range));

  it('writes rangeType, display and range for a relative range', () => {
    const range = relativeTimeRange('15m') as TimeRange;
    expect(timeRangeToParams(range)).toEqual({ rangeType: 'relative', display: 'Last 15 minutes', range: 'now-15m' });
    expect(roundTrip(range)).toEqual(range);
  });

  it('writes from and to for absolute and mapped ranges', () => {
    const absolute = absoluteTimeRange(new Date(2024, 4, 1), new Date(2024, 4, 2));
    expect(roundTrip(absolute)).toEqual(absolute);
    const yesterday = quick('Yesterday');
    expect(timeRangeToParams(yesterday)).toEqual({
      rangeType: 'mapped',
      display: 'Yesterday',
      from: 'now-1d/d',
      to: 'now-1d/d',
    });
    expect(roundTrip(yesterday)).toEqual(yesterday);
  });

  it('keeps other parameters and drops stale time-range ones', () => {
    const params = new URLSearchParams('tab=all&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z&timeRange=now-1h');
    const next = applyTimeRangeToParams(params, relativeTimeRange('1d'));
    expect(next.toString()).toBe('tab=all&rangeType=relative&display=Last+1+day&range=now-1d');
    expect(applyTimeRangeToParams(next, undefined).toString()).toBe('tab=all');
  });

  it('reads the short timeRange parameter as a relative range', () => {
    expect(timeRangeFromParams(new URLSearchParams('timeRange=now-1h'))).toEqual({
      type: 'relative',
      display: 'Last 1 hour',
      range: 'now-1h',
    });
    expect(timeRangeFromParams(new URLSearchParams('timeRange=2d'))).toEqual({
      type: 'relative',
      display: 'Last 2 days',
      range: 'now-2d',
    });
  });

  it('ignores invalid parameters', () => {
    expect(timeRangeFromParams(new URLSearchParams(''))).toBeUndefined();
    expect(timeRangeFromParams(new URLSearchParams('rangeType=relative&range=soon'))).toBeUndefined();
    expect(timeRangeFromParams(new URLSearchParams('rangeType=absolute&from=x&to=y'))).toBeUndefined();
    expect(timeRangeFromParams(new URLSearchParams('rangeType=weekly&range=now-1h'))).toBeUndefined();
  });

  it('reads any spelling of the time grammar and keeps its now form', () => {
    expect(timeRangeFromParams(new URLSearchParams('rangeType=relative&range=1mo'))).toEqual({
      type: 'relative',
      display: 'Last 1 month',
      range: 'now-1M',
    });
    expect(timeRangeFromParams(new URLSearchParams('rangeType=relative&range=now-1mo'))).toMatchObject({
      range: 'now-1M',
    });
  });

  it('fills in a missing display', () => {
    expect(timeRangeFromParams(new URLSearchParams('rangeType=relative&range=now+1w'))?.display).toBe('Next 1 week');
  });
});
