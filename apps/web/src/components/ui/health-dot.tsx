import { clsx } from 'clsx';

const COLOURS: Record<string, string> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-orange-400',
};

const SIZES = { sm: 'size-2', md: 'size-2.5' } as const;

/** Props of {@link HealthDot}. */
export interface HealthDotProps {
  /** healthy, unhealthy or warning; anything else (or nothing) reads 'unknown' in gray. */
  health: string | null | undefined;
  /** `sm` in tables and lists, `md` on the larger topology cards. */
  size?: keyof typeof SIZES;
}

/** A dot in the colour of a catalog item's or component's health, named for screen readers. */
export function HealthDot({ health, size = 'sm' }: HealthDotProps) {
  const label = health || 'unknown';
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={clsx('inline-block shrink-0 rounded-full', SIZES[size], COLOURS[label] ?? 'bg-slate-300')}
    />
  );
}
