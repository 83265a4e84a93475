import { format } from 'date-fns';

/** Shown for a missing or non-numeric value, so table cells never read "NaN" or "undefined". */
export const MISSING_VALUE = '-';

const DURATION_UNITS = [
  { suffix: 'ms', size: 1, below: 1_000 },
  { suffix: 's', size: 1_000, below: 60_000 },
  { suffix: 'm', size: 60_000, below: 3_600_000 },
  { suffix: 'h', size: 3_600_000, below: Number.POSITIVE_INFINITY },
] as const;

/** Rounds to at most two decimals; `String()` then drops trailing zeros ('12.5', not '12.50'). */
function roundTwo(value: number): number {
  return Math.round(value * 100) / 100;
}

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Formats a duration given in milliseconds (spec 1, section 9): under 1000 ms in ms, under
 * 60000 ms in seconds, under 3600000 ms in minutes, otherwise in hours; at most two decimals
 * without trailing zeros ('250ms', '12.5s', '1.5m', '26h'). A value that rounds up to the next
 * unit's threshold moves to that unit (59999 ms is '1m', not '60s').
 */
export function formatDuration(ms: number | null | undefined): string {
  if (!isNumber(ms)) return MISSING_VALUE;
  const sign = ms < 0 ? '-' : '';
  const magnitude = Math.abs(ms);
  for (const unit of DURATION_UNITS) {
    const value = roundTwo(magnitude / unit.size);
    if (value * unit.size < unit.below) return `${sign}${value}${unit.suffix}`;
  }
  return MISSING_VALUE;
}

/**
 * Formats a percentage given on a 0-100 scale with one decimal (spec 1, section 9):
 * 99.5 is '99.5%', 100 is '100.0%'.
 */
export function formatPercentage(value: number | null | undefined): string {
  if (!isNumber(value)) return MISSING_VALUE;
  // toFixed(1) can produce '-0.0' for tiny negatives; that is noise, not a value.
  const fixed = value.toFixed(1);
  return `${fixed === '-0.0' ? '0.0' : fixed}%`;
}

/**
 * Formats a timestamp (ISO text or Date) as local date and minutes, '2024-10-02 14:05';
 * a missing or unreadable value reads '-'.
 */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return MISSING_VALUE;
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return MISSING_VALUE;
  return format(date, 'yyyy-MM-dd HH:mm');
}
