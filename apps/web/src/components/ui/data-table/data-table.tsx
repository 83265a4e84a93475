import { DEFAULT_PAGE_SIZE, VIEW_MESSAGES, VIRTUAL_ROWS } from '@lookout/contracts';
import {
  functionalUpdate,
  useTable,
  type ExpandedState,
  type PaginationState,
  type RowData,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { clsx } from 'clsx';
import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, ChevronsUpDown } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import {
  dataTableFeatures,
  type DataTableColumns,
  type DataTableRow,
} from '@/components/ui/data-table/data-table-features';
import { DataTablePagination } from '@/components/ui/data-table/data-table-pagination';
import { DataTableSkeletonRows } from '@/components/ui/data-table/data-table-skeleton';
import { readDataTableState, writeDataTableState } from '@/components/ui/data-table/data-table-storage';

/** Client pagination: the table slices `data` itself; state may be owned by the caller (URL). */
export type DataTableClientPagination = {
  mode: 'client';
  /** Controlled page state; omit to let the table keep it. */
  state?: PaginationState;
  onChange?: (state: PaginationState) => void;
  /** First page size when the table keeps the state. */
  defaultPageSize?: number;
};

/** Remote pagination: `data` is already the current page; the caller fetches on change. */
export type DataTableRemotePagination = {
  mode: 'remote';
  state: PaginationState;
  /** Total number of pages the server reports. */
  pageCount: number;
  onChange: (state: PaginationState) => void;
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

/** Props of {@link DataTable}. */
export type DataTableProps<TData extends RowData> = {
  /** Build with `createDataTableColumnHelper<TData>().columns([...])`; keep the reference stable. */
  columns: DataTableColumns<TData>;
  /** Rows to show; keep the reference stable between renders (memoize or take it from a query). */
  data: ReadonlyArray<TData>;
  /** Stable row ids; required for persisted expansion of nested rows to survive reordering. */
  getRowId?: (row: TData, index: number) => string;
  /** Children of a row, for tree data; rows with children get an expand toggle. */
  getSubRows?: (row: TData, index: number) => ReadonlyArray<TData> | undefined;
  /** Shows the skeleton while there are no rows yet, and marks the table busy. */
  isLoading?: boolean;
  /** Empty-state text; defaults to 'No data available' (spec 1, section 8). */
  emptyMessage?: ReactNode;
  /** Called when a data row is clicked or activated with Enter. */
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

function countLeafRows<TData extends RowData>(rows: ReadonlyArray<DataTableRow<TData>>): number {
  return rows.reduce((count, row) => count + (row.subRows.length ? countLeafRows(row.subRows) : 1), 0);
}

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  if (sorted === 'asc') return 'ascending';
  if (sorted === 'desc') return 'descending';
  return 'none';
}

const SCROLL_SAVE_DELAY_MS = 150;
const INDENT_PX = 16;

/**
 * The shared data table (spec 1, section 2.7; architecture section 8): sortable headers,
 * optional grouping, optional virtual scrolling, client or remote pagination, empty state,
 * loading skeleton, row click, and optional session persistence of scroll and expansion.
 */
export function DataTable<TData extends RowData>({
  columns,
  data,
  getRowId,
  getSubRows,
  isLoading = false,
  emptyMessage = VIEW_MESSAGES.emptyTable,
  onRowClick,
  sorting: controlledSorting,
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

  const [internalSorting, setInternalSorting] = useState<SortingState>(defaultSorting ?? []);
  const sorting = controlledSorting ?? internalSorting;

  const [expanded, setExpanded] = useState<ExpandedState>(() =>
    persistStateKey ? (readDataTableState(persistStateKey).expanded ?? {}) : {},
  );

  const [internalPagination, setInternalPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: pagination?.mode === 'client' ? (pagination.defaultPageSize ?? DEFAULT_PAGE_SIZE) : DEFAULT_PAGE_SIZE,
  });
  const paginationState = pagination?.state ?? internalPagination;

  // Callers often pass `groupBy={['status']}` inline; a new array each render would regroup
  // every row on every render, so the grouping state follows the column ids, not the array.
  const groupingKey = groupBy?.join('\u0000') ?? '';
  const grouping = useMemo(() => (groupingKey ? groupingKey.split('\u0000') : []), [groupingKey]);

  const handleSortingChange = (updater: Updater<SortingState>) => {
    const next = functionalUpdate(updater, sorting);
    if (controlledSorting === undefined) setInternalSorting(next);
    onSortingChange?.(next);
    // A new order gives every page new rows; staying on page 7 of it would be arbitrary.
    if (pagination && paginationState.pageIndex !== 0) handlePaginationChange({ ...paginationState, pageIndex: 0 });
  };

  const handlePaginationChange = (updater: Updater<PaginationState>) => {
    const next = functionalUpdate(updater, paginationState);
    if (pagination?.state === undefined) setInternalPagination(next);
    pagination?.onChange?.(next);
  };

  const handleExpandedChange = (updater: Updater<ExpandedState>) => {
    const next = functionalUpdate(updater, expanded);
    setExpanded(next);
    if (persistStateKey && next !== true) writeDataTableState(persistStateKey, { expanded: next });
  };

  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    getRowId,
    getSubRows,
    state: {
      sorting,
      expanded,
      grouping,
      pagination: paginationState,
    },
    onSortingChange: handleSortingChange,
    onExpandedChange: handleExpandedChange,
    onPaginationChange: handlePaginationChange,
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

  const rows = table.getRowModel().rows;
  const leafColumns = table.getAllLeafColumns();
  const columnCount = Math.max(leafColumns.length, 1);
  const pageCount = pagination ? table.getPageCount() : 1;

  // Client data can shrink under the current page (filters, refetch): fall back to the last page.
  const { pageIndex } = paginationState;
  useEffect(() => {
    if (pagination?.mode === 'client' && pageCount > 0 && pageIndex > pageCount - 1) {
      table.setPageIndex(pageCount - 1);
    }
  }, [pagination?.mode, pageCount, pageIndex, table]);

  const virtualOptions = typeof virtual === 'object' ? virtual : {};
  const isVirtual = Boolean(virtual);
  const estimateSize = virtualOptions.estimateSize ?? VIRTUAL_ROWS.estimate;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    overscan: virtualOptions.overscan ?? VIRTUAL_ROWS.overscan,
    getItemKey: (index) => rows[index]?.id ?? index,
    enabled: isVirtual,
  });
  const virtualItems = isVirtual ? virtualizer.getVirtualItems() : [];

  // Virtual pagination: ask once per page size when the last row has been reached.
  const requestedForPageSize = useRef<number | undefined>(undefined);
  const requestMoreRows = useCallback(() => {
    if (!virtualPagination || isLoading || virtualPagination.hasMore === false) return;
    const { pageSize, onPageSizeChange } = virtualPagination;
    // A short answer means the server has nothing more to give.
    if (data.length < pageSize || requestedForPageSize.current === pageSize) return;
    requestedForPageSize.current = pageSize;
    onPageSizeChange(pageSize * 2);
  }, [virtualPagination, isLoading, data.length]);

  const lastVirtualIndex = virtualItems.at(-1)?.index;
  useEffect(() => {
    if (isVirtual && rows.length > 0 && lastVirtualIndex === rows.length - 1) requestMoreRows();
  }, [isVirtual, lastVirtualIndex, rows.length, requestMoreRows]);

  // Scroll persistence: save while scrolling (debounced), restore once rows are on screen.
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pendingScrollTop = useRef<number | undefined>(undefined);
  const restoredScroll = useRef(false);

  const flushScrollSave = useCallback(() => {
    clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    if (persistStateKey && pendingScrollTop.current !== undefined) {
      writeDataTableState(persistStateKey, { scrollTop: pendingScrollTop.current });
      pendingScrollTop.current = undefined;
    }
  }, [persistStateKey]);

  useEffect(() => flushScrollSave, [flushScrollSave]);

  const hasRows = rows.length > 0;

  // With automatic table layout the columns fit whatever rows are in the DOM, so in a virtual
  // table they would change width on every scroll step. The first rendered rows set the widths
  // once; a different set of columns measures again.
  const columnSignature = leafColumns.map((column) => column.id).join('\u0000');
  const [frozenColumns, setFrozenColumns] = useState<{ signature: string; widths: number[] } | undefined>(undefined);
  const frozenWidths = isVirtual && frozenColumns?.signature === columnSignature ? frozenColumns.widths : undefined;
  // The virtualizer renders no rows until it has measured its scroll box; measure after that.
  const hasVirtualRows = virtualItems.length > 0;
  useLayoutEffect(() => {
    if (!isVirtual || frozenWidths || !hasVirtualRows) return;
    const headerRows = tableRef.current?.tHead?.rows;
    const leafHeaderRow = headerRows?.[headerRows.length - 1];
    if (!leafHeaderRow) return;
    const widths = Array.from(leafHeaderRow.cells, (cell) => cell.getBoundingClientRect().width);
    // Without layout (a hidden table, jsdom) there is nothing to measure: stay automatic.
    if (widths.length !== leafColumns.length || widths.some((width) => width <= 0)) return;
    setFrozenColumns({ signature: columnSignature, widths });
  }, [isVirtual, frozenWidths, hasVirtualRows, columnSignature, leafColumns.length]);
  useLayoutEffect(() => {
    if (restoredScroll.current || !persistStateKey || !hasRows || isLoading) return;
    restoredScroll.current = true;
    const { scrollTop } = readDataTableState(persistStateKey);
    if (scrollTop !== undefined && scrollRef.current) scrollRef.current.scrollTop = scrollTop;
  }, [persistStateKey, hasRows, isLoading]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    if (persistStateKey && restoredScroll.current) {
      pendingScrollTop.current = element.scrollTop;
      clearTimeout(saveTimer.current);
      saveTimer.current = setTimeout(flushScrollSave, SCROLL_SAVE_DELAY_MS);
    }
    // Without virtualization the end of the list is found from the scroll position.
    if (
      !isVirtual &&
      virtualPagination &&
      element.scrollTop + element.clientHeight >= element.scrollHeight - estimateSize
    ) {
      requestMoreRows();
    }
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, original: TData) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(original);
    }
  };

  const renderRow = (row: DataTableRow<TData>, index?: number) => {
    const rowStyle = isVirtual ? { height: estimateSize } : undefined;
    if (row.getIsGrouped()) {
      const groupCell = row.getAllCells().find((cell) => cell.column.id === row.groupingColumnId);
      const isExpanded = row.getIsExpanded();
      return (
        <tr key={row.id} data-index={index} style={rowStyle} className="border-b border-gray-100 bg-gray-50/70">
          <td colSpan={columnCount} className="px-3 py-1.5">
            <button
              type="button"
              aria-expanded={isExpanded}
              onClick={() => row.toggleExpanded()}
              style={{ paddingLeft: row.depth * INDENT_PX }}
              className="flex items-center gap-1.5 rounded text-left font-medium text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              {isExpanded ? (
                <ChevronDown aria-hidden className="size-4 shrink-0 text-gray-500" />
              ) : (
                <ChevronRight aria-hidden className="size-4 shrink-0 text-gray-500" />
              )}
              <span>{groupCell ? <table.FlexRender cell={groupCell} /> : String(row.groupingValue ?? '')}</span>
              <span className="rounded-full bg-gray-200 px-1.5 text-xs font-normal text-gray-600">
                {countLeafRows(row.subRows)}
              </span>
            </button>
          </td>
        </tr>
      );
    }

    const clickable = Boolean(onRowClick);
    return (
      <tr
        key={row.id}
        data-index={index}
        style={rowStyle}
        tabIndex={clickable ? 0 : undefined}
        onClick={clickable ? () => onRowClick?.(row.original) : undefined}
        onKeyDown={clickable ? (event) => onRowKeyDown(event, row.original) : undefined}
        className={clsx(
          'border-b border-gray-100',
          clickable &&
            'cursor-pointer hover:bg-blue-50/60 focus-visible:bg-blue-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500',
        )}
      >
        {row.getAllCells().map((cell, cellIndex) => {
          const first = cellIndex === 0;
          const canExpand = first && row.getCanExpand();
          return (
            <td
              key={cell.id}
              className={clsx(
                'px-3 align-middle text-gray-800',
                // A virtual row must be exactly the estimated height, or the spacer rows drift
                // from the real positions: one line, no vertical padding, overflow cut off.
                isVirtual ? 'truncate py-0' : 'py-2',
                cell.column.columnDef.meta?.cellClassName,
              )}
              style={first && row.depth > 0 ? { paddingLeft: 12 + row.depth * INDENT_PX } : undefined}
            >
              {canExpand ? (
                <span className="flex items-center gap-1">
                  <button
                    type="button"
                    aria-expanded={row.getIsExpanded()}
                    aria-label={row.getIsExpanded() ? 'Collapse row' : 'Expand row'}
                    onClick={(event) => {
                      // Expanding must not also count as a click on the row.
                      event.stopPropagation();
                      row.toggleExpanded();
                    }}
                    className="rounded text-gray-500 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500"
                  >
                    {row.getIsExpanded() ? (
                      <ChevronDown aria-hidden className="size-4" />
                    ) : (
                      <ChevronRight aria-hidden className="size-4" />
                    )}
                  </button>
                  <table.FlexRender cell={cell} />
                </span>
              ) : (
                <table.FlexRender cell={cell} />
              )}
            </td>
          );
        })}
      </tr>
    );
  };

  const renderBody = () => {
    if (isLoading && !hasRows) {
      return <DataTableSkeletonRows rows={skeletonRows} columns={columnCount} />;
    }
    if (!hasRows) {
      return (
        <tr>
          <td colSpan={columnCount} className="px-3 py-8 text-center text-sm text-gray-500">
            {emptyMessage}
          </td>
        </tr>
      );
    }
    if (!isVirtual) return rows.map((row) => renderRow(row));

    // Spacer rows keep native table layout (column widths follow the content) while only
    // the rows in view are in the DOM.
    const paddingTop = virtualItems[0]?.start ?? 0;
    const paddingBottom = virtualizer.getTotalSize() - (virtualItems.at(-1)?.end ?? 0);
    return (
      <>
        {paddingTop > 0 && (
          <tr aria-hidden="true" style={{ height: paddingTop }}>
            <td colSpan={columnCount} />
          </tr>
        )}
        {virtualItems.map((item) => {
          const row = rows[item.index];
          return row ? renderRow(row, item.index) : null;
        })}
        {paddingBottom > 0 && (
          <tr aria-hidden="true" style={{ height: paddingBottom }}>
            <td colSpan={columnCount} />
          </tr>
        )}
      </>
    );
  };

  return (
    <div className="flex min-h-0 flex-col">
      <div
        ref={scrollRef}
        onScroll={onScroll}
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
          <thead className="sticky top-0 z-10 bg-gray-50 shadow-[inset_0_-1px_0] shadow-gray-200">
            {table.getHeaderGroups().map((headerGroup) => (
              <tr key={headerGroup.id}>
                {headerGroup.headers.map((header) => {
                  const column = header.column;
                  const canSort = !header.isPlaceholder && column.getCanSort();
                  const sorted = column.getIsSorted();
                  const size = column.columnDef.size;
                  return (
                    <th
                      key={header.id}
                      colSpan={header.colSpan}
                      scope="col"
                      aria-sort={canSort ? ariaSort(sorted) : undefined}
                      style={size !== undefined ? { width: size } : undefined}
                      className={clsx(
                        // Headers stay on one line: a wrapped 'CREATED / BY' reads as two columns.
                        'px-3 py-2 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-gray-600 uppercase',
                        column.columnDef.meta?.headerClassName,
                      )}
                    >
                      {header.isPlaceholder ? null : canSort ? (
                        <button
                          type="button"
                          onClick={column.getToggleSortingHandler()}
                          className="inline-flex items-center gap-1 rounded uppercase hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500"
                        >
                          <table.FlexRender header={header} />
                          {sorted === 'asc' ? (
                            <ArrowUp aria-hidden className="size-3.5" />
                          ) : sorted === 'desc' ? (
                            <ArrowDown aria-hidden className="size-3.5" />
                          ) : (
                            <ChevronsUpDown aria-hidden className="size-3.5 text-gray-400" />
                          )}
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>{renderBody()}</tbody>
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
        />
      )}
    </div>
  );
}
