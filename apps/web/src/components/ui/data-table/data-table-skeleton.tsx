import { clsx } from 'clsx';

/** Props of {@link DataTableSkeleton}. */
export type DataTableSkeletonProps = {
  /** How many placeholder rows to draw. */
  rows?: number;
  /** How many placeholder columns to draw. */
  columns?: number;
  className?: string;
};

// Varying bar widths read as text rather than as a solid block.
const BAR_WIDTHS = ['w-3/4', 'w-1/2', 'w-2/3', 'w-5/6', 'w-2/5'] as const;

function barWidth(row: number, column: number): string {
  return BAR_WIDTHS[(row + column) % BAR_WIDTHS.length] ?? 'w-1/2';
}

/** Placeholder body rows for a table that is loading; meant to sit inside a `<tbody>`. */
export function DataTableSkeletonRows({ rows = 8, columns = 4 }: Pick<DataTableSkeletonProps, 'rows' | 'columns'>) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <tr key={row} className="border-b border-gray-100" data-testid="data-table-skeleton-row">
          {Array.from({ length: Math.max(columns, 1) }, (_, column) => (
            <td key={column} className="px-3 py-2.5">
              <div className={clsx('h-3 animate-pulse rounded bg-gray-200', barWidth(row, column))} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** Stand-alone loading skeleton: rows of grey bars, announced as busy. */
export function DataTableSkeleton({ rows = 8, columns = 4, className }: DataTableSkeletonProps) {
  return (
    <div role="status" aria-busy="true" aria-label="Loading" className={clsx('w-full', className)}>
      <table className="w-full border-collapse">
        <tbody>
          <DataTableSkeletonRows rows={rows} columns={columns} />
        </tbody>
      </table>
    </div>
  );
}
