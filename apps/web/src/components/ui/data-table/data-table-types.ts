import type { PaginationState, RowData, SortingState } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { DataTableColumns } from '@/components/ui/data-table/data-table-features';

/** Client pagination: the table slices `data` itself; state may be owned by the caller (URL). */
export type DataTableClientPagination = {
  mode: 'client';
  /** Controlled page state; omit to let the table keep it. */
  state?: PaginationState;
  onChange?: (state: PaginationState) => void;
  /** First page size when the table keeps the state. */
  defaultPageSize?: number;
  /** The page sizes offered (default: spec 1 section 9's list). */
  pageSizes?: readonly number[];
};

/** Remote pagination: `data` is already the current page; the caller fetches on change. */
export type DataTableRemotePagination = {
  mode: 'remote';
  state: PaginationState;
  /** Total number of pages the server reports. */
  pageCount: number;
  onChange: (state: PaginationState) => void;
  /** The page sizes offered (default: spec 1 section 9's list). */
  pageSizes?: readonly number[];
};

export type DataTablePaginationConfig = DataTableClientPagination | DataTableRemotePagination;

/** Virtual scrolling geometry; defaults are spec 1, section 9 (35 px rows, overscan 10). */
export type DataTableVirtualOptions = {
  estimateSize?: number;
  overscan?: number;
};

/**
 * "Virtual pagination" (spec 1, section 9): the caller loads `pageSize` rows, the table shows
 * them all, and when the last row comes into view it asks for twice as many.
 */
export type DataTableVirtualPagination = {
  pageSize: number;
  onPageSizeChange: (pageSize: number) => void;
  /** Set to false once the server has no more rows, so the size stops doubling. */
  hasMore?: boolean;
};

/** Props of `DataTable`. */
export type DataTableProps<TData extends RowData> = {
  /** Build with `createDataTableColumnHelper<TData>().columns([...])`; keep the reference stable. */
  columns: DataTableColumns<TData>;
  /** Rows to show; keep the reference stable between renders (memoize or take it from a query). */
  data: ReadonlyArray<TData>;
  /** Stable row ids; required for persisted expansion of nested rows to survive reordering. */
  getRowId?: (row: TData, index: number) => string;
  /**
   * Children of a row, for tree data. A row with children expands and collapses on a click
   * anywhere on it (or Enter/Space when focused), and has a chevron button that does the same.
   */
  getSubRows?: (row: TData, index: number) => ReadonlyArray<TData> | undefined;
  /** Shows the skeleton while there are no rows yet, and marks the table busy. */
  isLoading?: boolean;
  /** Empty-state text; defaults to 'No data available' (spec 1, section 8). */
  emptyMessage?: ReactNode;
  /** Called when a row without children is clicked or activated with Enter or Space. */
  onRowClick?: (row: TData) => void;
  /** Controlled sorting; omit to let the table keep it (starting from `defaultSorting`). */
  sorting?: SortingState;
  defaultSorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  /** The caller sorts (server side); implied by remote pagination. */
  manualSorting?: boolean;
  /** Column ids to group rows by; group rows show the value and a count and expand on click. */
  groupBy?: ReadonlyArray<string>;
  /** Omit to show every row without a pagination bar. */
  pagination?: DataTablePaginationConfig;
  /** Render only the rows in view; the container then needs a bounded height (`className`). */
  virtual?: boolean | DataTableVirtualOptions;
  virtualPagination?: DataTableVirtualPagination;
  /** When set, scroll position and expanded rows are kept in session storage under this key. */
  persistStateKey?: string;
  /** Classes of the scroll container, typically its height (`h-full`, `max-h-[600px]`). */
  className?: string;
  /** Accessible name of the table. */
  'aria-label'?: string;
  /** Number of skeleton rows while loading. */
  skeletonRows?: number;
};
