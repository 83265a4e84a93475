import { NOTIFICATION_HISTORY_TEXTS, NOTIFICATION_MESSAGES, type NotificationSendHistoryRow } from '@lookout/contracts';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { formatDateTime } from '@/lib/format';
import { useSendHistory } from '../api/get-send-history';
import { useSendHistoryParams } from '../hooks/use-send-history-params';
import { ageOf, spanOf } from '../lib/age-fns';
import { pageCountOf } from '../lib/send-history-params';
import { NotificationsFrame } from './notifications-frame';
import { ResourceLabel, type NotificationResourceHref } from './resource-label';
import { SendDetailsModal } from './send-details-modal';
import { SendHistoryFilters } from './send-history-filters';
import { SendStatus } from './send-status';

const { columns: texts } = NOTIFICATION_HISTORY_TEXTS;
const NO_ROWS: readonly NotificationSendHistoryRow[] = [];
const col = createDataTableColumnHelper<NotificationSendHistoryRow>();

/** Age, with '(x3 over 2 hours)' when the row stands for several sends (the original's cell). */
function AgeCell({ row }: { row: NotificationSendHistoryRow }) {
  return (
    <span className="text-xs whitespace-nowrap" title={formatDateTime(row.created_at)}>
      {ageOf(row.created_at, new Date())}
      {row.count > 1 && (
        <span className="pl-1 text-slate-500">
          {NOTIFICATION_HISTORY_TEXTS.repeated(row.count, spanOf(row.first_observed, row.created_at))}
        </span>
      )}
    </span>
  );
}

export interface SendHistoryViewProps {
  resourceHref?: NotificationResourceHref;
}

/**
 * `/notifications` (spec 3 section 2.10): the send history, newest first, filtered by status
 * and resource type; a row opens its details through the address's `id`.
 */
export function SendHistoryView({ resourceHref }: SendHistoryViewProps) {
  const [params, setParams] = useSendHistoryParams();
  const { id, ...filters } = params;
  const history = useSendHistory(filters);
  const filtered = filters.status !== '' || filters.resourceType !== '';

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('created_at', {
          header: texts.age,
          size: 170,
          enableSorting: false,
          cell: (info) => <AgeCell row={info.row.original} />,
        }),
        col.accessor((row) => row.resource?.name ?? row.resource_id, {
          id: 'resource',
          header: texts.resource,
          size: 300,
          enableSorting: false,
          cell: (info) => (
            <ResourceLabel
              type={info.row.original.resource_type}
              id={info.row.original.resource?.id ?? info.row.original.resource_id}
              name={info.row.original.resource?.name}
              resourceHref={resourceHref}
            />
          ),
        }),
        col.accessor('status', {
          header: texts.status,
          size: 120,
          enableSorting: false,
          cell: (info) => <SendStatus status={info.getValue()} />,
        }),
        col.accessor('source_event', { header: texts.event, size: 160, enableSorting: false }),
      ]),
    [resourceHref],
  );

  const page = history.data;
  return (
    <NotificationsFrame title={NOTIFICATION_HISTORY_TEXTS.title}>
      <SendHistoryFilters status={filters.status} resourceType={filters.resourceType} onChange={setParams} />
      {history.isError && !page ? (
        <ErrorPanel error={history.error} onRetry={() => void history.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          data={page?.rows ?? NO_ROWS}
          getRowId={(row) => row.id}
          isLoading={history.isPending}
          emptyMessage={filtered ? NOTIFICATION_HISTORY_TEXTS.emptyFiltered : NOTIFICATION_MESSAGES.emptyHistory}
          pagination={{
            mode: 'remote',
            state: { pageIndex: filters.pageIndex, pageSize: filters.pageSize },
            pageCount: pageCountOf(page?.total ?? 0, filters.pageSize),
            onChange: (next) =>
              setParams(
                next.pageSize === filters.pageSize
                  ? { pageIndex: next.pageIndex }
                  : { pageSize: next.pageSize, pageIndex: 0 },
              ),
          }}
          onRowClick={(row) => setParams({ id: row.id })}
          aria-label={NOTIFICATION_HISTORY_TEXTS.table}
          className="rounded-lg border border-slate-200 bg-white"
        />
      )}
      {id && <SendDetailsModal key={id} id={id} onClose={() => setParams({ id: null })} resourceHref={resourceHref} />}
    </NotificationsFrame>
  );
}
