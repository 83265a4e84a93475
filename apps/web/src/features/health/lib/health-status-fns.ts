import type { CheckLatency, CheckUptime } from '@lookout/contracts';
import { formatDistanceStrict } from 'date-fns';

/** The four colours of a health status dot (spec 1 section 4). */
export type HealthDotColour = 'red' | 'grey' | 'orange' | 'green';

const RED = new Set(['degraded', 'missing', 'unhealthy', 'false']);
const GREY = new Set(['unknown', 'suspended']);
const ORANGE = new Set(['warning', 'warn', 'mixed']);

/**
 * Colour of a health status dot (spec 1 section 4): red for degraded, missing, unhealthy or
 * false; grey for unknown or suspended; orange for warning, warn or mixed; otherwise green.
 * A check that never ran (no status) is unknown.
 */
export function healthDotColour(status: string | boolean | null | undefined): HealthDotColour {
  if (status === null || status === undefined || status === '') return 'grey';
  const value = String(status).toLowerCase();
  if (RED.has(value)) return 'red';
  if (GREY.has(value)) return 'grey';
  if (ORANGE.has(value)) return 'orange';
  return 'green';
}

/** A group's health (spec 2 section 4): good when all are healthy, bad when all are not, else mixed. */
export type GroupHealth = 'healthy' | 'unhealthy' | 'mixed' | 'unknown';

export function groupHealth(statuses: readonly (string | null)[]): GroupHealth {
  const healthy = statuses.filter((status) => status === 'healthy').length;
  const unhealthy = statuses.filter((status) => status === 'unhealthy').length;
  if (healthy + unhealthy === 0) return 'unknown';
  if (healthy === statuses.length) return 'healthy';
  if (unhealthy === statuses.length) return 'unhealthy';
  return 'mixed';
}

/** Uptime in percent (0-100), or undefined without runs. */
export function uptimePercent(uptime: Pick<CheckUptime, 'passed' | 'failed'>): number | undefined {
  const total = uptime.passed + uptime.failed;
  return total === 0 ? undefined : (uptime.passed / total) * 100;
}

/** The latency the table shows: p95, else p97, else p99 (as the original). */
export function displayLatency(latency: CheckLatency): number | undefined {
  return latency.p95 ?? latency.p97 ?? latency.p99 ?? undefined;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * '5 minutes ago' for a time in the past whose age is within (minMs, maxMs]; undefined
 * otherwise, so a cell shows nothing rather than a meaningless age.
 */
export function relativeAge(
  value: string | null | undefined,
  now: Date,
  { minMs = 0, maxMs = Number.POSITIVE_INFINITY }: { minMs?: number; maxMs?: number } = {},
): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  const age = now.getTime() - date.getTime();
  if (Number.isNaN(age) || age <= minMs || age > maxMs) return undefined;
  return `${formatDistanceStrict(date, now)} ago`;
}

/** The Transition column shows a relative age only between 0 and 7 days (spec 2 section 2.2). */
export function transitionAge(value: string | null | undefined, now: Date): string | undefined {
  return relativeAge(value, now, { minMs: 0, maxMs: 7 * DAY_MS });
}

/** The Health column shows the age of the last run only from over 1 hour (spec 2 section 2.2). */
export function staleRunAge(value: string | null | undefined, now: Date): string | undefined {
  return relativeAge(value, now, { minMs: HOUR_MS });
}

/** Within this much of now a time reads 'just now': the page's clock and the server's differ a little. */
const JUST_NOW_MS = 5_000;

/** '3 minutes ago' or 'in 20 seconds', for the drawer's Last Run, Transitioned and Next Run. */
export function ageFromNow(value: string | null | undefined, now: Date): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  if (Math.abs(date.getTime() - now.getTime()) < JUST_NOW_MS) return 'just now';
  const distance = formatDistanceStrict(date, now);
  return date.getTime() <= now.getTime() ? `${distance} ago` : `in ${distance}`;
}

/** Ranges the drawer's default time range is bucketed into, shortest first (picker option form). */
const DEFAULT_RANGE_BUCKETS: readonly { option: string; ms: number }[] = [
  { option: '1h', ms: HOUR_MS },
  { option: '3h', ms: 3 * HOUR_MS },
  { option: '6h', ms: 6 * HOUR_MS },
  { option: '12h', ms: 12 * HOUR_MS },
  { option: '1d', ms: DAY_MS },
  { option: '2d', ms: 2 * DAY_MS },
  { option: '3d', ms: 3 * DAY_MS },
  { option: '1w', ms: 7 * DAY_MS },
  { option: '2w', ms: 14 * DAY_MS },
  { option: '3w', ms: 21 * DAY_MS },
  { option: '1mo', ms: 31 * DAY_MS },
  { option: '2mo', ms: 62 * DAY_MS },
  { option: '3mo', ms: 92 * DAY_MS },
  { option: '6mo', ms: 183 * DAY_MS },
  { option: '1y', ms: 366 * DAY_MS },
  { option: '2y', ms: 731 * DAY_MS },
  { option: '3y', ms: 1096 * DAY_MS },
  { option: '5y', ms: 1827 * DAY_MS },
];

/**
 * The drawer's default time range (spec 2 section 4): the smallest of 1h … 5y that still
 * covers the check's last run, so a check that last ran yesterday opens on a range that
 * shows that run.
 */
export function defaultRangeOption(lastRuntime: string | null | undefined, now: Date): string {
  const last = lastRuntime ? new Date(lastRuntime).getTime() : Number.NaN;
  if (Number.isNaN(last)) return '1h';
  const age = now.getTime() - last;
  return DEFAULT_RANGE_BUCKETS.find((bucket) => age <= bucket.ms)?.option ?? '5y';
}
