import { REFRESH_RATE_NONE } from '@lookout/contracts';
import { clsx } from 'clsx';
import { RefreshCw } from 'lucide-react';
import { useCallback, useId } from 'react';
import { useSearchParams } from 'react-router';
import { normalizeRefreshRate, REFRESH_RATE_OPTIONS, REFRESH_RATE_PARAM } from '@/components/ui/refresh-rate-fns';

/** Props of {@link RefreshRateSelect}. */
export type RefreshRateSelectProps = {
  /** The current rate, 'None' or a rate such as '30s'. */
  value: string;
  onChange: (rate: string) => void;
  className?: string;
};

/** Picks how often a page refetches its data; 'None' by default (spec 1, section 4). */
export function RefreshRateSelect({ value, onChange, className }: RefreshRateSelectProps) {
  const id = useId();
  const current = normalizeRefreshRate(value);
  return (
    <div className={clsx('relative inline-flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        Refresh rate
      </label>
      <RefreshCw aria-hidden className="pointer-events-none absolute left-2 size-3.5 text-gray-500" />
      <select
        id={id}
        value={current}
        onChange={(event) => onChange(event.target.value)}
        className="h-8 rounded border border-gray-300 bg-white pr-2 pl-7 text-sm text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        {REFRESH_RATE_OPTIONS.map((rate) => (
          <option key={rate} value={rate}>
            {rate}
          </option>
        ))}
        {/* A valid rate from a shared link that is not in the list still shows as selected. */}
        {!(REFRESH_RATE_OPTIONS as ReadonlyArray<string>).includes(current) && (
          <option value={current}>{current}</option>
        )}
      </select>
    </div>
  );
}

/**
 * The refresh rate kept in the URL parameter `refresh`; 'None' removes the parameter.
 * Returns the rate and a setter, like `useState`.
 */
export function useRefreshRateParam(): [string, (rate: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const rate = normalizeRefreshRate(searchParams.get(REFRESH_RATE_PARAM));
  const setRate = useCallback(
    (next: string) => {
      setSearchParams(
        (previous) => {
          const params = new URLSearchParams(previous);
          const normalized = normalizeRefreshRate(next);
          if (normalized === REFRESH_RATE_NONE) params.delete(REFRESH_RATE_PARAM);
          else params.set(REFRESH_RATE_PARAM, normalized);
          return params;
        },
        // Changing how often a page refreshes is not a place to come back to with Back.
        { replace: true },
      );
    },
    [setSearchParams],
  );
  return [rate, setRate];
}
