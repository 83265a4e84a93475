import {
  JOB_HISTORY_DEFAULT_RANGE,
  JOB_HISTORY_TEXTS,
  JOB_HISTORY_SORT_COLUMNS,
  JOB_RESOURCE_TYPES,
  type JobHistoryRow,
  type JobHistorySortColumn,
} from '@lookout/contracts';
import type { SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { parseDurationFilter } from '@/components/ui/duration-filter-fns';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { relativeTimeRange, useTimeRangeParams, type TimeRange } from '@/components/ui/time-range-picker';
import { MISSING_VALUE, formatDateTime, formatDuration } from '@/lib/format';
import { useJobHistories } from '../api/get-job-histories';
import { useJobHistoryParams } from '../hooks/use-job-history-params';
import { jobDetailsTabs } from '../lib/job-details-fns';
import { jobHistoryPageCount } from '../lib/job-history-query-fns';
import { JobDetailsModal } from './job-details-modal';
import { JobHistoryFilters } from './job-history-filters';
import { JobStatusBadge } from '@/components/ui/job-status-badge';

/** Where a run's resource opens, or undefined when this build has no page for its type. */
export type JobResourceHref = (resourceType: string, resourceId: string) => string | undefined;

export interface JobHistoryTableProps {
  /** A resource's Job History tab: only runs about this type of resource... */
  resourceType?: string;
  /** ...and this one resource. */
  resourceId?: string;
  /** Links a run's resource to its page; without it, resources are plain text. */
  resourceHref?: JobResourceHref;
}

const { columns: texts } = JOB_HISTORY_TEXTS;
const NIL_AGENT_ID = '00000000-0000-0000-0000-000000000000';
const NO_ROWS: readonly JobHistoryRow[] = [];
const col = createDataTableColumnHelper<JobHistoryRow>();
const RESOURCE_TYPE_LABELS = new Map<string, string>(JOB_RESOURCE_TYPES.map((type) => [type.value, type.label]));

// The spec's default is `now-2d`: 'Last 2 days' in the picker.
const DEFAULT_RANGE: TimeRange = relativeTimeRange(JOB_HISTORY_DEFAULT_RANGE.replace(/^now-/, '')) ?? {
  type: 'relative',
  display: JOB_HISTORY_DEFAULT_RANGE,
  range: JOB_HISTORY_DEFAULT_RANGE,
};

const isSortColumn = (id: string): id is JobHistorySortColumn =>
  (JOB_HISTORY_SORT_COLUMNS as readonly string[]).includes(id);

const numericCell = { cellClassName: 'text-right tabular-nums', headerClassName: 'text-right' };

/** The resource of a run: its type, then its name (a link where its page exists) or its id. */
function ResourceCell({ job, resourceHref }: { job: JobHistoryRow; resourceHref: JobResourceHref | undefined }) {
  if (!job.resource_type) return <span className="text-slate-400">{MISSING_VALUE}</span>;
  const label = job.resource_name ?? job.resource_id ?? MISSING_VALUE;
  const href = job.resource_id ? resourceHref?.(job.resource_type, job.resource_id) : undefined;
  return (
    // Bounded, so a long name or an id is cut with an ellipsis (the whole in its title) rather
    // than widening the table past the page.
    <span className="flex max-w-48 min-w-0 flex-col">
      <span className="text-xs text-slate-500">{RESOURCE_TYPE_LABELS.get(job.resource_type) ?? job.resource_type}</span>
      {href ? (
        <Link
          to={href}
          // The row opens the details; the link opens the resource only.
          onClick={(event) => event.stopPropagation()}
          title={label}
          className="truncate text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
        >
          {label}
        </Link>
      ) : (
        <span className="truncate" title={label}>
          {label}
        </span>
      )}
    </span>
  );
}

/**
 * The job history (spec 2 section 2.7, ui-calls 3.9): filters, then a paged table of runs
 * sorted on the server, with the page, its size, the order and the filters in the address.
 * A row whose details have errors or summaries opens them in a modal. On the Jobs History
 * page it lists every run; on a resource's Job History tab (`resourceType` and `resourceId`)
 * only that resource's.
 */
export function JobHistoryTable({ resourceType, resourceId, resourceHref }: JobHistoryTableProps) {
  const [params, setParams] = useJobHistoryParams();
  // Read here; written through setParams, which also goes back to the first page.
  const { timeRange } = useTimeRangeParams(DEFAULT_RANGE);
  const [opened, setOpened] = useState<JobHistoryRow>();
  const duration = parseDurationFilter(params.duration);

  const jobs = useJobHistories({
    resourceType: resourceType ?? params.resourceType,
    resourceId,
    name: params.name,
    status: params.status,
    minDurationMs: duration.kind === 'min' ? duration.ms : undefined,
    range: timeRange,
    pageIndex: params.pageIndex,
    pageSize: params.pageSize,
    sortBy: params.sortBy,
    sortDesc: params.sortDesc,
  });

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          size: 200,
          cell: (info) => <span className="font-medium text-slate-900">{info.getValue()}</span>,
        }),
        col.accessor('resource_name', {
          header: texts.resource,
          size: 230,
          cell: (info) => <ResourceCell job={info.row.original} resourceHref={resourceHref} />,
        }),
        col.accessor('status', {
          header: texts.status,
          size: 100,
          cell: (info) => <JobStatusBadge status={info.getValue()} />,
        }),
        col.accessor('time_start', {
          header: texts.timeStart,
          size: 140,
          cell: (info) => <span title={info.getValue()}>{formatDateTime(info.getValue())}</span>,
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
        col.accessor('duration_millis', {
          header: texts.duration,
          size: 100,
          cell: (info) => formatDuration(info.getValue()),
          meta: numericCell,
        }),
        col.accessor('success_count', { header: texts.successCount, size: 90, meta: numericCell }),
        col.accessor('error_count', {
          header: texts.errorCount,
          size: 90,
          cell: (info) =>
            info.getValue() > 0 ? <span className="font-medium text-red-700">{info.getValue()}</span> : info.getValue(),
          meta: numericCell,
        }),
        col.accessor('hostname', {
          header: texts.hostname,
          size: 130,
          cell: (info) => info.getValue() ?? MISSING_VALUE,
          meta: { cellClassName: 'max-w-40 truncate text-slate-600' },
        }),
        col.accessor((job) => (job.agent && job.agent.id !== NIL_AGENT_ID ? job.agent.name : ''), {
          id: 'agent',
          header: texts.agent,
          size: 110,
          enableSorting: false,
          cell: (info) => info.getValue() || <span className="text-slate-400">{MISSING_VALUE}</span>,
        }),
      ]),
    [resourceHref],
  );

  const sorting = useMemo<SortingState>(() => [{ id: params.sortBy, desc: params.sortDesc }], [params]);
  const onSortingChange = (next: SortingState) => {
    const [first] = next;
    if (first && isSortColumn(first.id)) setParams({ sortBy: first.id, sortDesc: first.desc });
  };

  const page = jobs.data;
  const openDetails = (job: JobHistoryRow) => {
    // No modal when the run has neither errors nor summaries (spec 2 section 2.7).
    if (jobDetailsTabs(job.details).length > 0) setOpened(job);
  };

  return (
    <div className="flex flex-col gap-4">
      <JobHistoryFilters
        params={params}
        onChange={setParams}
        range={timeRange ?? DEFAULT_RANGE}
        onRangeChange={(range) => setParams({ range })}
        showResourceType={resourceType === undefined}
      />
      {jobs.isError && !page ? (
        <ErrorPanel error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          data={page?.rows ?? NO_ROWS}
          getRowId={(job) => job.id}
          isLoading={jobs.isPending}
          sorting={sorting}
          onSortingChange={onSortingChange}
          manualSorting
          pagination={{
            mode: 'remote',
            state: { pageIndex: params.pageIndex, pageSize: params.pageSize },
            pageCount: jobHistoryPageCount(page?.total ?? 0, params.pageSize),
            onChange: (next) =>
              setParams(
                next.pageSize === params.pageSize
                  ? { pageIndex: next.pageIndex }
                  : { pageSize: next.pageSize, pageIndex: 0 },
              ),
          }}
          onRowClick={openDetails}
          aria-label={JOB_HISTORY_TEXTS.table}
          className="rounded-lg border border-slate-200 bg-white"
        />
      )}
      {opened && <JobDetailsModal key={opened.id} job={opened} onClose={() => setOpened(undefined)} />}
    </div>
  );
}
