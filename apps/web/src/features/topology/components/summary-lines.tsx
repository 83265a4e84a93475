import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { HeartPulse, Lightbulb, Siren } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useRouteExists } from '../hooks/use-route-exists';
import { checkCounts, severityCounts, type SummaryCount } from '../lib/summary-fns';
import type { TopologyComponent } from '../lib/topology-types';

const COLOUR: Record<SummaryCount['colour'], string> = {
  red: 'bg-red-100 text-red-800',
  orange: 'bg-orange-100 text-orange-800',
  yellow: 'bg-yellow-100 text-yellow-800',
  green: 'bg-green-100 text-green-800',
  gray: 'bg-slate-100 text-slate-700',
};

function MaybeLink({ to, children, className }: { to: string | undefined; children: ReactNode; className?: string }) {
  const exists = useRouteExists();
  if (to && exists(to)) {
    return (
      <Link to={to} className={clsx(className, 'hover:underline')}>
        {children}
      </Link>
    );
  }
  return <span className={className}>{children}</span>;
}

/** 'Label  3 1 2': a summary row with coloured counts, each linking to its filtered list. */
function StatusLine({
  icon,
  label,
  href,
  counts,
}: {
  icon: ReactNode;
  label: string;
  href?: string;
  counts: SummaryCount[];
}) {
  if (counts.length === 0) return null;
  return (
    <div className="flex min-w-0 items-center gap-1.5 text-xs" aria-label={label}>
      {icon}
      <MaybeLink to={href} className="shrink-0 text-slate-600">
        {label}
      </MaybeLink>
      <span className="flex flex-wrap gap-1">
        {counts.map((count) => (
          <MaybeLink
            key={count.key}
            to={count.href}
            className={clsx('rounded px-1.5 tabular-nums', COLOUR[count.colour])}
          >
            <span title={count.title} data-colour={count.colour}>
              {count.count}
            </span>
          </MaybeLink>
        ))}
      </span>
    </div>
  );
}

const iconClass = 'size-3.5 shrink-0 text-slate-500';
const noLink = () => '';

/** Whether a line has anything to show, so the show-more count only counts shown lines. */
export const hasInsights = (component: TopologyComponent) =>
  severityCounts(component.summary?.insights, noLink).length > 0;
export const hasChecks = (component: TopologyComponent) => checkCounts(component.summary?.checks).length > 0;
export const hasIncidents = (component: TopologyComponent) =>
  severityCounts(component.summary?.incidents, noLink).length > 0;

/** Insights by type and severity, linking to /catalog/insights pre-filtered (spec 3 section 2.2). */
export function InsightsLine({ component }: { component: TopologyComponent }) {
  const counts = severityCounts(
    component.summary?.insights,
    (type, severity) =>
      `/catalog/insights?${new URLSearchParams({ component: component.id, type, severity }).toString()}`,
  );
  return (
    <StatusLine
      icon={<Lightbulb aria-hidden className={iconClass} />}
      label={TOPOLOGY_TEXTS.summary.insights}
      href={`/catalog/insights?component=${encodeURIComponent(component.id)}`}
      counts={counts}
    />
  );
}

/** Check counts, linking to the health page. */
export function ChecksLine({ component }: { component: TopologyComponent }) {
  return (
    <StatusLine
      icon={<HeartPulse aria-hidden className={iconClass} />}
      label={TOPOLOGY_TEXTS.summary.checks}
      href="/health"
      counts={checkCounts(component.summary?.checks)}
    />
  );
}

/** Open incidents by type and severity, linking to /incidents pre-filtered. */
export function IncidentsLine({ component }: { component: TopologyComponent }) {
  const counts = severityCounts(
    component.summary?.incidents,
    (type, severity) => `/incidents?${new URLSearchParams({ type, component: component.id, severity }).toString()}`,
  );
  return (
    <StatusLine
      icon={<Siren aria-hidden className={iconClass} />}
      label={TOPOLOGY_TEXTS.summary.incidents}
      href={`/incidents?component=${encodeURIComponent(component.id)}`}
      counts={counts}
    />
  );
}
