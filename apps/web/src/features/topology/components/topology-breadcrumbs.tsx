import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { useComponentName } from '../api/get-topology';
import { breadcrumbIds } from '../lib/topology-links';
import { ComponentIcon } from './component-icon';

function Crumb({ id, current }: { id: string; current: boolean }) {
  const name = useComponentName(id);
  if (!name.data) return null;
  return (
    <li className="flex min-w-0 items-center gap-1">
      <ChevronRight aria-hidden className="size-4 shrink-0 text-slate-400" />
      <Link
        to={`/topology/${encodeURIComponent(id)}`}
        aria-current={current ? 'page' : undefined}
        className="flex min-w-0 items-center gap-1 truncate hover:underline"
      >
        <ComponentIcon icon={name.data.icon} type={name.data.type} className="size-4 shrink-0 text-slate-500" />
        <span className="truncate">{name.data.name}</span>
      </Link>
    </li>
  );
}

/** Dashboard › the path down to the component (spec 3 section 2.2); through the referer if any. */
export function TopologyBreadcrumbs({ id, refererId }: { id: string | undefined; refererId: string | undefined }) {
  const anchor = useComponentName(refererId ?? id);
  const ids = breadcrumbIds(anchor.data, id, refererId);
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex min-w-0 items-center gap-1 text-sm font-medium text-slate-800">
        <li>
          <Link to="/topology" className="hover:underline">
            {TOPOLOGY_TEXTS.menu}
          </Link>
        </li>
        {ids.map((crumb) => (
          <Crumb key={crumb} id={crumb} current={crumb === id} />
        ))}
      </ol>
    </nav>
  );
}
