import {
  JOB_STATUSES,
  SETTINGS_LIST_COLUMN_LABELS,
  type JobHistoryStatus,
  type SettingsListColumn,
} from '@lookout/contracts';
import { Avatar } from '@/components/ui/avatar';
import { createDataTableColumnHelper, type DataTableColumns } from '@/components/ui/data-table';
import { JobStatusBadge } from '@/components/ui/job-status-badge';
import { SourceBadge } from '@/components/ui/source-badge';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import type { SettingsListRow } from './settings-resource-hooks';

const col = createDataTableColumnHelper<SettingsListRow>();
const timeCell = { cellClassName: 'whitespace-nowrap tabular-nums' };
const NIL_AGENT_ID = '00000000-0000-0000-0000-000000000000';
const isJobStatus = (value: string | null | undefined): value is JobHistoryStatus =>
  (JOB_STATUSES as readonly string[]).includes(value ?? '');

/** A canary runs on `schedule` or, in canary-checker's older form, every `interval` seconds. */
function scheduleOf(row: SettingsListRow): string {
  if (row.schedule) return row.schedule;
  if (row.interval !== null && row.interval !== undefined && row.interval !== '') return `@every ${row.interval}s`;
  return '';
}

const tagsOf = (row: SettingsListRow) => Object.entries(row.labels ?? {}).map(([key, value]) => `${key}: ${value}`);

const time = (id: 'last_runtime' | 'job_last_failed' | 'created_at' | 'updated_at') =>
  col.accessor((row) => row[id] ?? '', {
    id,
    header: SETTINGS_LIST_COLUMN_LABELS[id],
    cell: (info) => formatDateTime(info.row.original[id]),
    meta: timeCell,
  });

/** Each column of the generic list (spec 3 section 2.6), by its name. */
const COLUMNS = {
  name: col.accessor('name', {
    id: 'name',
    header: SETTINGS_LIST_COLUMN_LABELS.name,
    size: 260,
    cell: (info) => {
      const agent = info.row.original.agent;
      return (
        <span className="flex items-center gap-2 font-medium text-slate-900">
          {info.getValue()}
          {/* The agent that owns a pushed row (the nil id means this Lookout). */}
          {agent?.id && agent.id !== NIL_AGENT_ID && agent.name && (
            <span className="rounded bg-violet-50 px-1.5 text-xs font-normal text-violet-800 ring-1 ring-violet-200 ring-inset">
              {agent.name}
            </span>
          )}
        </span>
      );
    },
  }),
  source: col.accessor((row) => row.source ?? '', {
    id: 'source',
    header: SETTINGS_LIST_COLUMN_LABELS.source,
    size: 120,
    cell: (info) => (info.getValue() ? <SourceBadge source={info.getValue()} /> : MISSING_VALUE),
  }),
  schedule: col.accessor(scheduleOf, {
    id: 'schedule',
    header: SETTINGS_LIST_COLUMN_LABELS.schedule,
    size: 130,
    cell: (info) => info.getValue() || MISSING_VALUE,
  }),
  namespace: col.accessor((row) => row.namespace ?? '', {
    id: 'namespace',
    header: SETTINGS_LIST_COLUMN_LABELS.namespace,
    size: 130,
    cell: (info) => info.getValue() || MISSING_VALUE,
  }),
  job_status: col.accessor((row) => row.job_status ?? '', {
    id: 'job_status',
    header: SETTINGS_LIST_COLUMN_LABELS.job_status,
    size: 120,
    cell: (info) => {
      const status = info.row.original.job_status;
      return isJobStatus(status) ? <JobStatusBadge status={status} /> : MISSING_VALUE;
    },
  }),
  last_runtime: time('last_runtime'),
  job_last_failed: time('job_last_failed'),
  tags: col.accessor((row) => tagsOf(row).join(' '), {
    id: 'tags',
    header: SETTINGS_LIST_COLUMN_LABELS.tags,
    size: 200,
    enableSorting: false,
    cell: (info) => (
      <span className="flex flex-wrap gap-1">
        {tagsOf(info.row.original).map((tag) => (
          <span key={tag} className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">
            {tag}
          </span>
        ))}
      </span>
    ),
  }),
  created_at: time('created_at'),
  updated_at: time('updated_at'),
  created_by: col.accessor((row) => row.created_by?.name ?? '', {
    id: 'created_by',
    header: SETTINGS_LIST_COLUMN_LABELS.created_by,
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
} satisfies Record<SettingsListColumn, unknown>;

/** The table columns for a definition's column list, in its order. */
export function settingsListColumnDefs(columns: readonly SettingsListColumn[]): DataTableColumns<SettingsListRow> {
  return col.columns(columns.map((column) => COLUMNS[column]));
}
