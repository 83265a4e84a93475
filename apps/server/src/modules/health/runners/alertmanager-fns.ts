import type { AlertmanagerCheck } from '@lookout/contracts';

/** An alert as Alertmanager's `/api/v2/alerts` returns it (the fields the check reads). */
export type AlertmanagerAlert = {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  fingerprint?: string;
  startsAt?: string;
  status?: { state?: string };
};

/** An alert as the check reports it and its expressions see it. */
export type FiringAlert = {
  name: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  fingerprint: string;
  startsAt: string | null;
};

/** Alertmanager matchers are anchored regular expressions; so are these. */
const anchored = (pattern: string) => new RegExp(`^(?:${pattern})$`);

type Matchers = Pick<AlertmanagerCheck, 'alerts' | 'filters' | 'exclude_filters' | 'ignore'>;

/**
 * Builds the predicate for the alerts a check cares about: name in `alerts` (any, when empty),
 * not in `ignore`, every `filters` label matching and no `exclude_filters` label matching. A
 * missing label is the empty string, as in Alertmanager.
 */
export function alertMatcher(matchers: Matchers): (alert: AlertmanagerAlert) => boolean {
  const names = (matchers.alerts ?? []).map(anchored);
  const ignored = (matchers.ignore ?? []).map(anchored);
  const required = Object.entries(matchers.filters ?? {}).map(
    ([label, pattern]) => [label, anchored(pattern)] as const,
  );
  const excluded = Object.entries(matchers.exclude_filters ?? {}).map(
    ([label, pattern]) => [label, anchored(pattern)] as const,
  );
  return (alert) => {
    const labels = alert.labels ?? {};
    const name = labels.alertname ?? '';
    if (names.length > 0 && !names.some((pattern) => pattern.test(name))) return false;
    if (ignored.some((pattern) => pattern.test(name))) return false;
    if (!required.every(([label, pattern]) => pattern.test(labels[label] ?? ''))) return false;
    if (excluded.some(([label, pattern]) => pattern.test(labels[label] ?? ''))) return false;
    return true;
  };
}

/**
 * A readable alert name, as canary-checker builds it: the alert name, then namespace and node,
 * then the first workload label, then the container.
 */
export function alertDisplayName(labels: Record<string, string>): string {
  const parts = [labels.alertname ?? 'unnamed alert'];
  for (const key of ['namespace', 'node']) if (labels[key]) parts.push(labels[key]);
  const workload = ['deployment', 'daemonset', 'statefulset', 'cronjob_name', 'job_name', 'pod', 'nodename'].find(
    (key) => labels[key],
  );
  if (workload) parts.push(labels[workload] as string);
  if (labels.container && labels.container !== labels.job) parts.push(labels.container);
  return parts.join('/');
}

/** The alert's own explanation, from the annotations alert rules conventionally use. */
export function alertMessage(annotations: Record<string, string>): string {
  return annotations.message ?? annotations.description ?? annotations.summary ?? '';
}

/** Normalises an API alert for details and expressions. */
export function toFiringAlert(alert: AlertmanagerAlert): FiringAlert {
  const labels = alert.labels ?? {};
  const annotations = alert.annotations ?? {};
  return {
    name: alertDisplayName(labels),
    message: alertMessage(annotations),
    labels,
    annotations,
    fingerprint: alert.fingerprint ?? '',
    startsAt: alert.startsAt ?? null,
  };
}

/** `2 alerts firing: DiskFull/db-1 (disk is 95% full), Watchdog`, listing at most `max`. */
export function firingMessage(alerts: readonly FiringAlert[], max = 5): string {
  const shown = alerts
    .slice(0, max)
    .map((alert) => (alert.message ? `${alert.name} (${alert.message})` : alert.name))
    .join(', ');
  const more = alerts.length > max ? ` and ${alerts.length - max} more` : '';
  return `${alerts.length} alert${alerts.length === 1 ? '' : 's'} firing: ${shown}${more}`;
}
