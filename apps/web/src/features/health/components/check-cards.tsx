import { VIEW_MESSAGES, type CheckSummary } from '@lookout/contracts';
import { MISSING_VALUE, formatDuration, formatPercentage } from '@/lib/format';
import { displayLatency, uptimePercent } from '../lib/health-status-fns';
import { CheckIcon } from './check-icon';
import { StatusDot } from './status-dot';

export interface CheckCardsProps {
  checks: readonly CheckSummary[];
  onOpenCheck: (checkId: string) => void;
}

/** The card layout (`layout=card`): one card per check with its health, uptime and latency. */
export function CheckCards({ checks, onOpenCheck }: CheckCardsProps) {
  if (checks.length === 0) {
    return (
      <p className="rounded border border-slate-200 p-8 text-center text-sm text-gray-500">
        {VIEW_MESSAGES.emptyTable}
      </p>
    );
  }
  return (
    <ul aria-label="Health check cards" className="grid grid-cols-[repeat(auto-fill,minmax(16rem,1fr))] gap-3">
      {checks.map((check) => {
        const uptime = uptimePercent(check.uptime);
        return (
          <li key={check.id}>
            <button
              type="button"
              onClick={() => onOpenCheck(check.id)}
              className="flex w-full flex-col gap-2 rounded-md border border-slate-200 bg-white p-3 text-left shadow-sm hover:border-sky-300 focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              <span className="flex min-w-0 items-center gap-2">
                <StatusDot status={check.status} />
                <CheckIcon type={check.type} />
                <span className="truncate font-medium text-slate-900">{check.name}</span>
              </span>
              <span className="truncate text-xs text-slate-500">{check.endpoint ?? check.canary_name}</span>
              <span className="flex gap-4 text-xs text-slate-600 tabular-nums">
                <span>Uptime {uptime === undefined ? MISSING_VALUE : formatPercentage(uptime)}</span>
                <span>Latency {formatDuration(displayLatency(check.latency))}</span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
