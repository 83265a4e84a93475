import { CHECK_DRAWER_TEXTS, type CheckSummary } from '@lookout/contracts';
import type { ReactNode } from 'react';
import { TimeRangePicker, type TimeRange } from '@/components/ui/time-range-picker';
import { MISSING_VALUE, formatDuration, formatPercentage } from '@/lib/format';
import { ageFromNow, uptimePercent } from '../../lib/health-status-fns';

export interface CheckStatsProps {
  /** The check's summary over the drawer's range; undefined while it loads. */
  summary: CheckSummary | undefined;
  severity: string | null;
  lastRuntime: string | null;
  lastTransitionTime: string | null;
  nextRuntime: string | null;
  now: Date;
  range: TimeRange;
  onRangeChange: (range: TimeRange) => void;
}

function Stat({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium text-slate-500">{title}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The drawer's figures (spec 2 section 2.3): Uptime with passed and failed, Latency p95, p97
 * and p99, Severity, Last Run, Transitioned, Next Run and the Time Range they cover.
 */
export function CheckStats({
  summary,
  severity,
  lastRuntime,
  lastTransitionTime,
  nextRuntime,
  now,
  range,
  onRangeChange,
}: CheckStatsProps) {
  const uptime = summary ? uptimePercent(summary.uptime) : undefined;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
      <Stat title={CHECK_DRAWER_TEXTS.uptime}>
        <span className="flex items-baseline gap-2">
          <span className="text-base font-semibold tabular-nums">
            {uptime === undefined ? MISSING_VALUE : formatPercentage(uptime)}
          </span>
          {summary && (
            <span className="flex flex-col text-xs leading-tight tabular-nums">
              <span className="text-green-700">
                {summary.uptime.passed} {CHECK_DRAWER_TEXTS.passed}
              </span>
              <span className="text-red-600">
                {summary.uptime.failed} {CHECK_DRAWER_TEXTS.failed}
              </span>
            </span>
          )}
        </span>
      </Stat>
      <Stat title={CHECK_DRAWER_TEXTS.latencyP95}>{formatDuration(summary?.latency.p95)}</Stat>
      <Stat title={CHECK_DRAWER_TEXTS.latencyP97}>{formatDuration(summary?.latency.p97)}</Stat>
      <Stat title={CHECK_DRAWER_TEXTS.latencyP99}>{formatDuration(summary?.latency.p99)}</Stat>
      <Stat title={CHECK_DRAWER_TEXTS.severity}>{severity ? capitalize(severity) : MISSING_VALUE}</Stat>
      <Stat title={CHECK_DRAWER_TEXTS.lastRun}>{ageFromNow(lastRuntime, now) ?? MISSING_VALUE}</Stat>
      <Stat title={CHECK_DRAWER_TEXTS.transitioned}>{ageFromNow(lastTransitionTime, now) ?? MISSING_VALUE}</Stat>
      <Stat title={CHECK_DRAWER_TEXTS.nextRun}>{ageFromNow(nextRuntime, now) ?? MISSING_VALUE}</Stat>
      <div className="col-span-2 flex flex-col gap-0.5 sm:col-span-4">
        <dt className="text-xs font-medium text-slate-500">{CHECK_DRAWER_TEXTS.timeRange}</dt>
        <dd>
          <TimeRangePicker value={range} onChange={onRangeChange} />
        </dd>
      </div>
    </dl>
  );
}
