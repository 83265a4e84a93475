import {
  columnGroupingFeature,
  columnSizingFeature,
  createColumnHelper,
  createExpandedRowModel,
  createGroupedRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  metaHelper,
  rowExpandingFeature,
  rowPaginationFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
  type Cell,
  type ColumnHelper,
  type Row,
  type RowData,
  type TableOptions,
} from '@tanstack/react-table';

/** Per-column presentation hints the data table understands. */
export type DataTableColumnMeta = {
  /** Extra classes for the column's body cells (alignment, truncation, width). */
  cellClassName?: string;
  /** Extra classes for the column's header cell. */
  headerClassName?: string;
};

/**
 * The one feature set every data table registers. TanStack Table v9 types column definitions
 * by their feature set, so features build columns with {@link createDataTableColumnHelper}
 * against this exact object.
 */
export const dataTableFeatures = tableFeatures({
  columnSizingFeature,
  columnGroupingFeature,
  groupedRowModel: createGroupedRowModel(),
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: {
    alphanumeric: sortFn_alphanumeric,
    basic: sortFn_basic,
    datetime: sortFn_datetime,
    text: sortFn_text,
  },
  rowExpandingFeature,
  expandedRowModel: createExpandedRowModel(),
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
  columnMeta: metaHelper<DataTableColumnMeta>(),
});

export type DataTableFeatures = typeof dataTableFeatures;

/** Column definitions accepted by `DataTable` for rows of type `TData`. */
export type DataTableColumns<TData extends RowData> = TableOptions<DataTableFeatures, TData>['columns'];

export type DataTableRow<TData extends RowData> = Row<DataTableFeatures, TData>;
export type DataTableCell<TData extends RowData> = Cell<DataTableFeatures, TData, unknown>;

/**
 * Column helper bound to the data table's features, so accessor value types are inferred:
 * `const col = createDataTableColumnHelper<User>(); const columns = col.columns([...])`.
 */
export function createDataTableColumnHelper<TData extends RowData>(): ColumnHelper<DataTableFeatures, TData> {
  return createColumnHelper<DataTableFeatures, TData>();
}
