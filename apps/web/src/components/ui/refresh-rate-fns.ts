import { parseDurationMs, REFRESH_RATE_NONE, REFRESH_RATE_UNITS } from '@lookout/contracts';

/** Rates the refresh-rate select offers, 'None' first (spec 1, section 4). */
export const REFRESH_RATE_OPTIONS = [
  REFRESH_RATE_NONE,
  '15s',
  '30s',
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '6h',
  '12h',
  '1d',
  '1w',
] as const;

/** The URL search parameter that holds the refresh rate. */
export const REFRESH_RATE_PARAM = 'refresh';

const RATE_PATTERN = new RegExp(`^([1-9]\\d*)(${REFRESH_RATE_UNITS.join('|')})$`);

/**
 * Milliseconds of a rate such as '15s' or '2h'; `undefined` for 'None' and anything that is
 * not a rate, so callers can write `refetchInterval: refreshRateToMs(rate) ?? false`.
 */
export function refreshRateToMs(rate: string | null | undefined): number | undefined {
  if (!rate || rate === REFRESH_RATE_NONE) return undefined;
  // A rate is one whole number of one unit: a duration of the time grammar, never '500ms' or '1h30m'.
  return RATE_PATTERN.test(rate.trim()) ? parseDurationMs(rate) : undefined;
}

/** The rate to use for a raw value (from the URL): valid rates pass, anything else is 'None'. */
export function normalizeRefreshRate(rate: string | null | undefined): string {
  if (!rate) return REFRESH_RATE_NONE;
  return refreshRateToMs(rate) === undefined ? REFRESH_RATE_NONE : rate.trim();
}
