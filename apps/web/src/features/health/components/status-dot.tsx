import { clsx } from 'clsx';
import { healthDotColour, type HealthDotColour } from '../lib/health-status-fns';

const COLOUR_CLASS: Record<HealthDotColour, string> = {
  red: 'bg-red-500',
  grey: 'bg-gray-400',
  orange: 'bg-orange-400',
  green: 'bg-green-500',
};

export interface StatusDotProps {
  /** healthy, unhealthy, mixed, unknown, warning, …; null for a check that never ran. */
  status: string | boolean | null | undefined;
  className?: string;
}

/** A health status dot in the spec's colours (spec 1 section 4), named for screen readers. */
export function StatusDot({ status, className }: StatusDotProps) {
  const colour = healthDotColour(status);
  const label = status === null || status === undefined || status === '' ? 'unknown' : String(status);
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-colour={colour}
      className={clsx('inline-block size-2.5 shrink-0 rounded-full', COLOUR_CLASS[colour], className)}
    />
  );
}
