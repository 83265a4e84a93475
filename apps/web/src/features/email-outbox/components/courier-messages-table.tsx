import { EMAIL_OUTBOX_TEXTS, type CourierMessage } from '@lookout/contracts';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { lastError } from '../lib/courier-fns';
import { CourierStatusBadge } from './courier-status-badge';

export interface CourierMessagesTableProps {
  messages: readonly CourierMessage[] | undefined;
  isLoading: boolean;
  onOpen: (message: CourierMessage) => void;
}

const NO_MESSAGES: readonly CourierMessage[] = [];
const col = createDataTableColumnHelper<CourierMessage>();

/**
 * The outbox, newest first as the server lists it: recipient, subject, status, attempts,
 * created and the last error. A row opens the message with its body.
 */
export function CourierMessagesTable({ messages, isLoading, onOpen }: CourierMessagesTableProps) {
  const { columns: texts } = EMAIL_OUTBOX_TEXTS;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('recipient', {
          header: texts.recipient,
          enableSorting: false,
          cell: (info) => <span className="font-medium text-slate-900">{info.getValue()}</span>,
        }),
        col.accessor('subject', { header: texts.subject, enableSorting: false }),
        col.accessor('status', {
          header: texts.status,
          enableSorting: false,
          cell: (info) => <CourierStatusBadge status={info.getValue()} />,
        }),
        col.accessor('send_count', {
          header: texts.attempts,
          enableSorting: false,
          meta: { cellClassName: 'text-right tabular-nums', headerClassName: 'text-right' },
        }),
        col.accessor('created_at', {
          header: texts.createdAt,
          enableSorting: false,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
        col.accessor((message) => lastError(message) ?? '', {
          id: 'last_error',
          header: texts.lastError,
          enableSorting: false,
          size: 320,
          cell: (info) =>
            info.getValue() ? (
              <span className="line-clamp-2 text-red-700" title={info.getValue()}>
                {info.getValue()}
              </span>
            ) : (
              <span className="text-slate-400">{MISSING_VALUE}</span>
            ),
        }),
      ]),
    [texts],
  );

  return (
    <DataTable
      columns={columns}
      data={messages ?? NO_MESSAGES}
      getRowId={(message) => message.id}
      isLoading={isLoading}
      emptyMessage={EMAIL_OUTBOX_TEXTS.empty}
      onRowClick={onOpen}
      aria-label={EMAIL_OUTBOX_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
