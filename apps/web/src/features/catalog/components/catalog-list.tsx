import { CATALOG_STORAGE_KEYS, CATALOG_TEXTS } from '@lookout/contracts';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useCatalogSummary, useConfigPages } from '../api/catalog-api';
import { useCatalogParams } from '../hooks/use-catalog-params';
import { useStoredState } from '../hooks/use-stored-state';
import { toggleFavourite } from '../lib/catalog-fns';
import { configsQuery, showsTable } from '../lib/catalog-params';
import { flattenConfigsPages } from '../lib/configs-paging';
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
  const configs = useConfigPages(params, hideDeleted, table);
  const current = table ? configs : summary;
  // One array per set of loaded pages: the table wants a stable data reference.
  const loaded = useMemo(() => flattenConfigsPages(configs.data?.pages), [configs.data?.pages]);

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageHeader title={CATALOG_TEXTS.title} onRefresh={() => void current.refetch()} isLoading={current.isFetching} />
      <CatalogPageTabs />
      <CatalogFilters
        params={params}
        onChange={setParams}
        hideDeleted={hideDeleted}
        onHideDeletedChange={setHideDeleted}
      />
      {table && configs.data && (
        <p className="text-sm tabular-nums text-slate-600" data-testid="catalog-total">
          {loaded.total.toLocaleString('en-US')} {CATALOG_TEXTS.items}
        </p>
      )}
      <div
        className={
          table
            ? // One grid row of the remaining height: the virtual table's own scroll box must be
              // bounded, or it grows to all its rows and the virtualizer draws every one of them.
              'grid min-h-0 flex-1 grid-rows-[minmax(0,1fr)] overflow-hidden rounded-lg border border-slate-200 bg-white'
            : 'min-h-0 flex-1 overflow-auto rounded-lg border border-slate-200 bg-white'
        }
      >
        {current.isError ? (
          <ErrorPanel error={current.error} onRetry={() => void current.refetch()} />
        ) : table ? (
          <ConfigsTable
            // A new order or filter starts at the top: remounting drops the old scroll position,
            // which would otherwise sit past the new first page and page on at once.
            key={JSON.stringify(configsQuery(params, hideDeleted))}
            rows={loaded.rows}
            isLoading={configs.isPending}
            hasMore={configs.hasNextPage}
            onLoadMore={() => {
              if (configs.hasNextPage && !configs.isFetchingNextPage) void configs.fetchNextPage();
            }}
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
