import { JOB_HISTORY_TEXTS, type JobHistoryStatus } from '@lookout/contracts';
import { clsx } from 'clsx';

const TONES: Record<JobHistoryStatus, string> = {
  RUNNING: 'bg-sky-50 text-sky-800 ring-sky-200',
  SUCCESS: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  WARNING: 'bg-amber-50 text-amber-800 ring-amber-200',
  FAILED: 'bg-red-50 text-red-800 ring-red-200',
  STALE: 'bg-slate-100 text-slate-700 ring-slate-300',
  SKIPPED: 'bg-slate-50 text-slate-600 ring-slate-200',
  STOPPED: 'bg-slate-100 text-slate-700 ring-slate-300',
};

/** A run's status as a small colored label (spec 2 section 4). */
export function JobStatusBadge({ status }: { status: JobHistoryStatus }) {
  return (
    <span
      className={clsx(
        'rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        TONES[status],
      )}
    >
      {JOB_HISTORY_TEXTS.statuses[status]}
    </span>
  );
}
