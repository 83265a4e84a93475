import { CATALOG_STORAGE_KEYS, CATALOG_TEXTS } from '@lookout/contracts';
import { useNavigate } from 'react-router';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useCatalogSummary, useConfigs } from '../api/catalog-api';
import { useCatalogParams } from '../hooks/use-catalog-params';
import { useStoredState } from '../hooks/use-stored-state';
import { toggleFavourite } from '../lib/catalog-fns';
import { showsTable } from '../lib/catalog-params';
import { CatalogFilters } from './catalog-filters';
import { CatalogPageTabs } from './catalog-page-tabs';
import { CatalogSummaryTable } from './catalog-summary-table';
import { ConfigsTable } from './configs-table';

/**
 * `/catalog` (spec 3 section 2.1): the summary rows by class and type, or with a type or a
 * search the item table.
 */
export function CatalogList() {
  const [params, setParams] = useCatalogParams();
  const [hideDeleted, setHideDeleted] = useStoredState(CATALOG_STORAGE_KEYS.hideDeleted, true);
  const [favourites, setFavourites] = useStoredState<string[]>(CATALOG_STORAGE_KEYS.favourites, []);
  const navigate = useNavigate();
  const table = showsTable(params);
  const summary = useCatalogSummary(params, hideDeleted, !table);
  const configs = useConfigs(params, hideDeleted, table);
  const current = table ? configs : summary;

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <h1 className="text-lg font-semibold text-slate-900">{CATALOG_TEXTS.title}</h1>
      <CatalogPageTabs />
      <CatalogFilters
        params={params}
        onChange={setParams}
        hideDeleted={hideDeleted}
        onHideDeletedChange={setHideDeleted}
      />
      <div className="min-h-0 flex-1 overflow-auto rounded-lg border border-slate-200 bg-white">
        {current.isError ? (
          <ErrorPanel error={current.error} onRetry={() => void current.refetch()} />
        ) : table ? (
          <ConfigsTable
            rows={configs.data ?? []}
            isLoading={configs.isPending}
            sortBy={params.sortBy}
            sortOrder={params.sortOrder}
            onSort={(sortBy, sortOrder) => setParams({ sortBy, sortOrder })}
            onOpen={(row) => void navigate(`/catalog/${row.id}`)}
          />
        ) : (
          <CatalogSummaryTable
            rows={summary.data ?? []}
            groupBy={params.groupBy.filter((key) => key !== 'type' && key !== 'config_class')}
            favourites={favourites}
            onToggleFavourite={(type) => setFavourites(toggleFavourite(favourites, type))}
            onOpenType={(configType) => setParams({ configType })}
          />
        )}
      </div>
    </div>
  );
}
