import { TOPOLOGY_SHOW_MORE } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Link, useParams, useSearchParams } from 'react-router';
import { cardWidth, isCompact, type CardSize } from '../lib/card-size';
import { isVisibleProperty } from '../lib/property-format';
import { componentHref } from '../lib/topology-links';
import { componentHealth, sortByHealth } from '../lib/topology-sort';
import type { TopologyComponent } from '../lib/topology-types';
import { CardMenu } from './card-menu';
import { ComponentIcon } from './component-icon';
import { HealthDot } from '@/components/ui/health-dot';
import { CardMetrics, PropertyRow } from './property-view';
import { ShowMore } from './show-more';
import { ChecksLine, IncidentsLine, InsightsLine, hasChecks, hasIncidents, hasInsights } from './summary-lines';

/** Top border colours: red for unhealthy, orange for warning (spec 3 section 2.2). */
const BORDER: Record<string, string> = { unhealthy: 'border-t-red-300', warning: 'border-t-orange-300' };

export interface TopologyCardProps {
  component: TopologyComponent;
  size: CardSize;
  /** The embeddable views show no menu. */
  hideMenu?: boolean;
  /** Where the card's links open ('_blank' from the embeddable views). */
  target?: string;
}

function ChildLine({ child, target }: { child: TopologyComponent; target: string | undefined }) {
  const [search] = useSearchParams();
  const { id } = useParams();
  const href = componentHref(child, search, id);
  const name = child.text || child.name;
  return (
    <div className="flex min-w-0 items-center gap-1.5 text-xs">
      <HealthDot health={componentHealth(child)} size="md" />
      <ComponentIcon icon={child.icon} type={child.type} className="size-3.5 shrink-0 text-slate-500" />
      {href ? (
        <Link to={href} target={target} className="truncate text-slate-700 hover:underline">
          {name}
        </Link>
      ) : (
        <span className="truncate text-slate-700">{name}</span>
      )}
    </div>
  );
}

/**
 * A component card (spec 3 section 2.2): icon, name (linking to the component), status reason,
 * headline metrics, menu; then its properties and the insight, check and incident summaries
 * with its children, unhealthy first. Small and medium cards show the headline metrics only.
 */
export function TopologyCard({ component, size, hideMenu = false, target }: TopologyCardProps) {
  const [search] = useSearchParams();
  const { id } = useParams();
  const compact = isCompact(size);
  const health = componentHealth(component);
  const properties = component.properties ?? [];
  const headline = properties.filter((p) => p.headline && isVisibleProperty(p));
  const details = properties.filter((p) => !p.headline && isVisibleProperty(p));
  const children = sortByHealth(component.components ?? []);
  const href = componentHref(component, search, id);
  const name = component.text || component.name;

  return (
    <article
      aria-label={component.name}
      data-health={health}
      style={{ width: cardWidth(size) }}
      className={clsx(
        'relative flex flex-col rounded-lg border border-t-8 border-slate-300 bg-slate-50 shadow-sm',
        BORDER[health],
      )}
    >
      <header className="flex items-start gap-2 rounded-t-md border-b border-slate-200 bg-white px-2 py-2.5">
        <ComponentIcon icon={component.icon} type={component.type} className="mt-0.5 size-6 shrink-0 text-slate-500" />
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-[15px] font-bold text-slate-900" title={component.name}>
            {href ? (
              <Link to={href} target={target} className="hover:underline">
                {name}
              </Link>
            ) : (
              name
            )}
          </h3>
          {component.status_reason && (
            <p className="truncate text-sm text-slate-400" title={component.status_reason}>
              {component.status_reason}
            </p>
          )}
        </div>
        {!compact && headline.length > 0 && (
          <div className="flex shrink-0">
            <CardMetrics items={headline} inline={cardWidth(size) >= 554} />
          </div>
        )}
        {!hideMenu && <CardMenu component={component} />}
      </header>
      {compact ? (
        headline.length > 0 && (
          <div className="flex py-3">
            <CardMetrics items={headline} />
          </div>
        )
      ) : (
        <div className="flex gap-4 px-2 py-2">
          {details.length > 0 && (
            <ShowMore limit={TOPOLOGY_SHOW_MORE.properties} className="flex-1">
              {details.map((property, index) => (
                <PropertyRow key={`${property.name}-${index}`} property={property} />
              ))}
            </ShowMore>
          )}
          <ShowMore limit={TOPOLOGY_SHOW_MORE.summaryItems} className="flex-1">
            {hasInsights(component) && <InsightsLine component={component} />}
            {hasChecks(component) && <ChecksLine component={component} />}
            {hasIncidents(component) && <IncidentsLine component={component} />}
            {children.map((child) => (
              <ChildLine key={child.id} child={child} target={target} />
            ))}
          </ShowMore>
        </div>
      )}
    </article>
  );
}
