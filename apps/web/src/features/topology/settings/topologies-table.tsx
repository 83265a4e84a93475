import { EDITABLE_SOURCE, TOPOLOGY_SETTINGS_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useMemo } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import type { TopologyListRow } from './topologies-api';

const col = createDataTableColumnHelper<TopologyListRow>();
const texts = TOPOLOGY_SETTINGS_TEXTS.columns;
const timeCell = { cellClassName: 'whitespace-nowrap tabular-nums' };
const NONE: readonly TopologyListRow[] = [];

/**
 * The topologies list (spec 3 section 2.6): Name, Source, Namespace, Job Status, Last Run, Last
 * Failed, Tags, Created, Updated, Created By; Schedule is hidden for topologies.
 */
export function TopologiesTable({
  rows,
  isLoading,
  onOpen,
}: {
  rows: readonly TopologyListRow[] | undefined;
  isLoading: boolean;
  onOpen: (row: TopologyListRow) => void;
}) {
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: texts.name, size: 260, meta: { cellClassName: 'font-medium text-slate-900' } }),
        col.accessor('source', {
          header: texts.source,
          size: 120,
          cell: (info) => (
            <span
              className={clsx(
                'rounded-full px-2 py-0.5 text-xs ring-1 ring-inset',
                info.getValue() === EDITABLE_SOURCE
                  ? 'bg-slate-50 ring-slate-200'
                  : 'bg-amber-50 text-amber-800 ring-amber-200',
              )}
            >
              {info.getValue()}
            </span>
          ),
        }),
        col.accessor((row) => row.namespace ?? '', { id: 'namespace', header: texts.namespace, size: 130 }),
        col.accessor((row) => row.job_status ?? '', {
          id: 'job_status',
          header: texts.jobStatus,
          size: 120,
          cell: (info) => (
            <span
              className={clsx(
                info.getValue() === 'FAILED' && 'text-red-700',
                info.getValue() === 'SUCCESS' && 'text-green-700',
              )}
            >
              {info.getValue() || MISSING_VALUE}
            </span>
          ),
        }),
        col.accessor('last_runtime', {
          header: texts.lastRun,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor('job_last_failed', {
          header: texts.lastFailed,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor((row) => Object.entries(row.labels ?? {}).map(([key, value]) => `${key}: ${value}`), {
          id: 'tags',
          header: texts.tags,
          size: 200,
          cell: (info) => (
            <span className="flex flex-wrap gap-1">
              {info.getValue().map((tag) => (
                <span key={tag} className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">
                  {tag}
                </span>
              ))}
            </span>
          ),
        }),
        col.accessor('created_at', {
          header: texts.created,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor('updated_at', {
          header: texts.updated,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor((row) => row.created_by?.name ?? '', {
          id: 'created_by',
          header: texts.createdBy,
          cell: (info) => {
            const author = info.row.original.created_by;
            if (!author) return MISSING_VALUE;
            return (
              <span className="flex items-center gap-2">
                <Avatar name={author.name} src={author.avatar} />
                {author.name}
              </span>
            );
          },
        }),
      ]),
    [],
  );
  return (
    <DataTable
      columns={columns}
      data={rows ?? NONE}
      getRowId={(row) => row.id}
      isLoading={isLoading}
      onRowClick={onOpen}
      aria-label={TOPOLOGY_SETTINGS_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
