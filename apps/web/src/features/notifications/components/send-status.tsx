import {
  NOTIFICATION_SEND_STATUS_LABELS,
  NOTIFICATION_SEND_STATUS_TONES,
  type NotificationSendStatus,
} from '@lookout/contracts';
import { clsx } from 'clsx';
import { BellOff } from 'lucide-react';

const DOT: Record<'green' | 'red' | 'gray', string> = {
  green: 'bg-green-600',
  red: 'bg-red-600',
  gray: 'bg-slate-500',
};

/**
 * A send status as spec 3 section 4 names it (repeat-interval reads 'Repeated'): a coloured
 * dot for sent, error, pending and cancelled, a muted bell for the held-back ones.
 */
export function SendStatus({ status }: { status: NotificationSendStatus }) {
  const tone = NOTIFICATION_SEND_STATUS_TONES[status];
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap" data-status={status}>
      {tone === 'muted' ? (
        <BellOff aria-hidden className="size-3.5 text-slate-500" />
      ) : (
        <span aria-hidden className={clsx('inline-block size-2.5 rounded-full', DOT[tone])} />
      )}
      {NOTIFICATION_SEND_STATUS_LABELS[status]}
    </span>
  );
}
