import { CATALOG_CHANGES_DEFAULTS } from '@lookout/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  applyTimeRangeToParams,
  relativeTimeRange,
  timeRangeFromParams,
  type TimeRange,
} from '@/components/ui/time-range-picker';
import { applyChangesParams, parseChangesParams, type ChangesParams } from '../lib/changes-params';

/** The default range, relative 7 days: 'Last 7 days' in the picker. */
export const CHANGES_DEFAULT_RANGE: TimeRange = relativeTimeRange(
  CATALOG_CHANGES_DEFAULTS.range.replace(/^now-/, ''),
) ?? { type: 'relative', display: CATALOG_CHANGES_DEFAULTS.range, range: CATALOG_CHANGES_DEFAULTS.range };

export type ChangesUpdate = Partial<ChangesParams> & { range?: TimeRange | null };

/**
 * The changes filters, page and order from the address, the time range (the shared picker's
 * parameters; `null` removes it, back to the default), and a setter that merges changes.
 * Paging and sorting replace the history entry; filter changes push one.
 */
export function useChangesParams(): {
  params: ChangesParams;
  range: TimeRange;
  rangeIsDefault: boolean;
  update: (change: ChangesUpdate) => void;
} {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parseChangesParams(search), [search]);
  const fromUrl = useMemo(() => timeRangeFromParams(search), [search]);
  const update = useCallback(
    ({ range, ...change }: ChangesUpdate) => {
      const quiet = range === undefined && Object.keys(change).every((key) => key === 'page');
      setSearch(
        (current) => {
          const withRange =
            range === undefined ? current : applyTimeRangeToParams(current, range === null ? undefined : range);
          return applyChangesParams(withRange, range === undefined ? change : { ...change, page: 1 });
        },
        { replace: quiet },
      );
    },
    [setSearch],
  );
  return { params, range: fromUrl ?? CHANGES_DEFAULT_RANGE, rangeIsDefault: fromUrl === undefined, update };
}
