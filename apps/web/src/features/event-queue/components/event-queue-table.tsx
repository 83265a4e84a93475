import { EVENT_QUEUE_PAGE_TEXTS, type EventQueueSummaryRow } from '@lookout/contracts';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';

export interface EventQueueTableProps {
  rows: readonly EventQueueSummaryRow[] | undefined;
  isLoading: boolean;
  onOpen: (row: EventQueueSummaryRow) => void;
}

const NO_ROWS: readonly EventQueueSummaryRow[] = [];
const col = createDataTableColumnHelper<EventQueueSummaryRow>();
const { columns: texts } = EVENT_QUEUE_PAGE_TEXTS;
const numeric = { cellClassName: 'text-right tabular-nums', headerClassName: 'text-right' };
const time = { cellClassName: 'whitespace-nowrap tabular-nums' };

/**
 * One row per event name, in the server's order (latest failure first): pending and failed
 * counts, mean attempts of the failed ones, first and last failure. A row opens its most
 * common error.
 */
export function EventQueueTable({ rows, isLoading, onOpen }: EventQueueTableProps) {
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          cell: (info) => <span className="font-mono text-sm font-medium text-slate-900">{info.getValue()}</span>,
        }),
        col.accessor('pending', { header: texts.pending, meta: numeric }),
        col.accessor('failed', {
          header: texts.failed,
          cell: (info) =>
            info.getValue() > 0 ? <span className="font-medium text-red-700">{info.getValue()}</span> : info.getValue(),
          meta: numeric,
        }),
        col.accessor('average_attempts', {
          header: texts.averageAttempts,
          cell: (info) => info.getValue() ?? MISSING_VALUE,
          meta: numeric,
        }),
        col.accessor('first_failure', {
          header: texts.firstFailure,
          cell: (info) => formatDateTime(info.getValue()),
          meta: time,
        }),
        col.accessor('last_failure', {
          header: texts.lastFailure,
          cell: (info) => formatDateTime(info.getValue()),
          meta: time,
        }),
      ]),
    [],
  );

  return (
    <DataTable
      columns={columns}
      data={rows ?? NO_ROWS}
      getRowId={(row) => row.name}
      isLoading={isLoading}
      onRowClick={onOpen}
      aria-label={EVENT_QUEUE_PAGE_TEXTS.table}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
