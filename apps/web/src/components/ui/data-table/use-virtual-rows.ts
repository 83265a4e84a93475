import { VIRTUAL_ROWS } from '@lookout/contracts';
import type { RowData } from '@tanstack/react-table';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { DataTableProps } from '@/components/ui/data-table/data-table-types';

/** What {@link useVirtualRows} needs to know about the table. */
export type VirtualRowsOptions = Pick<DataTableProps<RowData>, 'virtual' | 'virtualPagination'> & {
  /** The rows on screen, in order; their ids key the virtual items. */
  rows: ReadonlyArray<{ id: string }>;
  /** The scroll box the rows move in. */
  scrollRef: RefObject<HTMLElement | null>;
  /** How many rows the caller passed (a short answer means the server has no more). */
  dataLength: number;
  isLoading: boolean;
};

/** The window of rows to render, and the spacer heights around it. */
export type VirtualRows = {
  isVirtual: boolean;
  /** Height of one row in px; virtual rows are exactly this tall. */
  rowHeight: number;
  /** The rows in view plus overscan (empty when the table is not virtual). */
  items: VirtualItem[];
  /** Space above and below the rendered window, kept by spacer rows. */
  paddingTop: number;
  paddingBottom: number;
  /** Call from the scroll box's scroll handler: a non-virtual list asks for more at its end. */
  onScroll: (element: HTMLElement) => void;
};

/**
 * Virtual scrolling of the table's rows (spec 1, section 9: 35 px rows, overscan 10 unless
 * told otherwise) and virtual pagination: once the last row is reached, the caller is asked
 * for twice as many rows, once per page size, and never after a short answer.
 */
export function useVirtualRows({
  rows,
  scrollRef,
  virtual,
  virtualPagination,
  dataLength,
  isLoading,
}: VirtualRowsOptions): VirtualRows {
  const virtualOptions = typeof virtual === 'object' ? virtual : {};
  const isVirtual = Boolean(virtual);
  const rowHeight = virtualOptions.estimateSize ?? VIRTUAL_ROWS.estimate;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: virtualOptions.overscan ?? VIRTUAL_ROWS.overscan,
    getItemKey: (index) => rows[index]?.id ?? index,
    enabled: isVirtual,
  });
  const items = isVirtual ? virtualizer.getVirtualItems() : [];

  const requestedForPageSize = useRef<number | undefined>(undefined);
  const requestMoreRows = useCallback(() => {
    if (!virtualPagination || isLoading || virtualPagination.hasMore === false) return;
    const { pageSize, onPageSizeChange } = virtualPagination;
    // A short answer means the server has nothing more to give.
    if (dataLength < pageSize || requestedForPageSize.current === pageSize) return;
    requestedForPageSize.current = pageSize;
    onPageSizeChange(pageSize * 2);
  }, [virtualPagination, isLoading, dataLength]);

  const lastIndex = items.at(-1)?.index;
  useEffect(() => {
    if (isVirtual && rows.length > 0 && lastIndex === rows.length - 1) requestMoreRows();
  }, [isVirtual, lastIndex, rows.length, requestMoreRows]);

  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = isVirtual ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;

  return {
    isVirtual,
    rowHeight,
    items,
    paddingTop,
    paddingBottom,
    onScroll: (element) => {
      // Without virtualization the end of the list is found from the scroll position.
      if (!isVirtual && element.scrollTop + element.clientHeight >= element.scrollHeight - rowHeight) {
        requestMoreRows();
      }
    },
  };
}
