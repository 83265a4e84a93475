import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Pure rules of the metrics module: the labels a check's series carry (canary-checker's), the
 * route label of an HTTP request, and the metrics token check.
 */

/** Where the metrics are served, on the main port or on LOOKOUT_METRICS_PORT's listener. */
export const METRICS_PATH = '/metrics';

/** A check as its result series name it. */
export type CheckMetricSubject = {
  /** The check's id: canary-checker's `key`. */
  id: string;
  type: string;
  name: string;
  canary: { name: string; namespace: string };
  /** What lists show as the target, credentials masked (checks.endpoint). */
  endpoint: string | null;
  owner: string | null;
  severity: string | null;
};

/** What one run of a check came to. */
export type CheckMetricResult = {
  status: boolean;
  /** The spec could not be run at all (counted as failed, and as invalid). */
  invalid: boolean;
  durationMs: number;
};

/** The labels of canary-checker's per-check counters and duration histogram, in its order. */
export const CHECK_LABEL_NAMES = [
  'type',
  'endpoint',
  'canary_name',
  'canary_namespace',
  'owner',
  'severity',
  'key',
  'name',
] as const;
export type CheckLabelName = (typeof CHECK_LABEL_NAMES)[number];

/** The labels of canary-checker's `canary_check` gauge. */
export const CHECK_GAUGE_LABEL_NAMES = ['key', 'type', 'canary_name', 'canary_namespace', 'name'] as const;
export type CheckGaugeLabelName = (typeof CHECK_GAUGE_LABEL_NAMES)[number];

/** canary-checker's `canary_check_duration` buckets, in milliseconds, so its dashboards' `le` match. */
export const CHECK_DURATION_BUCKETS_MS = [5, 10, 25, 50, 200, 500, 1000, 3000, 10000, 30000];

/** A missing owner, severity or endpoint is an empty label, as canary-checker writes it. */
export function checkLabels(check: CheckMetricSubject): Record<CheckLabelName, string> {
  return {
    type: check.type,
    endpoint: check.endpoint ?? '',
    canary_name: check.canary.name,
    canary_namespace: check.canary.namespace,
    owner: check.owner ?? '',
    severity: check.severity ?? '',
    key: check.id,
    name: check.name,
  };
}

/** The route label of a request that matched no route (the web app's pages, unknown paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The `route` label of an HTTP request: the pattern it matched (`/api/canary/run/check/:id`),
 * never the raw URL, so ids and query strings cannot multiply the series.
 */
export function routeLabel(routePattern: string | undefined): string {
  return routePattern === undefined || routePattern === '' ? UNMATCHED_ROUTE : routePattern;
}

/** What a request to /metrics presented, against the configured token. */
export type TokenCheck = 'ok' | 'missing' | 'wrong';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Compares the presented token with the configured one in constant time (both are hashed
 * first, so neither their lengths nor a common prefix shows in the timing).
 */
export function checkMetricsToken(authorization: string | undefined, expected: string): TokenCheck {
  const given = bearerTokenOf(authorization);
  if (given === undefined) return 'missing';
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected)) ? 'ok' : 'wrong';
}

export const METRICS_TOKEN_MISSING_MESSAGE =
  'GET /metrics needs the metrics token: send the header Authorization: Bearer <LOOKOUT_METRICS_TOKEN>.';
export const METRICS_TOKEN_WRONG_MESSAGE =
  'The bearer token sent to GET /metrics is not LOOKOUT_METRICS_TOKEN (a sign-in session does not open it).';
