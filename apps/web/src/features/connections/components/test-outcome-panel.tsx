import { clsx } from 'clsx';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { TestOutcome } from '../lib/test-outcome-fns';

const LOOKS = {
  ok: { icon: CircleCheck, classes: 'border-emerald-200 bg-emerald-50 text-emerald-900' },
  unsupported: { icon: Info, classes: 'border-slate-200 bg-slate-50 text-slate-700' },
  failed: { icon: CircleAlert, classes: 'border-red-200 bg-red-50 text-red-900' },
} as const;

/** The last test's outcome under the form; a JSON error keeps its pretty-printed lines. */
export function TestOutcomePanel({ outcome }: { outcome: TestOutcome }) {
  const looks = LOOKS[outcome.kind];
  return (
    <div
      role={outcome.kind === 'failed' ? 'alert' : 'status'}
      data-testid="connection-test-outcome"
      className={clsx('mt-4 flex items-start gap-2 rounded-md border px-3 py-2 text-sm', looks.classes)}
    >
      <looks.icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <pre className="max-h-48 min-w-0 overflow-auto font-sans break-words whitespace-pre-wrap">{outcome.message}</pre>
    </div>
  );
}
