import { PLAYBOOK_DEFAULTS, PLAYBOOK_RUN_FILTER_STATUSES, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { ArrowLeft } from 'lucide-react';
import { useId, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import {
  TimeRangePicker,
  relativeTimeRange,
  timeRangeKey,
  timeRangeToBounds,
  useTimeRangeParams,
  type TimeRange,
} from '@/components/ui/time-range-picker';
import { formatDateTime, formatDuration } from '@/lib/format';
import { usePlaybookNames } from '../api/playbooks-api';
import type { RunRow } from '../api/run-api';
import { useRuns } from '../api/run-queries';
import { PLAYBOOKS_PATH, runPath } from '../lib/playbook-paths';
import { playbookTitle } from '../lib/playbook-group-fns';
import { elapsedMs } from '../lib/run-fns';
import { RunResource, triggeredBy } from './run-resource';
import { RunStatusBadge } from './run-status-badge';

const texts = PLAYBOOK_UI_TEXTS.runList;
const col = createDataTableColumnHelper<RunRow>();
const NO_ROWS: readonly RunRow[] = [];

// 'Last 7 days' (spec 2 section 2.1).
const DEFAULT_RANGE: TimeRange = relativeTimeRange(PLAYBOOK_DEFAULTS.runsRange.replace(/^now-/, '')) ?? {
  type: 'relative',
  display: PLAYBOOK_DEFAULTS.runsRange,
  range: PLAYBOOK_DEFAULTS.runsRange,
};

const selectClass =
  'h-8 rounded border border-slate-300 bg-white px-2 text-sm text-slate-800 focus-visible:outline-2 focus-visible:outline-sky-600';

const columns = col.columns([
  col.accessor((run) => (run.playbooks ? playbookTitle(run.playbooks) : run.playbook_id), {
    id: 'playbook',
    header: texts.playbook,
    enableSorting: false,
    size: 220,
    cell: (info) => <span className="font-medium text-slate-900">{info.getValue()}</span>,
  }),
  col.display({
    id: 'resource',
    header: texts.resource,
    size: 200,
    cell: (info) => <RunResource run={info.row.original} />,
  }),
  col.accessor('status', {
    header: texts.status,
    size: 110,
    cell: (info) => <RunStatusBadge status={info.getValue()} />,
  }),
  col.accessor('start_time', {
    header: texts.startTime,
    enableSorting: false,
    size: 150,
    cell: (info) => formatDateTime(info.getValue() ?? info.row.original.created_at),
  }),
  col.display({
    id: 'duration',
    header: texts.duration,
    size: 100,
    cell: (info) => formatDuration(elapsedMs(info.row.original.start_time, info.row.original.end_time, Date.now())),
  }),
  col.display({
    id: 'created_by',
    header: texts.createdBy,
    size: 150,
    cell: (info) => triggeredBy(info.row.original, PLAYBOOK_UI_TEXTS.runDetail.system),
  }),
]);

/**
 * `/playbooks/runs` (spec 2 sections 2.1 and 2.5): runs newest first, filtered by playbook,
 * status and time range (default the last 7 days), 150 a page; the filters and page are in the
 * address. A row opens the run.
 */
export function PlaybookRunsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { timeRange, setTimeRange } = useTimeRangeParams(DEFAULT_RANGE);
  const range = timeRange ?? DEFAULT_RANGE;
  const playbookId = params.get('playbook') ?? undefined;
  const status = params.get('status') ?? undefined;
  const pageIndex = Math.max(0, Number(params.get('page') ?? 0) || 0);
  // 150 unless the user picks another size in the pagination bar (spec 2 section 9).
  const pageSize = Number(params.get('size')) || PLAYBOOK_DEFAULTS.runsPageSize;
  const playbookFilterId = useId();
  const statusFilterId = useId();
  // The bounds are fixed when the range is chosen, so the query key stays the same between renders.
  const rangeKey = timeRangeKey(range);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const bounds = useMemo(() => timeRangeToBounds(range, new Date()), [rangeKey]);

  const names = usePlaybookNames();
  const runs = useRuns({ playbookId, status, from: bounds?.from, to: bounds?.to, pageIndex, pageSize });

  const setFilter = (key: string, value: string) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value) next.set(key, value);
      else next.delete(key);
      next.delete('page');
      return next;
    });

  return (
    <div className="flex h-full flex-col gap-4 p-4">
      <PageHeader
        title={PLAYBOOK_UI_TEXTS.runsTitle}
        onRefresh={() => void runs.refetch()}
        isLoading={runs.isFetching}
      />
      <Link to={PLAYBOOKS_PATH} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
        <ArrowLeft aria-hidden className="size-4" />
        {PLAYBOOK_UI_TEXTS.title}
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={playbookFilterId} className="text-sm text-slate-600">
          {texts.playbook}
        </label>
        <select
          id={playbookFilterId}
          value={playbookId ?? ''}
          onChange={(event) => setFilter('playbook', event.target.value)}
          className={selectClass}
        >
          <option value="">{texts.allPlaybooks}</option>
          {(names.data ?? []).map((playbook) => (
            <option key={playbook.id} value={playbook.id}>
              {playbookTitle(playbook)}
            </option>
          ))}
        </select>
        <label htmlFor={statusFilterId} className="text-sm text-slate-600">
          {texts.status}
        </label>
        <select
          id={statusFilterId}
          value={status ?? ''}
          onChange={(event) => setFilter('status', event.target.value)}
          className={selectClass}
        >
          <option value="">{texts.allStatuses}</option>
          {PLAYBOOK_RUN_FILTER_STATUSES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <TimeRangePicker value={range} onChange={setTimeRange} />
      </div>
      {runs.isError ? (
        <ErrorPanel error={runs.error} onRetry={() => void runs.refetch()} />
      ) : (
        <DataTable
          aria-label={PLAYBOOK_UI_TEXTS.runsTitle}
          columns={columns}
          data={runs.data?.data ?? NO_ROWS}
          getRowId={(run) => run.id}
          isLoading={runs.isPending}
          emptyMessage={texts.empty}
          onRowClick={(run) => void navigate(runPath(run.id))}
          pagination={{
            mode: 'remote',
            state: { pageIndex, pageSize },
            pageCount: Math.max(1, Math.ceil((runs.data?.total ?? 0) / pageSize)),
            onChange: (state) =>
              setParams((previous) => {
                const next = new URLSearchParams(previous);
                next.set('page', String(state.pageSize === pageSize ? state.pageIndex : 0));
                if (state.pageSize === PLAYBOOK_DEFAULTS.runsPageSize) next.delete('size');
                else next.set('size', String(state.pageSize));
                return next;
              }),
          }}
          className="min-h-0 flex-1"
        />
      )}
    </div>
  );
}
