import { EDITABLE_SOURCE } from '@lookout/contracts';
import { clsx } from 'clsx';

/**
 * Where a settings resource comes from (its `source`); sources other than the UI stand out,
 * as their rows are read-only here (spec 2 section 5).
 */
export function SourceBadge({ source }: { source: string }) {
  return (
    <span
      className={clsx(
        'rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        source === EDITABLE_SOURCE
          ? 'bg-slate-50 text-slate-700 ring-slate-200'
          : 'bg-amber-50 text-amber-800 ring-amber-200',
      )}
    >
      {source}
    </span>
  );
}
