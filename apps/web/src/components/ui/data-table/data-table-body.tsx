import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { DataTableRow } from '@/components/ui/data-table/data-table-features';
import { DataTableDataRow, DataTableGroupRow } from '@/components/ui/data-table/data-table-row';
import { DataTableSkeletonRows } from '@/components/ui/data-table/data-table-skeleton';
import type { DataTableModel } from '@/components/ui/data-table/use-data-table';
import type { VirtualRows } from '@/components/ui/data-table/use-virtual-rows';

/** Props of {@link DataTableBody}. */
export type DataTableBodyProps<TData extends RowData> = {
  table: DataTableModel<TData>;
  rows: ReadonlyArray<DataTableRow<TData>>;
  columnCount: number;
  virtualRows: VirtualRows;
  isLoading: boolean;
  emptyMessage: ReactNode;
  skeletonRows?: number | undefined;
  onRowClick?: ((row: TData) => void) | undefined;
};

/**
 * The table body: skeleton rows while loading without rows, the empty state, every row, or in
 * a virtual table the rows in view between two spacer rows.
 */
export function DataTableBody<TData extends RowData>({
  table,
  rows,
  columnCount,
  virtualRows,
  isLoading,
  emptyMessage,
  skeletonRows,
  onRowClick,
}: DataTableBodyProps<TData>) {
  const renderRow = (row: DataTableRow<TData>, index?: number) => {
    const virtualHeight = virtualRows.isVirtual ? virtualRows.rowHeight : undefined;
    return row.getIsGrouped() ? (
      <DataTableGroupRow
        key={row.id}
        table={table}
        row={row}
        index={index}
        virtualHeight={virtualHeight}
        columnCount={columnCount}
      />
    ) : (
      <DataTableDataRow
        key={row.id}
        table={table}
        row={row}
        index={index}
        virtualHeight={virtualHeight}
        onRowClick={onRowClick}
      />
    );
  };

  const body = () => {
    if (isLoading && rows.length === 0) {
      return <DataTableSkeletonRows rows={skeletonRows} columns={columnCount} />;
    }
    if (rows.length === 0) {
      return (
        <tr>
          <td colSpan={columnCount} className="px-3 py-8 text-center text-sm text-gray-500">
            {emptyMessage}
          </td>
        </tr>
      );
    }
    if (!virtualRows.isVirtual) return rows.map((row) => renderRow(row));

    // Spacer rows keep native table layout (column widths follow the content) while only
    // the rows in view are in the DOM.
    const { paddingTop, paddingBottom, items } = virtualRows;
    return (
      <>
        {paddingTop > 0 && (
          <tr aria-hidden="true" style={{ height: paddingTop }}>
            <td colSpan={columnCount} />
          </tr>
        )}
        {items.map((item) => {
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

  return <tbody>{body()}</tbody>;
}
