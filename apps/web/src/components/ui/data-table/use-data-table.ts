import { useTable, type PaginationState, type ReactTable, type RowData } from '@tanstack/react-table';
import { useEffect } from 'react';
import { dataTableFeatures, type DataTableFeatures } from '@/components/ui/data-table/data-table-features';
import type { DataTableProps } from '@/components/ui/data-table/data-table-types';
import { useDataTableState } from '@/components/ui/data-table/use-data-table-state';

/** The props {@link useDataTable} builds the TanStack table from. */
export type DataTableModelOptions<TData extends RowData> = Pick<
  DataTableProps<TData>,
  | 'columns'
  | 'data'
  | 'getRowId'
  | 'getSubRows'
  | 'sorting'
  | 'defaultSorting'
  | 'onSortingChange'
  | 'manualSorting'
  | 'groupBy'
  | 'pagination'
  | 'persistStateKey'
>;

/**
 * The TanStack table behind `DataTable`: its state from {@link useDataTableState}, the row
 * models of `dataTableFeatures`, and the rules every table shares (sorting toggles between
 * ascending and descending only; refetches keep groups open and the page; a client page past
 * the end of shrunken data falls back to the last page).
 */
export function useDataTable<TData extends RowData>({
  columns,
  data,
  getRowId,
  getSubRows,
  manualSorting,
  pagination,
  ...stateOptions
}: DataTableModelOptions<TData>): { table: DataTableModel<TData>; pagination: PaginationState; pageCount: number } {
  const { state, onSortingChange, onExpandedChange, onPaginationChange } = useDataTableState({
    ...stateOptions,
    pagination,
  });

  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    getRowId,
    getSubRows,
    state,
    onSortingChange,
    onExpandedChange,
    onPaginationChange,
    // Clicking a header toggles between ascending and descending only.
    enableSortingRemoval: false,
    manualSorting: manualSorting ?? pagination?.mode === 'remote',
    // Without pagination every row shows: "manual" here means the table does not slice.
    manualPagination: pagination?.mode !== 'client',
    pageCount: pagination?.mode === 'remote' ? pagination.pageCount : undefined,
    // Refetches (refresh rate, polling) must not collapse groups or jump back to page 1.
    autoResetExpanded: false,
    autoResetPageIndex: false,
  });

  const pageCount = pagination ? table.getPageCount() : 1;

  // Client data can shrink under the current page (filters, refetch): fall back to the last page.
  const { pageIndex } = state.pagination;
  useEffect(() => {
    if (pagination?.mode === 'client' && pageCount > 0 && pageIndex > pageCount - 1) {
      table.setPageIndex(pageCount - 1);
    }
  }, [pagination?.mode, pageCount, pageIndex, table]);

  return { table, pagination: state.pagination, pageCount };
}

/** The table {@link useDataTable} returns, which the head and body parts render. */
export type DataTableModel<TData extends RowData> = ReactTable<DataTableFeatures, TData>;
