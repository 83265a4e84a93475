import { clsx } from 'clsx';

const COLOURS: Record<string, string> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-orange-400',
};

/** A dot in the health's colour (gray when unknown), named for screen readers. */
export function HealthDot({ health }: { health: string | null | undefined }) {
  const label = health || 'unknown';
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={clsx('inline-block size-2.5 shrink-0 rounded-full', COLOURS[label] ?? 'bg-slate-400')}
    />
  );
}
