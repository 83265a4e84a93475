import { timeRangeKey, timeRangeToBounds, type TimeRange } from '@/components/ui/time-range-picker';

/** The summary endpoint's range parameters (`timeRange`, or `start` and `end`). */
export type SummaryRangeParams = { timeRange: string } | { start: string; end: string };

/**
 * How a picker range is asked of `GET /api/canary/api/summary`. A past relative range is sent
 * as is (`now-1h`), so the server resolves "now" and the query key stays the same between
 * polls; absolute and quick ranges are resolved to instants when the request is made.
 */
export function summaryRangeParams(range: TimeRange, now: Date): SummaryRangeParams | undefined {
  if (range.type === 'relative' && range.range.startsWith('now-')) return { timeRange: range.range };
  const bounds = timeRangeToBounds(range, now);
  return bounds ? { start: bounds.from.toISOString(), end: bounds.to.toISOString() } : undefined;
}

/** A stable identity of a range for query keys. */
export const summaryRangeKey = (range: TimeRange): string => timeRangeKey(range);
