import {
  HEALTH_REFRESH_DISABLED_FROM,
  HEALTH_REFRESH_RATES,
  REFRESH_RATE_NONE,
  type HealthRefreshRate,
} from '@lookout/contracts';

/** Where the dashboard keeps its refresh rate (spec 2 section 4: local storage; None clears it). */
export const HEALTH_REFRESH_STORAGE_KEY = 'lookout.health.refresh-rate';

/** A stored or chosen value as one of the dashboard's rates; anything else is None. */
export function toHealthRefreshRate(value: string | null | undefined): HealthRefreshRate {
  return (HEALTH_REFRESH_RATES as readonly string[]).includes(value ?? '')
    ? (value as HealthRefreshRate)
    : REFRESH_RATE_NONE;
}

/**
 * Rates disabled for a time range this long (spec 2 section 4): 15s and 30s from 1 hour on,
 * 2m and 3m from 3 hours on. Polling a long range that often would recompute a large summary
 * for changes too small to see.
 */
export function disabledRefreshRates(rangeMs: number | undefined): Set<HealthRefreshRate> {
  const disabled = new Set<HealthRefreshRate>();
  if (rangeMs === undefined) return disabled;
  for (const rule of HEALTH_REFRESH_DISABLED_FROM) {
    if (rangeMs >= rule.rangeMs) for (const rate of rule.rates) disabled.add(rate);
  }
  return disabled;
}

/**
 * The rate in effect: the chosen one, or, when the range disables it, the next slower rate
 * that is allowed (spec 2 section 4: a disabled selected rate falls back to another).
 */
export function effectiveRefreshRate(rate: HealthRefreshRate, rangeMs: number | undefined): HealthRefreshRate {
  const disabled = disabledRefreshRates(rangeMs);
  if (!disabled.has(rate)) return rate;
  const index = HEALTH_REFRESH_RATES.indexOf(rate);
  return HEALTH_REFRESH_RATES.slice(index + 1).find((next) => !disabled.has(next)) ?? REFRESH_RATE_NONE;
}
