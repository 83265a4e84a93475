import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import { usePageTitle } from '@/lib/page-title';
import { useComponent } from '../api/get-topology';
import type { CardSize } from '../lib/card-size';
import { TopologyCard } from './topology-card';

/**
 * One card without menu, its links opening in a new tab (spec 3 section 2.2): the embeddable
 * `/view/topology/{id}` and the single-card route. 'Component not found' when it is absent.
 */
export function SingleCardView({ id, size }: { id: string; size: CardSize }) {
  const component = useComponent(id);
  usePageTitle(component.data?.name ?? TOPOLOGY_TEXTS.title);
  if (component.isPending) return <p className="m-2 text-sm text-slate-500">Loading…</p>;
  if (!component.data) {
    return (
      <p role="status" className="m-4 text-sm text-slate-600">
        {TOPOLOGY_TEXTS.notFound}
      </p>
    );
  }
  return (
    <div className="m-2">
      <TopologyCard component={component.data} size={size} hideMenu target="_blank" />
    </div>
  );
}
