import type { IncidentStatus } from '@lookout/contracts';
import { clsx } from 'clsx';
import { humanize, severityClasses, statusBadgeClasses } from '../lib/incident-display';

export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  return (
    <span className={clsx('inline-flex rounded-full px-2 py-0.5 text-xs font-medium', statusBadgeClasses(status))}>
      {humanize(status)}
    </span>
  );
}

export function IncidentSeverityLabel({ severity }: { severity: string }) {
  return <span className={clsx('text-sm font-medium', severityClasses(severity))}>{humanize(severity)}</span>;
}
