import { type ANALYSIS_TYPES, CATALOG_HEALTH_DISPLAY_ORDER } from '@lookout/contracts';
import { clsx } from 'clsx';
import {
  CircleDollarSign,
  Gauge,
  Link2,
  Lock,
  ShieldCheck,
  ThumbsUp,
  TrendingUp,
  Wrench,
  Zap,
  CircleHelp,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { costChangePercent, formatCost, formatCount, isHighChangeCount } from '../lib/catalog-fns';

const HEALTH_COLOURS: Record<string, string> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-orange-400',
  unknown: 'bg-slate-300',
};

/** Health counts as a bar in the display order green, red, orange, gray (spec 3 section 4), with the counts. */
export function HealthBars({ health }: { health: Record<string, number> }) {
  const total = CATALOG_HEALTH_DISPLAY_ORDER.reduce((sum, key) => sum + (health[key] ?? 0), 0);
  if (total === 0) return null;
  return (
    <div className="flex min-w-32 items-center gap-2">
      <div className="flex h-2 w-24 overflow-hidden rounded-full bg-slate-100">
        {CATALOG_HEALTH_DISPLAY_ORDER.map((key) =>
          health[key] ? (
            <span key={key} className={HEALTH_COLOURS[key]} style={{ width: `${(health[key] / total) * 100}%` }} />
          ) : null,
        )}
      </div>
      <span className="flex gap-1.5 text-xs tabular-nums">
        {CATALOG_HEALTH_DISPLAY_ORDER.map((key) =>
          health[key] ? (
            <span key={key} title={key} className={clsx('inline-flex items-center gap-0.5')}>
              <span aria-hidden className={clsx('size-2 rounded-full', HEALTH_COLOURS[key])} />
              <span className="sr-only">{key}</span>
              {health[key]}
            </span>
          ) : null,
        )}
      </span>
    </div>
  );
}

/** The change count: red from 500, Nk+ above 999. */
export function ChangeCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span
      data-testid="change-count"
      className={clsx(
        'inline-flex rounded px-1.5 py-0.5 text-xs font-medium tabular-nums',
        isHighChangeCount(count) ? 'bg-red-100 text-red-700' : 'bg-slate-100 text-slate-700',
      )}
    >
      {formatCount(count)}
    </span>
  );
}

const ANALYSIS_ICONS: Record<(typeof ANALYSIS_TYPES)[number], LucideIcon> = {
  cost: CircleDollarSign,
  availability: Zap,
  performance: Gauge,
  security: Lock,
  integration: Link2,
  compliance: ShieldCheck,
  technical_debt: Wrench,
  reliability: ThumbsUp,
  recommendation: TrendingUp,
  other: CircleHelp,
};

/** One icon per insight type with its count. */
export function AnalysisIcons({ analysis }: { analysis: Record<string, number> | null | undefined }) {
  const entries = Object.entries(analysis ?? {}).filter(([, n]) => n > 0);
  if (entries.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-2 text-xs text-slate-700">
      {entries.map(([type, n]) => {
        const Icon = ANALYSIS_ICONS[type as keyof typeof ANALYSIS_ICONS] ?? CircleHelp;
        return (
          <span key={type} title={type} className="inline-flex items-center gap-0.5">
            <Icon aria-hidden className="size-3.5 text-slate-500" />
            <span className="sr-only">{type}</span>
            {formatCount(n)}
          </span>
        );
      })}
    </span>
  );
}

/** The 30-day cost with a badge when the last day differs from the daily mean by more than 10%. */
export function CostCell({
  cost1d,
  cost30d,
}: {
  cost1d: number | null | undefined;
  cost30d: number | null | undefined;
}) {
  const text = formatCost(cost30d);
  if (!text) return null;
  const change = costChangePercent(cost1d, cost30d);
  return (
    <span className="inline-flex items-center gap-1 tabular-nums">
      {text}
      {change !== undefined && (
        <span
          data-testid="cost-change"
          className={clsx(
            'rounded px-1 text-xs',
            change > 0 ? 'bg-red-100 text-red-700' : 'bg-green-100 text-green-700',
          )}
        >
          {change > 0 ? '+' : ''}
          {change}%
        </span>
      )}
    </span>
  );
}
