import { CHECK_DRAWER_TEXTS, HEALTH_OVERVIEW_BAR_PERCENT } from '@lookout/contracts';
import { formatDateTime, formatDuration } from '@/lib/format';
import type { CheckGraphPoint } from '../../api/get-check-graph';

export interface HealthOverviewChartProps {
  points: readonly CheckGraphPoint[] | undefined;
  isLoading: boolean;
  /** The time range the chart spans; bars sit where their run happened in it. */
  from: Date | undefined;
  to: Date | undefined;
}

/** However few runs there are, a bar is no wider than one of this many. */
const MIN_SLOTS = 60;

const BAR_COLOUR = { passed: '#22c55e', failed: '#ef4444', mixed: '#fb923c' } as const;
const CHART_HEIGHT = 160;

/** A bar's height in percent of the tallest: clamped to 5…100 so failed 0 ms runs stay visible (spec 2 section 5). */
export function barPercent(durationMs: number | null, maxMs: number): number {
  const { min, max } = HEALTH_OVERVIEW_BAR_PERCENT;
  if (durationMs === null || maxMs <= 0) return min;
  return Math.min(max, Math.max(min, (durationMs / maxMs) * 100));
}

function barColour(point: CheckGraphPoint): string {
  if (point.failed === 0) return BAR_COLOUR.passed;
  if (point.passed === 0) return BAR_COLOUR.failed;
  return BAR_COLOUR.mixed;
}

/**
 * The Health Overview chart (spec 2 section 2.3): one bar per run (or per hour or day on long
 * ranges), as tall as it took, green when it passed, red when it failed, orange for a bucket
 * with both. Plain SVG: a few hundred bars need no chart library, and it stays accessible
 * (each bar has a title, the chart a summary) and testable without a canvas.
 */
export function HealthOverviewChart({ points, isLoading, from, to }: HealthOverviewChartProps) {
  if (!points || points.length === 0) {
    return (
      <div
        className="flex items-center justify-center rounded border border-dashed border-slate-200 text-sm text-slate-500"
        style={{ height: CHART_HEIGHT }}
        aria-busy={isLoading || undefined}
      >
        {isLoading ? 'Loading' : CHECK_DRAWER_TEXTS.noRuns}
      </div>
    );
  }
  const maxMs = Math.max(0, ...points.map((point) => point.durationMs ?? 0));
  const passed = points.reduce((sum, point) => sum + point.passed, 0);
  const failed = points.reduce((sum, point) => sum + point.failed, 0);
  const width = 100 / Math.max(points.length, MIN_SLOTS);
  const first = points[0];
  const last = points.at(-1);
  const start = from?.getTime() ?? Date.parse(first?.time ?? '');
  const end = to?.getTime() ?? Date.parse(last?.time ?? '');
  const span = end - start;
  // A bar's left edge: its time within the range, kept inside the chart.
  const xOf = (point: CheckGraphPoint, index: number) => {
    const time = Date.parse(point.time);
    const share = span > 0 && !Number.isNaN(time) ? (time - start) / span : index / points.length;
    return Math.min(100 - width, Math.max(0, share * 100 - width / 2));
  };
  return (
    <figure className="flex flex-col gap-1">
      <div className="flex text-xs text-slate-500">
        <span className="w-14 shrink-0 text-right tabular-nums">{formatDuration(maxMs)}</span>
      </div>
      <div className="flex gap-1">
        <span className="w-14 shrink-0" aria-hidden />
        <svg
          role="img"
          aria-label={`${CHECK_DRAWER_TEXTS.healthOverview}: ${points.length} points, ${passed} ${CHECK_DRAWER_TEXTS.passed}, ${failed} ${CHECK_DRAWER_TEXTS.failed}`}
          viewBox={`0 0 100 ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          className="w-full border-b border-l border-slate-200"
          style={{ height: CHART_HEIGHT }}
        >
          {points.map((point, index) => {
            const height = (barPercent(point.durationMs, maxMs) / 100) * CHART_HEIGHT;
            return (
              <rect
                key={`${point.time}-${index}`}
                data-testid="health-overview-bar"
                x={xOf(point, index) + width * 0.15}
                width={width * 0.7}
                y={CHART_HEIGHT - height}
                height={height}
                fill={barColour(point)}
              >
                <title>{`${formatDateTime(point.time)} · ${point.failed === 0 ? CHECK_DRAWER_TEXTS.passed : CHECK_DRAWER_TEXTS.failed} · ${formatDuration(point.durationMs)}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <figcaption className="flex justify-between pl-15 text-xs text-slate-500 tabular-nums">
        <span>{formatDateTime(from ?? first?.time)}</span>
        <span>{formatDateTime(to ?? last?.time)}</span>
      </figcaption>
    </figure>
  );
}
