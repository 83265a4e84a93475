import { RECENT_TIME_RANGES_LIMIT } from '@lookout/contracts';
import { addRecentTimeRange, toTimeRange, type TimeRange } from '@/components/ui/time-range-picker/time-range-fns';

/** Local-storage key of the recently used ranges, shared by every picker in the browser. */
export const RECENT_TIME_RANGES_KEY = 'lookout.time-range.recent';

/** Parses the stored list, keeping only valid ranges (it may come from an older version). */
export function parseRecentTimeRanges(raw: string | null): TimeRange[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .flatMap((item: unknown) => {
      if (typeof item !== 'object' || item === null) return [];
      const range = toTimeRange(item as Record<string, unknown>);
      return range ? [range] : [];
    })
    .slice(0, RECENT_TIME_RANGES_LIMIT);
}

export function readRecentTimeRanges(): TimeRange[] {
  try {
    return parseRecentTimeRanges(window.localStorage.getItem(RECENT_TIME_RANGES_KEY));
  } catch {
    // Storage may be disabled; the picker then simply has no recent ranges.
    return [];
  }
}

/** Records `range` as the most recently used one and returns the new list. */
export function rememberTimeRange(range: TimeRange): TimeRange[] {
  const next = addRecentTimeRange(readRecentTimeRanges(), range);
  try {
    window.localStorage.setItem(RECENT_TIME_RANGES_KEY, JSON.stringify(next));
  } catch {
    // Not remembering is harmless.
  }
  return next;
}
