import { incidentStatusColor, type IncidentStatus } from '@lookout/contracts';
import { differenceInMilliseconds, formatDistanceStrict } from 'date-fns';

/** 'technicalDebt' → 'Technical Debt', 'open' → 'Open'. */
export function humanize(value: string): string {
  const spaced = value.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.replace(/\b\w/g, (letter) => letter.toUpperCase());
}

/** Options of a select from an enumeration. */
export function enumOptions(values: readonly string[]): { value: string; label: string }[] {
  return values.map((value) => ({ value, label: humanize(value) }));
}

const STATUS_CLASSES = {
  'light-green': 'bg-green-100 text-green-800',
  grey: 'bg-slate-200 text-slate-700',
  blue: 'bg-sky-100 text-sky-800',
} as const;

/** The badge classes of a status (spec 1 section 4: open light green, closed grey, others blue). */
export function statusBadgeClasses(status: IncidentStatus): string {
  return STATUS_CLASSES[incidentStatusColor(status)];
}

const SEVERITY_CLASSES: Record<string, string> = {
  critical: 'text-red-700',
  blocker: 'text-red-600',
  high: 'text-orange-600',
  medium: 'text-amber-600',
  low: 'text-slate-600',
};

export function severityClasses(severity: string): string {
  return SEVERITY_CLASSES[severity] ?? 'text-slate-600';
}

/** '3 hours' between the start and now (the Age column and the Duration detail). */
export function incidentAge(createdAt: string, now: Date): string {
  const start = new Date(createdAt);
  if (Number.isNaN(start.getTime())) return '';
  return differenceInMilliseconds(now, start) < 1000 ? 'now' : formatDistanceStrict(start, now);
}
