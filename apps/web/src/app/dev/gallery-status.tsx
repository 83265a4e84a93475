import { clsx } from 'clsx';
import type { ChangeSeverity, CheckStatus } from './gallery-data';

/**
 * Health status dot colours of spec 1, section 4. The health feature will own the real badge;
 * the gallery only needs a faithful stand-in so the tables look like the console will.
 */
function statusDotClass(status: CheckStatus): string {
  if (status === 'unhealthy') return 'bg-red-500';
  if (status === 'unknown' || status === 'suspended') return 'bg-slate-400';
  if (status === 'warning') return 'bg-orange-400';
  return 'bg-green-500';
}

export function CheckStatusBadge({ status }: { status: CheckStatus }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <span aria-hidden className={clsx('size-2 shrink-0 rounded-full', statusDotClass(status))} />
      {status}
    </span>
  );
}

const SEVERITY_CLASS: Record<ChangeSeverity, string> = {
  info: 'bg-slate-100 text-slate-700',
  low: 'bg-sky-50 text-sky-800',
  medium: 'bg-amber-50 text-amber-800',
  high: 'bg-orange-100 text-orange-800',
  critical: 'bg-red-100 text-red-800',
};

export function SeverityBadge({ severity }: { severity: ChangeSeverity }) {
  return (
    <span className={clsx('inline-flex rounded px-1.5 py-0.5 text-xs font-medium', SEVERITY_CLASS[severity])}>
      {severity}
    </span>
  );
}
