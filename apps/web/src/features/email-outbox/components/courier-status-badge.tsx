import type { CourierMessageStatus } from '@lookout/contracts';
import { clsx } from 'clsx';
import { statusLabel } from '../lib/courier-fns';

const TONES: Record<CourierMessageStatus, string> = {
  queued: 'bg-amber-50 text-amber-800 ring-amber-200',
  processing: 'bg-sky-50 text-sky-800 ring-sky-200',
  sent: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  abandoned: 'bg-red-50 text-red-800 ring-red-200',
};

/** A message's status as a small colored label. */
export function CourierStatusBadge({ status }: { status: CourierMessageStatus }) {
  return (
    <span
      className={clsx(
        'rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        TONES[status],
      )}
    >
      {statusLabel(status)}
    </span>
  );
}
