import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_SILENCES_TEXTS,
  NOTIFICATIONS_PAGE_SIZE,
  SILENCE_RESOURCE_KINDS,
  SILENCE_RESOURCE_COLUMNS,
  type NotificationResourceType,
  type NotificationSilence,
  type SilenceResourceKind,
} from '@lookout/contracts';
import { Plus, Repeat, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { toast } from '@/components/ui/toast';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { useDeleteSilence } from '../api/delete-silence';
import { useRecipientOptions } from '../api/get-recipient-options';
import { useResourceNames, type ResourceChoice } from '../api/get-resource-names';
import { useSilences } from '../api/get-silences';
import { spanOf } from '../lib/age-fns';
import { NOTIFICATION_PATHS } from '../lib/notification-paths';
import { pageCountOf } from '../lib/send-history-params';
import { NotificationsFrame } from './notifications-frame';
import { ResourceLabel, type NotificationResourceHref } from './resource-label';

const { columns: texts } = NOTIFICATION_SILENCES_TEXTS;
const NO_ROWS: readonly NotificationSilence[] = [];
const col = createDataTableColumnHelper<NotificationSilence>();

/** The kind and id a silence is about (the one id it has). */
export function silencedResource(silence: NotificationSilence): { kind: SilenceResourceKind; id: string } | undefined {
  for (const kind of SILENCE_RESOURCE_KINDS) {
    const id = silence[SILENCE_RESOURCE_COLUMNS[kind]];
    if (id) return { kind, id };
  }
  return undefined;
}

const idsOf = (rows: readonly NotificationSilence[], kind: SilenceResourceKind) =>
  rows.flatMap((row) => {
    const resource = silencedResource(row);
    return resource?.kind === kind ? [resource.id] : [];
  });

/** The names of a page's resources, by kind, read by id (one call per kind that appears). */
function useSilencedNames(rows: readonly NotificationSilence[]) {
  const check = useResourceNames('check', idsOf(rows, 'check'));
  const canary = useResourceNames('canary', idsOf(rows, 'canary'));
  const component = useResourceNames('component', idsOf(rows, 'component'));
  const config = useResourceNames('config', idsOf(rows, 'config'));
  return useMemo(
    () =>
      ({ check: check.data, canary: canary.data, component: component.data, config: config.data }) as Record<
        SilenceResourceKind,
        ReadonlyMap<string, ResourceChoice> | undefined
      >,
    [check.data, canary.data, component.data, config.data],
  );
}

export interface SilencesViewProps {
  /** Write on database: add and delete (spec 3 section 6: add silence needs write on database). */
  canWrite: boolean;
  resourceHref?: NotificationResourceHref;
}

/** `/notifications/silences` (spec 3 section 2.10): the silences in force or planned, with delete. */
export function SilencesView({ canWrite, resourceHref }: SilencesViewProps) {
  const [page, setPage] = useState({ pageIndex: 0, pageSize: NOTIFICATIONS_PAGE_SIZE });
  const [deleting, setDeleting] = useState<NotificationSilence>();
  const silences = useSilences(page);
  const remove = useDeleteSilence();
  const rows = silences.data?.rows ?? NO_ROWS;
  const names = useSilencedNames(rows);
  const peopleList = useRecipientOptions('person');
  const people = useMemo(
    () => new Map((peopleList.data ?? []).map((person) => [person.id, person.label])),
    [peopleList.data],
  );

  const columns = useMemo(
    () =>
      col.columns([
        col.display({
          id: 'resource',
          header: texts.resource,
          size: 300,
          cell: (info) => {
            const resource = silencedResource(info.row.original);
            if (!resource) return MISSING_VALUE;
            return (
              <span className="flex items-center gap-2">
                <ResourceLabel
                  type={resource.kind as NotificationResourceType}
                  id={resource.id}
                  name={names[resource.kind]?.get(resource.id)?.name}
                  resourceHref={resourceHref}
                />
                {info.row.original.recursive && (
                  <Repeat aria-label={NOTIFICATION_SILENCES_TEXTS.recursive} className="size-4 text-slate-500" />
                )}
              </span>
            );
          },
        }),
        col.display({
          id: 'duration',
          header: texts.duration,
          size: 220,
          cell: (info) => (
            <span
              className="whitespace-nowrap"
              title={`${formatDateTime(info.row.original.from)} → ${formatDateTime(info.row.original.until)}`}
            >
              {spanOf(info.row.original.from, info.row.original.until)}
            </span>
          ),
        }),
        // Not sortable: the table holds one page of the server's order (newest first).
        col.accessor('source', {
          header: texts.source,
          size: 100,
          enableSorting: false,
          cell: (info) => info.getValue() ?? '',
        }),
        // Rendered, not an accessor: the table caches accessor values per row, and the names
        // arrive after the rows.
        col.display({
          id: 'created_by',
          header: texts.createdBy,
          size: 130,
          cell: (info) => (info.row.original.created_by ? (people.get(info.row.original.created_by) ?? '') : ''),
        }),
        col.accessor('description', {
          header: texts.reason,
          size: 300,
          enableSorting: false,
          cell: (info) => <span className="line-clamp-2">{info.getValue() ?? ''}</span>,
        }),
        ...(canWrite
          ? [
              col.display({
                id: 'delete',
                header: texts.delete,
                size: 80,
                cell: (info) => (
                  <button
                    type="button"
                    aria-label={texts.delete}
                    className="inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-sky-600"
                    onClick={() => setDeleting(info.row.original)}
                  >
                    <Trash2 aria-hidden className="size-4" />
                  </button>
                ),
              }),
            ]
          : []),
      ]),
    [canWrite, names, people, resourceHref],
  );

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.success(NOTIFICATION_MESSAGES.silenceDeleted);
        setDeleting(undefined);
      },
      onError: (error) => toast.error(error.message),
    });
  };

  return (
    <NotificationsFrame
      title={NOTIFICATION_SILENCES_TEXTS.title}
      actions={
        canWrite && (
          <Link to={NOTIFICATION_PATHS.addSilence} className={buttonClasses('primary')}>
            <Plus aria-hidden className="size-4" />
            {NOTIFICATION_SILENCES_TEXTS.add}
          </Link>
        )
      }
    >
      {silences.isError && !silences.data ? (
        <ErrorPanel error={silences.error} onRetry={() => void silences.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          data={rows}
          getRowId={(row) => row.id}
          isLoading={silences.isPending}
          emptyMessage={NOTIFICATION_MESSAGES.emptySilences}
          pagination={{
            mode: 'remote',
            state: page,
            pageCount: pageCountOf(silences.data?.total ?? 0, page.pageSize),
            onChange: setPage,
          }}
          aria-label={NOTIFICATION_SILENCES_TEXTS.table}
          className="rounded-lg border border-slate-200 bg-white"
        />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={NOTIFICATION_SILENCES_TEXTS.deleteConfirm.title}
        description={NOTIFICATION_SILENCES_TEXTS.deleteConfirm.description}
        onConfirm={onDelete}
        isPending={remove.isPending}
      />
    </NotificationsFrame>
  );
}
