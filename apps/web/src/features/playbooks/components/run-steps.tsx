import { PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { formatDateTime, formatDuration } from '@/lib/format';
import { elapsedMs, isStepSelectable, type RunStep } from '../lib/run-fns';
import { RunStatusBadge } from './run-status-badge';

export interface RunStepsProps {
  steps: readonly RunStep[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  now: number;
}

/**
 * The step list (spec 2 section 2.5): each action with its status and duration; a sleeping
 * action shows when it wakes, and skipped ones cannot be opened.
 */
export function RunSteps({ steps, selectedId, onSelect, now }: RunStepsProps) {
  return (
    <ol aria-label={PLAYBOOK_UI_TEXTS.runDetail.steps} className="flex flex-col gap-1">
      {steps.map((step) => {
        const selectable = isStepSelectable(step);
        return (
          <li key={step.id}>
            <button
              type="button"
              disabled={!selectable}
              aria-current={step.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(step.id)}
              className={clsx(
                'flex w-full flex-col gap-1 rounded-md px-3 py-2 text-left text-sm focus-visible:outline-2 focus-visible:outline-sky-600 disabled:cursor-not-allowed disabled:opacity-60',
                step.id === selectedId ? 'bg-sky-50 ring-1 ring-sky-200' : 'hover:bg-slate-50',
              )}
            >
              <span className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{step.name}</span>
                <RunStatusBadge status={step.status} />
              </span>
              <span className="text-xs text-slate-500">
                {step.status === 'sleeping' && step.scheduled_time
                  ? PLAYBOOK_UI_TEXTS.runDetail.sleepingUntil(formatDateTime(step.scheduled_time))
                  : formatDuration(elapsedMs(step.start_time, step.end_time, now))}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
