import { clsx } from 'clsx';

const COLOURS: Record<string, string> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-orange-400',
};

/** A coloured dot for an item's health (gray when unknown). */
export function HealthDot({ health }: { health: string | null | undefined }) {
  return (
    <span
      title={health ?? 'unknown'}
      aria-label={health ?? 'unknown'}
      role="img"
      className={clsx('inline-block size-2 shrink-0 rounded-full', COLOURS[health ?? ''] ?? 'bg-slate-300')}
    />
  );
}
