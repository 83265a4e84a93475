import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/format';
import { useComponentName } from '../../api/get-topology';
import { useTopologyRow } from '../../api/panel-api';
import type { TopologyComponent } from '../../lib/topology-types';
import { ComponentIcon } from '../component-icon';
import { CardMetrics, PropertyValue } from '../property-view';
import { isVisibleProperty, propertyLabel } from '../../lib/property-format';

const texts = TOPOLOGY_TEXTS.details;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}

function ParentLink({ id }: { id: string }) {
  const parent = useComponentName(id);
  return (
    <Link to={`/topology/${encodeURIComponent(id)}`} className="text-sky-700 hover:underline">
      {parent.data?.name ?? id}
    </Link>
  );
}

/**
 * Details: headline metrics, name with its type (linking to /topology?type=), namespace,
 * parent when reached through another component, the topology (linking to its settings page),
 * created, updated, properties and labels.
 */
export function DetailsPanel({
  component,
  refererId,
}: {
  component: TopologyComponent;
  refererId: string | undefined;
}) {
  const topology = useTopologyRow(component.topology_id);
  const properties = component.properties ?? [];
  const headline = properties.filter((p) => p.headline && isVisibleProperty(p));
  const rest = properties.filter((p) => !p.headline && isVisibleProperty(p));
  const { namespace, ...labels } = component.labels ?? {};
  return (
    <div className="flex flex-col gap-3 pt-1 text-sm">
      {headline.length > 0 && (
        <div className="flex">
          <CardMetrics items={headline} />
        </div>
      )}
      <dl className="grid grid-cols-[6.5rem_1fr] gap-x-2 gap-y-1">
        <Row label={texts.name}>
          <span className="flex items-center gap-1">
            {component.type ? (
              <Link
                to={`/topology?type=${encodeURIComponent(component.type)}`}
                title={component.type}
                className="text-sky-700"
              >
                <ComponentIcon icon={component.icon} type={component.type} className="size-4" />
              </Link>
            ) : null}
            {component.name}
          </span>
        </Row>
        {namespace && <Row label={texts.namespace}>{namespace}</Row>}
        {component.status_reason && <Row label={texts.statusReason}>{component.status_reason}</Row>}
        {refererId && component.parent_id && component.parent_id !== refererId && (
          <Row label={texts.parent}>
            <ParentLink id={component.parent_id} />
          </Row>
        )}
        {topology.data && (
          <Row label={texts.topology}>
            <Link
              to={`/settings/topologies/${encodeURIComponent(topology.data.id)}`}
              className="text-sky-700 hover:underline"
            >
              {topology.data.name}
            </Link>
          </Row>
        )}
        <Row label={texts.created}>{formatDateTime(component.created_at)}</Row>
        <Row label={texts.updated}>{formatDateTime(component.updated_at)}</Row>
        {rest.map((property, index) => (
          <Row key={`${property.name}-${index}`} label={propertyLabel(property)}>
            <PropertyValue property={property} />
          </Row>
        ))}
      </dl>
      {Object.keys(labels).length > 0 && (
        <div>
          <h3 className="mb-1 font-medium text-slate-700">{texts.labels}</h3>
          <div className="flex flex-wrap gap-1">
            {Object.entries(labels).map(([key, value]) => (
              <span key={key} className="rounded bg-blue-50 px-1.5 text-xs text-blue-900">
                {key}: {value}
              </span>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
