import { clsx } from 'clsx';
import { statusClasses } from '../lib/run-fns';

/** A run's or step's status as a coloured badge. */
export function RunStatusBadge({ status }: { status: string | null | undefined }) {
  return (
    <span
      className={clsx(
        'inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        statusClasses(status),
      )}
    >
      {status ?? 'pending'}
    </span>
  );
}
