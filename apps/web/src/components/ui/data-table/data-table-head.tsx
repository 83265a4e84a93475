import type { RowData } from '@tanstack/react-table';
import { clsx } from 'clsx';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import type { DataTableModel } from '@/components/ui/data-table/use-data-table';

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  if (sorted === 'asc') return 'ascending';
  if (sorted === 'desc') return 'descending';
  return 'none';
}

/**
 * The table's sticky header: one row per header group; a sortable column's header is a button
 * that toggles the order, with `aria-sort` on the cell.
 */
export function DataTableHead<TData extends RowData>({ table }: { table: DataTableModel<TData> }) {
  return (
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
  );
}
