import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  applyTimeRangeToParams,
  timeRangeFromParams,
  type TimeRange,
} from '@/components/ui/time-range-picker/time-range-fns';

/** Result of {@link useTimeRangeParams}. */
export type TimeRangeParamsState = {
  /** The range in the URL, else the default given to the hook. */
  timeRange: TimeRange | undefined;
  /** Writes the range to the URL (other parameters stay); `undefined` removes it. */
  setTimeRange: (range: TimeRange | undefined) => void;
};

/**
 * The time range kept in the URL parameters rangeType, display, from, to, range and
 * timeRange (spec 1, section 9), so a link or a reload shows the same range.
 */
export function useTimeRangeParams(defaultRange?: TimeRange): TimeRangeParamsState {
  const [searchParams, setSearchParams] = useSearchParams();
  const fromUrl = useMemo(() => timeRangeFromParams(searchParams), [searchParams]);
  const setTimeRange = useCallback(
    (range: TimeRange | undefined) => setSearchParams((previous) => applyTimeRangeToParams(previous, range)),
    [setSearchParams],
  );
  return { timeRange: fromUrl ?? defaultRange, setTimeRange };
}
