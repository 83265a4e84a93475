import {
  CATALOG_CHANGES_HIDE_DELETED_KEY,
  CATALOG_CHANGES_SORT_COLUMNS,
  CATALOG_CHANGES_TEXTS,
  type CatalogChangeRow,
} from '@lookout/contracts';
import type { SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useCatalogChanges } from '../api/changes-api';
import { useChangesParams } from '../hooks/use-changes-params';
import { useStoredState } from '../hooks/use-stored-state';
import { changesBody, changesChips } from '../lib/changes-params';
import { changesWindow } from '../lib/changes-window';
import { ChangeDialog } from './change-dialog';
import { ChangesFilters } from './changes-filters';
import { changesColumns } from './changes-columns';
import { FilterChips, type Chip } from './filter-chips';

const texts = CATALOG_CHANGES_TEXTS;
const NO_ROWS: readonly CatalogChangeRow[] = [];
const CHIP_LABELS = {
  ...texts.chips,
  tags: texts.filters.tags,
  changeType: texts.filters.changeType,
  severity: texts.filters.severity,
  configTypes: texts.filters.configType,
};

const isSortColumn = (id: string) => (CATALOG_CHANGES_SORT_COLUMNS as readonly string[]).includes(id);

/**
 * The changes list (spec 3 section 2.1): all items at /catalog/changes, or one item (and,
 * through the toggles, its related items) on its Changes tab. Filters, page and order live in
 * the address; the server sorts and pages (`POST /api/catalog/changes`); a row opens the
 * change dialog with its diff.
 */
export function ChangesView({ configId }: { configId?: string }) {
  const { params, range, rangeIsDefault, update } = useChangesParams();
  const [hideDeleted, setHideDeleted] = useStoredState(CATALOG_CHANGES_HIDE_DELETED_KEY, true);
  const [opened, setOpened] = useState<CatalogChangeRow | null>(null);
  const body = useMemo(
    () => changesBody(params, changesWindow(range), hideDeleted, configId),
    [params, range, hideDeleted, configId],
  );
  const changes = useCatalogChanges(body);
  // The item column shows wherever rows may be of several items: all changes, or related ones.
  const withCatalog = configId === undefined || params.downstream || params.upstream;
  const columns = useMemo(() => changesColumns(withCatalog), [withCatalog]);

  const chips: Chip[] = changesChips(params, CHIP_LABELS, configId ? ['id'] : []).map((chip) => ({
    ...chip,
    onRemove: () => update(chip.clear),
  }));
  if (!rangeIsDefault) {
    chips.unshift({
      key: 'range',
      label: texts.timeRange,
      value: range.display,
      onRemove: () => update({ range: null }),
    });
  }

  const sorting = useMemo<SortingState>(
    () => [{ id: params.sortBy, desc: params.sortDirection === 'desc' }],
    [params.sortBy, params.sortDirection],
  );
  const onSortingChange = (next: SortingState) => {
    const [first] = next;
    if (first && isSortColumn(first.id)) update({ sortBy: first.id, sortDirection: first.desc ? 'desc' : 'asc' });
  };
  const total = changes.data?.total ?? 0;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <ChangesFilters
        params={params}
        range={range}
        onChange={update}
        hideDeleted={hideDeleted}
        onHideDeletedChange={setHideDeleted}
        forItem={configId !== undefined}
      />
      <div className="flex flex-wrap items-center gap-3">
        <FilterChips chips={chips} />
        {changes.data && (
          <span data-testid="changes-total" className="ml-auto text-xs text-slate-500 tabular-nums">
            {texts.total(total)}
          </span>
        )}
      </div>
      {changes.isError && !changes.data ? (
        <ErrorPanel error={changes.error} onRetry={() => void changes.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          data={changes.data?.changes ?? NO_ROWS}
          getRowId={(row) => row.id}
          isLoading={changes.isPending}
          emptyMessage={texts.empty}
          sorting={sorting}
          onSortingChange={onSortingChange}
          manualSorting
          pagination={{
            mode: 'remote',
            state: { pageIndex: params.page - 1, pageSize: params.pageSize },
            pageCount: Math.max(1, Math.ceil(total / params.pageSize)),
            onChange: (next) =>
              update(
                next.pageSize === params.pageSize ? { page: next.pageIndex + 1 } : { pageSize: next.pageSize, page: 1 },
              ),
          }}
          onRowClick={setOpened}
          aria-label={texts.title}
          className="min-h-0 flex-1 rounded-lg border border-slate-200 bg-white"
        />
      )}
      <ChangeDialog configId={opened?.config_id ?? ''} changeId={opened?.id ?? null} onClose={() => setOpened(null)} />
    </div>
  );
}
