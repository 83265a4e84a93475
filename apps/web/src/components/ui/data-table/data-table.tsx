import { VIEW_MESSAGES } from '@lookout/contracts';
import type { RowData } from '@tanstack/react-table';
import { clsx } from 'clsx';
import { useRef } from 'react';
import { DataTableBody } from '@/components/ui/data-table/data-table-body';
import { DataTableHead } from '@/components/ui/data-table/data-table-head';
import { DataTablePagination } from '@/components/ui/data-table/data-table-pagination';
import type { DataTableProps } from '@/components/ui/data-table/data-table-types';
import { useDataTable } from '@/components/ui/data-table/use-data-table';
import { useFrozenColumnWidths } from '@/components/ui/data-table/use-frozen-column-widths';
import { useScrollPersistence } from '@/components/ui/data-table/use-scroll-persistence';
import { useVirtualRows } from '@/components/ui/data-table/use-virtual-rows';

export type {
  DataTableClientPagination,
  DataTablePaginationConfig,
  DataTableProps,
  DataTableRemotePagination,
  DataTableVirtualOptions,
  DataTableVirtualPagination,
} from '@/components/ui/data-table/data-table-types';

/**
 * The shared data table (spec 1, section 2.7; architecture section 8): sortable headers,
 * optional grouping, optional virtual scrolling, client or remote pagination, empty state,
 * loading skeleton, row click, and optional session persistence of scroll and expansion.
 *
 * It composes hooks (`useDataTable` for state and row models, `useVirtualRows`,
 * `useFrozenColumnWidths`, `useScrollPersistence`) and parts (`DataTableHead`,
 * `DataTableBody`, `DataTablePagination`).
 */
export function DataTable<TData extends RowData>({
  columns,
  data,
  getRowId,
  getSubRows,
  isLoading = false,
  emptyMessage = VIEW_MESSAGES.emptyTable,
  onRowClick,
  sorting,
  defaultSorting,
  onSortingChange,
  manualSorting,
  groupBy,
  pagination,
  virtual,
  virtualPagination,
  persistStateKey,
  className,
  'aria-label': ariaLabel,
  skeletonRows,
}: DataTableProps<TData>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);

  const {
    table,
    pagination: paginationState,
    pageCount,
  } = useDataTable({
    columns,
    data,
    getRowId,
    getSubRows,
    sorting,
    defaultSorting,
    onSortingChange,
    manualSorting,
    groupBy,
    pagination,
    persistStateKey,
  });

  const rows = table.getRowModel().rows;
  const leafColumns = table.getAllLeafColumns();
  const columnCount = Math.max(leafColumns.length, 1);
  const hasRows = rows.length > 0;

  const virtualRows = useVirtualRows({
    rows,
    scrollRef,
    virtual,
    virtualPagination,
    dataLength: data.length,
    isLoading,
  });

  const frozenWidths = useFrozenColumnWidths({
    tableRef,
    enabled: virtualRows.isVirtual,
    columnIds: leafColumns.map((column) => column.id),
    // The virtualizer renders no rows until it has measured its scroll box; measure after that.
    ready: virtualRows.items.length > 0,
  });

  const onScrollPersist = useScrollPersistence({ scrollRef, persistStateKey, ready: hasRows && !isLoading });

  return (
    <div className="flex min-h-0 flex-col">
      <div
        ref={scrollRef}
        onScroll={(event) => {
          onScrollPersist();
          virtualRows.onScroll(event.currentTarget);
        }}
        data-testid="data-table-scroll"
        className={clsx('relative min-h-0 overflow-auto', className)}
      >
        <table
          ref={tableRef}
          aria-label={ariaLabel}
          aria-busy={isLoading || undefined}
          className={clsx('w-full border-collapse text-sm', frozenWidths && 'table-fixed')}
        >
          {frozenWidths && (
            <colgroup>
              {frozenWidths.map((width, index) => (
                <col key={leafColumns[index]?.id ?? index} style={{ width }} />
              ))}
            </colgroup>
          )}
          <DataTableHead table={table} />
          <DataTableBody
            table={table}
            rows={rows}
            columnCount={columnCount}
            virtualRows={virtualRows}
            isLoading={isLoading}
            emptyMessage={emptyMessage}
            skeletonRows={skeletonRows}
            onRowClick={onRowClick}
          />
        </table>
      </div>
      {pagination && (
        <DataTablePagination
          className="border-t border-gray-200"
          pageIndex={paginationState.pageIndex}
          pageCount={pageCount}
          pageSize={paginationState.pageSize}
          onPageIndexChange={(index) => table.setPageIndex(index)}
          onPageSizeChange={(size) => table.setPagination({ pageIndex: 0, pageSize: size })}
          {...(pagination.pageSizes ? { pageSizes: pagination.pageSizes } : {})}
        />
      )}
    </div>
  );
}
