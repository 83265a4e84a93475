import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import { PanelRightClose, PanelRightOpen } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { RefreshRateSelect, useRefreshRateParam } from '@/components/ui/refresh-rate-select';
import { refreshRateToMs } from '@/components/ui/refresh-rate-fns';
import { toast } from '@/components/ui/toast';
import { useTopology } from '../api/get-topology';
import { useCardWidth } from '../hooks/use-card-width';
import { useSidebarOpen } from '../hooks/use-sidebar-open';
import { useTopologyFilters } from '../hooks/use-topology-filters';
import { pageComponents } from '../lib/topology-links';
import { topologyQuery } from '../lib/topology-params';
import { sortComponents, sortOptions } from '../lib/topology-sort';
import { TopologySidebar } from './sidebar/topology-sidebar';
import { TopologyBreadcrumbs } from './topology-breadcrumbs';
import { TopologyCard } from './topology-card';
import { TopologyFilterBar } from './topology-filter-bar';

function CardsSkeleton() {
  return (
    <div className="flex flex-wrap gap-3" aria-busy="true" aria-label="Loading components">
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="h-40 w-80 animate-pulse rounded-lg border border-slate-200 bg-slate-100" />
      ))}
    </div>
  );
}

/**
 * `/topology` and `/topology/{id}` (spec 3 section 2.2): breadcrumbs, the filter bar, the cards
 * sorted (unhealthy first by default) at the slider's width, and on a component page its
 * children with the right sidebar. The page refetches at the chosen refresh rate.
 */
export function TopologyPage({ id }: { id: string | undefined }) {
  const [search] = useSearchParams();
  const refererId = search.get('refererId') ?? undefined;
  const [filters, setFilters] = useTopologyFilters();
  const [width, setWidth] = useCardWidth();
  const [rate, setRate] = useRefreshRateParam();
  const [sidebarOpen, setSidebarOpen] = useSidebarOpen();
  const query = useMemo(() => topologyQuery(filters, id), [filters, id]);
  const topology = useTopology(query, refreshRateToMs(rate));
  const components = useMemo(() => pageComponents(topology.data?.components ?? [], id), [topology.data, id]);
  const options = useMemo(() => sortOptions(components), [components]);
  const sorted = useMemo(() => sortComponents(components, filters.sortBy, filters.sortOrder), [components, filters]);
  const current = id ? topology.data?.components[0] : undefined;
  const several = Boolean(id) && (topology.data?.components.length ?? 0) > 1;

  useEffect(() => {
    if (several) toast.error(TOPOLOGY_TEXTS.multiple);
  }, [several]);
  useEffect(() => {
    if (topology.isError) toast.error(TOPOLOGY_TEXTS.loadError);
  }, [topology.isError]);

  return (
    <>
      <PageHeader
        title={current?.name ?? TOPOLOGY_TEXTS.title}
        actions={
          <>
            {current && (
              <button
                type="button"
                aria-pressed={sidebarOpen}
                title={sidebarOpen ? TOPOLOGY_TEXTS.hideSidebar : TOPOLOGY_TEXTS.showSidebar}
                aria-label={sidebarOpen ? TOPOLOGY_TEXTS.hideSidebar : TOPOLOGY_TEXTS.showSidebar}
                onClick={() => setSidebarOpen(!sidebarOpen)}
                className="inline-flex size-8 items-center justify-center rounded border border-gray-300 bg-white text-gray-700 hover:bg-gray-50"
              >
                {sidebarOpen ? (
                  <PanelRightClose aria-hidden className="size-4" />
                ) : (
                  <PanelRightOpen aria-hidden className="size-4" />
                )}
              </button>
            )}
            <RefreshRateSelect value={rate} onChange={setRate} />
          </>
        }
        onRefresh={() => void topology.refetch()}
        isLoading={topology.isFetching}
      />
      <div className="flex h-full min-h-0">
        <div className="flex min-w-0 flex-1 flex-col gap-3 overflow-y-auto p-4">
          <TopologyBreadcrumbs id={id} refererId={refererId} />
          <TopologyFilterBar
            data={topology.data}
            filters={filters}
            onChange={setFilters}
            sortOptions={options}
            cardWidth={width}
            onCardWidthChange={setWidth}
          />
          {topology.isError && !topology.data ? (
            <ErrorPanel error={topology.error} onRetry={() => void topology.refetch()} />
          ) : topology.isPending ? (
            <CardsSkeleton />
          ) : sorted.length === 0 ? (
            <p role="status" className="my-8 text-center text-sm text-slate-500">
              {id && !current ? TOPOLOGY_TEXTS.notFound : TOPOLOGY_TEXTS.empty}
            </p>
          ) : (
            <ul className="flex flex-wrap items-start gap-3" aria-label={TOPOLOGY_TEXTS.title}>
              {sorted.map((component) => (
                <li key={component.id}>
                  <TopologyCard component={component} size={width} />
                </li>
              ))}
            </ul>
          )}
        </div>
        {current && sidebarOpen && <TopologySidebar key={current.id} component={current} refererId={refererId} />}
      </div>
    </>
  );
}
