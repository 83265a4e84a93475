import { HEALTH_REFRESH_RATES, type HealthRefreshRate } from '@lookout/contracts';
import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import { toHealthRefreshRate } from '../lib/health-refresh-fns';

export interface HealthRefreshSelectProps {
  value: HealthRefreshRate;
  /** Rates the current time range does not allow (spec 2 section 4). */
  disabled: ReadonlySet<HealthRefreshRate>;
  onChange: (rate: HealthRefreshRate) => void;
}

/**
 * The dashboard's auto-refresh select (spec 2 section 4): None, 15s … 15m, with the rates the
 * time range forbids disabled.
 */
export function HealthRefreshSelect({ value, disabled, onChange }: HealthRefreshSelectProps) {
  const id = useId();
  return (
    <div className="relative inline-flex items-center">
      <label htmlFor={id} className="sr-only">
        Refresh rate
      </label>
      <RefreshCw aria-hidden className="pointer-events-none absolute left-2 size-3.5 text-gray-500" />
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(toHealthRefreshRate(event.target.value))}
        className="h-8 rounded border border-gray-300 bg-white pr-2 pl-7 text-sm text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        {HEALTH_REFRESH_RATES.map((rate) => (
          <option key={rate} value={rate} disabled={disabled.has(rate)}>
            {rate}
          </option>
        ))}
      </select>
    </div>
  );
}
