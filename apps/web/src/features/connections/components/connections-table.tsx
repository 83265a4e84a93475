import { CONNECTIONS_PAGE_TEXTS, CONNECTION_TYPE_LABELS, isEditableConnection } from '@lookout/contracts';
import type { ConnectionRow } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { ConnectionIcon } from './connection-icon';

export interface ConnectionsTableProps {
  rows: readonly ConnectionRow[] | undefined;
  isLoading: boolean;
  onOpen: (row: ConnectionRow) => void;
}

const NO_ROWS: readonly ConnectionRow[] = [];
const col = createDataTableColumnHelper<ConnectionRow>();

function SourceBadge({ row }: { row: ConnectionRow }) {
  return (
    <span
      className={clsx(
        'rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        isEditableConnection(row)
          ? 'bg-slate-50 text-slate-700 ring-slate-200'
          : 'bg-amber-50 text-amber-800 ring-amber-200',
      )}
    >
      {row.source ?? 'UI'}
    </span>
  );
}

/** The Connections list: name, type with its icon, namespace, source, author and times. */
export function ConnectionsTable({ rows, isLoading, onOpen }: ConnectionsTableProps) {
  const { columns: texts } = CONNECTIONS_PAGE_TEXTS;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          size: 260,
          cell: (info) => (
            <span className="flex items-center gap-2 font-medium text-slate-900">
              <ConnectionIcon type={info.row.original.type} />
              <span className="truncate">{info.getValue()}</span>
            </span>
          ),
        }),
        col.accessor((row) => CONNECTION_TYPE_LABELS[row.type], { id: 'type', header: texts.type }),
        col.accessor((row) => row.namespace ?? '', {
          id: 'namespace',
          header: texts.namespace,
          cell: (info) => info.getValue() || MISSING_VALUE,
        }),
        col.accessor((row) => row.source ?? '', {
          id: 'source',
          header: texts.source,
          cell: (info) => <SourceBadge row={info.row.original} />,
        }),
        col.accessor((row) => row.created_by?.name ?? row.created_by?.email ?? '', {
          id: 'created_by',
          header: texts.createdBy,
          cell: (info) => info.getValue() || MISSING_VALUE,
        }),
        col.accessor((row) => row.created_at ?? '', {
          id: 'created_at',
          header: texts.createdAt,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
        col.accessor((row) => row.updated_at ?? '', {
          id: 'updated_at',
          header: texts.updatedAt,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
      ]),
    [texts],
  );

  return (
    <DataTable
      columns={columns}
      data={rows ?? NO_ROWS}
      getRowId={(row) => row.id}
      isLoading={isLoading}
      onRowClick={onOpen}
      emptyMessage={CONNECTIONS_PAGE_TEXTS.empty}
      aria-label={CONNECTIONS_PAGE_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
