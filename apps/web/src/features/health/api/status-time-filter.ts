import { timeRangeToBounds, type TimeRange } from '@/components/ui/time-range-picker';

/**
 * The data API filter on a time column for a picker range: `{column}=gt.{from}` for a range
 * that ends now, `and=({column}.gte.{from},{column}.lte.{to})` for one with an end of its own.
 * Resolved when the request is made, so a relative range always means "until now".
 */
export function timeColumnFilter(column: string, range: TimeRange, now: Date): Record<string, string> {
  const bounds = timeRangeToBounds(range, now);
  if (!bounds) return {};
  const from = bounds.from.toISOString();
  const endsNow = Math.abs(bounds.to.getTime() - now.getTime()) < 1000;
  if (endsNow) return { [column]: `gt.${from}` };
  return { and: `(${column}.gte.${from},${column}.lte.${bounds.to.toISOString()})` };
}
