import type { RowData } from '@tanstack/react-table';
import { clsx } from 'clsx';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { CSSProperties, KeyboardEvent, MouseEvent } from 'react';
import type { DataTableRow } from '@/components/ui/data-table/data-table-features';
import type { DataTableModel } from '@/components/ui/data-table/use-data-table';

/** Indent of each level of nested rows, in px. */
const INDENT_PX = 16;

function countLeafRows<TData extends RowData>(rows: ReadonlyArray<DataTableRow<TData>>): number {
  return rows.reduce((count, row) => count + (row.subRows.length ? countLeafRows(row.subRows) : 1), 0);
}

/** Enter and Space on the row itself (not on a control inside it) activate it. */
function onActivateKey(action: () => void) {
  return (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      action();
    }
  };
}

/** The chevron of an expandable row; drawn inside a control that says what it does. */
function ExpandChevron({ expanded, className }: { expanded: boolean; className: string }) {
  return expanded ? (
    <ChevronDown aria-hidden className={className} />
  ) : (
    <ChevronRight aria-hidden className={className} />
  );
}

/** Props shared by the row parts. */
export type DataTableRowProps<TData extends RowData> = {
  table: DataTableModel<TData>;
  row: DataTableRow<TData>;
  /** Position among all rows, for the virtualizer. */
  index?: number | undefined;
  /** Exact row height of a virtual table (px); rows grow with their content otherwise. */
  virtualHeight?: number | undefined;
};

/**
 * A group row of `groupBy` grouping: the group's value and leaf count across the whole row. A
 * click anywhere on it expands or collapses it; the button inside carries the state for
 * assistive technology and the keyboard.
 */
export function DataTableGroupRow<TData extends RowData>({
  table,
  row,
  index,
  virtualHeight,
  columnCount,
}: DataTableRowProps<TData> & { columnCount: number }) {
  const groupCell = row.getAllCells().find((cell) => cell.column.id === row.groupingColumnId);
  const isExpanded = row.getIsExpanded();
  return (
    <tr
      data-index={index}
      style={virtualHeight !== undefined ? { height: virtualHeight } : undefined}
      onClick={() => row.toggleExpanded()}
      className="cursor-pointer border-b border-gray-100 bg-gray-50/70 hover:bg-gray-100/70"
    >
      <td colSpan={columnCount} className="px-3 py-1.5">
        <button
          type="button"
          aria-expanded={isExpanded}
          onClick={(event: MouseEvent) => {
            // The row would toggle it back.
            event.stopPropagation();
            row.toggleExpanded();
          }}
          style={{ paddingLeft: row.depth * INDENT_PX }}
          className="flex items-center gap-1.5 rounded text-left font-medium text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          <ExpandChevron expanded={isExpanded} className="size-4 shrink-0 text-gray-500" />
          <span>{groupCell ? <table.FlexRender cell={groupCell} /> : String(row.groupingValue ?? '')}</span>
          <span className="rounded-full bg-gray-200 px-1.5 text-xs font-normal text-gray-600">
            {countLeafRows(row.subRows)}
          </span>
        </button>
      </td>
    </tr>
  );
}

/**
 * A data row. One with children (tree data) expands and collapses on a click anywhere or on
 * Enter/Space, and shows a chevron button in its first cell; any other row calls
 * `onRowClick` the same way.
 */
export function DataTableDataRow<TData extends RowData>({
  table,
  row,
  index,
  virtualHeight,
  onRowClick,
}: DataTableRowProps<TData> & { onRowClick?: ((row: TData) => void) | undefined }) {
  const isVirtual = virtualHeight !== undefined;
  const canExpand = row.getCanExpand();
  const isExpanded = row.getIsExpanded();
  const activate = canExpand ? () => row.toggleExpanded() : onRowClick ? () => onRowClick(row.original) : undefined;
  const style: CSSProperties | undefined = isVirtual ? { height: virtualHeight } : undefined;
  return (
    <tr
      data-index={index}
      style={style}
      tabIndex={activate ? 0 : undefined}
      aria-expanded={canExpand ? isExpanded : undefined}
      onClick={activate}
      onKeyDown={activate ? onActivateKey(activate) : undefined}
      className={clsx(
        'border-b border-gray-100',
        activate &&
          'cursor-pointer hover:bg-blue-50/60 focus-visible:bg-blue-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500',
      )}
    >
      {row.getAllCells().map((cell, cellIndex) => {
        const first = cellIndex === 0;
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
            {first && canExpand ? (
              <span className="flex items-center gap-1">
                <button
                  type="button"
                  aria-expanded={isExpanded}
                  aria-label={isExpanded ? 'Collapse row' : 'Expand row'}
                  onClick={(event) => {
                    // The row would toggle it back.
                    event.stopPropagation();
                    row.toggleExpanded();
                  }}
                  className="rounded text-gray-500 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500"
                >
                  <ExpandChevron expanded={isExpanded} className="size-4" />
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
}
