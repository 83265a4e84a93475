import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PaginationState, SortingState } from '@tanstack/react-table';
import { format, parseISO } from 'date-fns';
import { useId, useMemo, useState } from 'react';
import { CopyButton } from '@/components/ui/copy-to-clipboard';
import { createDataTableColumnHelper, DataTable, DataTableSkeleton } from '@/components/ui/data-table';
import { FacetDropdown } from '@/components/ui/facet-dropdown';
import { SearchBox } from '@/components/ui/search-box';
import { toast } from '@/components/ui/toast';
import { TristateFilter } from '@/components/ui/tristate-filter';
import { TRISTATE } from '@lookout/contracts';
import type { TristateSelection } from '@/components/ui/tristate-fns';
import { formatDuration, formatPercentage } from '@/lib/format';
import {
  CHECK_STATUSES,
  CHECK_TYPES,
  CONFIG_CHANGE_TOTAL,
  createGalleryCheckRuns,
  fetchConfigChangesPage,
  type GalleryCheck,
  type GalleryCheckRun,
  type GalleryConfigChange,
} from './gallery-data';
import { GallerySection } from './gallery-section';
import { CheckStatusBadge, SeverityBadge } from './gallery-status';

const formatTime = (iso: string) => format(parseISO(iso), 'yyyy-MM-dd HH:mm:ss');
const numberCell = { cellClassName: 'text-right tabular-nums whitespace-nowrap', headerClassName: 'text-right' };

const checkColumn = createDataTableColumnHelper<GalleryCheck>();
const checkColumns = checkColumn.columns([
  checkColumn.accessor('name', {
    header: 'Name',
    cell: (info) => <span className="font-medium text-slate-900">{info.getValue()}</span>,
    // Check names are hyphenated; wrapping them at every hyphen made four-line rows.
    meta: { cellClassName: 'whitespace-nowrap' },
  }),
  checkColumn.accessor('namespace', { header: 'Namespace' }),
  checkColumn.accessor('type', { header: 'Type' }),
  checkColumn.accessor('status', { header: 'Status', cell: (info) => <CheckStatusBadge status={info.getValue()} /> }),
  checkColumn.accessor('latencyMs', {
    header: 'Latency',
    cell: (info) => formatDuration(info.getValue()),
    meta: numberCell,
  }),
  checkColumn.accessor('uptime', {
    header: 'Uptime',
    cell: (info) => formatPercentage(info.getValue()),
    meta: numberCell,
  }),
  checkColumn.accessor('endpoint', {
    header: 'Endpoint',
    enableSorting: false,
    cell: (info) => (
      <span className="flex w-64 items-center gap-1">
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-slate-600" title={info.getValue()}>
          {info.getValue()}
        </span>
        <CopyButton text={info.getValue()} label="Copy endpoint" className="shrink-0" />
      </span>
    ),
  }),
  checkColumn.accessor('agent', { header: 'Agent' }),
  checkColumn.accessor('lastRunAt', {
    header: 'Last run',
    // Checks run every few minutes: the time of day is what an operator compares.
    cell: (info) => format(parseISO(info.getValue()), 'HH:mm:ss'),
    meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
  }),
]);

const toOptions = (values: ReadonlyArray<string>) => values.map((value) => ({ value }));

export interface ChecksTableSectionProps {
  checks: ReadonlyArray<GalleryCheck>;
  isLoading: boolean;
}

/** Sorting, grouping, client pagination, row click and the filters wired to a real list. */
export function ChecksTableSection({ checks, isLoading }: ChecksTableSectionProps) {
  const groupToggleId = useId();
  const [search, setSearch] = useState('');
  const [namespaces, setNamespaces] = useState<string[]>([]);
  const [statuses, setStatuses] = useState<string[]>([]);
  const [types, setTypes] = useState<TristateSelection>({ prometheus: TRISTATE.exclude });
  const [grouped, setGrouped] = useState(false);

  const namespaceOptions = useMemo(
    () => toOptions([...new Set(checks.map((check) => check.namespace))].sort()),
    [checks],
  );

  const visible = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const included = Object.keys(types).filter((type) => types[type] === TRISTATE.include);
    return checks.filter(
      (check) =>
        (!needle || check.name.includes(needle) || check.endpoint.toLowerCase().includes(needle)) &&
        (namespaces.length === 0 || namespaces.includes(check.namespace)) &&
        (statuses.length === 0 || statuses.includes(check.status)) &&
        types[check.type] !== TRISTATE.exclude &&
        (included.length === 0 || included.includes(check.type)),
    );
  }, [checks, search, namespaces, statuses, types]);

  return (
    <GallerySection
      id="checks-table"
      title="Data table: sorting, grouping, client pagination"
      description="120 health checks. Headers sort (ascending and descending only); grouping by namespace shows a count per group and keeps expanded groups in session storage; pages are sliced in the browser. Clicking a row opens it (here: a toast)."
      flush
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-5 py-3">
        <SearchBox
          value={search}
          onChange={setSearch}
          placeholder="Search by name, description, or endpoint"
          className="w-96"
        />
        <FacetDropdown label="Namespace" options={namespaceOptions} value={namespaces} onChange={setNamespaces} />
        <FacetDropdown label="Status" options={toOptions(CHECK_STATUSES)} value={statuses} onChange={setStatuses} />
        <TristateFilter label="Type" options={toOptions(CHECK_TYPES)} value={types} onChange={setTypes} />
        <label htmlFor={groupToggleId} className="ml-auto flex items-center gap-2 text-sm text-slate-700">
          <input
            id={groupToggleId}
            type="checkbox"
            checked={grouped}
            onChange={(event) => setGrouped(event.target.checked)}
            className="size-4 rounded border-slate-300 accent-blue-600"
          />
          Group by namespace
        </label>
      </div>
      <DataTable
        aria-label="Health checks"
        columns={checkColumns}
        data={visible}
        getRowId={(check) => check.id}
        isLoading={isLoading}
        defaultSorting={[{ id: 'name', desc: false }]}
        groupBy={grouped ? ['namespace'] : undefined}
        pagination={{ mode: 'client', defaultPageSize: 25 }}
        persistStateKey="dev-gallery.checks"
        onRowClick={(check) => toast.info(`Opened ${check.name}`)}
      />
    </GallerySection>
  );
}

const changeColumn = createDataTableColumnHelper<GalleryConfigChange>();
const changeColumns = changeColumn.columns([
  changeColumn.accessor('changeType', {
    header: 'Change',
    cell: (info) => <span className="font-medium whitespace-nowrap text-slate-900">{info.getValue()}</span>,
  }),
  changeColumn.accessor('configName', {
    header: 'Config',
    cell: (info) => (
      <span className="flex flex-col">
        <span className="text-slate-900">{info.getValue()}</span>
        <span className="text-xs text-slate-500">{info.row.original.configType}</span>
      </span>
    ),
  }),
  changeColumn.accessor('summary', {
    header: 'Summary',
    enableSorting: false,
    cell: (info) => (
      <span className="block max-w-md truncate" title={info.getValue()}>
        {info.getValue()}
      </span>
    ),
  }),
  changeColumn.accessor('severity', {
    header: 'Severity',
    cell: (info) => <SeverityBadge severity={info.getValue()} />,
  }),
  changeColumn.accessor('createdBy', { header: 'Created by', meta: { cellClassName: 'whitespace-nowrap' } }),
  changeColumn.accessor('createdAt', {
    header: 'Created at',
    cell: (info) => formatTime(info.getValue()),
    meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
  }),
]);

/** The server pages and sorts; the table only reports what the user asked for. */
export function RemoteTableSection() {
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 10 });
  const [sorting, setSorting] = useState<SortingState>([{ id: 'createdAt', desc: true }]);
  const query = useQuery({
    queryKey: ['dev-gallery', 'config-changes', pagination, sorting],
    queryFn: () => fetchConfigChangesPage({ ...pagination, sorting }),
    // The previous page stays on screen (marked busy) instead of flashing the skeleton.
    placeholderData: keepPreviousData,
  });
  const total = query.data?.total ?? CONFIG_CHANGE_TOTAL;

  return (
    <GallerySection
      id="remote-table"
      title="Data table: remote pagination"
      description={`${total} catalog changes served by a simulated data API (450 ms per page). Paging, page size and sorting are sent to the server; the table shows only the page it gets back.`}
      flush
    >
      <DataTable
        aria-label="Catalog changes"
        columns={changeColumns}
        data={query.data?.rows ?? []}
        getRowId={(change) => change.id}
        isLoading={query.isFetching}
        skeletonRows={pagination.pageSize}
        sorting={sorting}
        onSortingChange={setSorting}
        pagination={{
          mode: 'remote',
          state: pagination,
          pageCount: Math.ceil(total / pagination.pageSize),
          onChange: setPagination,
        }}
      />
    </GallerySection>
  );
}

const runColumn = createDataTableColumnHelper<GalleryCheckRun>();
const runColumns = runColumn.columns([
  runColumn.accessor('time', {
    header: 'Time',
    cell: (info) => formatTime(info.getValue()),
    meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
  }),
  runColumn.accessor('check', { header: 'Check', meta: { cellClassName: 'whitespace-nowrap' } }),
  runColumn.accessor('passed', {
    header: 'Result',
    cell: (info) => <CheckStatusBadge status={info.getValue() ? 'healthy' : 'unhealthy'} />,
  }),
  runColumn.accessor('durationMs', {
    header: 'Duration',
    cell: (info) => formatDuration(info.getValue()),
    meta: numberCell,
  }),
  runColumn.accessor('message', {
    header: 'Message',
    enableSorting: false,
    cell: (info) => (
      <span className="block max-w-lg truncate" title={info.getValue()}>
        {info.getValue()}
      </span>
    ),
  }),
]);

const FIRST_RUN_PAGE = 500;

/** 2,000 rows in a bounded box; only the rows in view are in the DOM. */
export function VirtualTableSection({ checks }: { checks: ReadonlyArray<GalleryCheck> }) {
  const runs = useMemo(() => createGalleryCheckRuns(checks), [checks]);
  const [pageSize, setPageSize] = useState(FIRST_RUN_PAGE);
  const loaded = useMemo(() => runs.slice(0, pageSize), [runs, pageSize]);

  return (
    <GallerySection
      id="virtual-table"
      title="Data table: virtual scrolling"
      description={`${runs.length.toLocaleString('en-US')} check runs, 35 px rows with an overscan of 10. Virtual pagination loads ${FIRST_RUN_PAGE} first and doubles the page size when the last row comes into view (loaded now: ${loaded.length.toLocaleString('en-US')}). The scroll position survives leaving and coming back.`}
      flush
    >
      <DataTable
        aria-label="Check runs"
        columns={runColumns}
        data={loaded}
        getRowId={(run) => run.id}
        virtual
        virtualPagination={{
          pageSize,
          onPageSizeChange: (next) => setPageSize(Math.min(next, runs.length)),
          hasMore: pageSize < runs.length,
        }}
        persistStateKey="dev-gallery.check-runs"
        className="h-[420px]"
      />
    </GallerySection>
  );
}

/** The two states a list shows before and instead of rows. */
export function TableStatesSection() {
  return (
    <GallerySection
      id="table-states"
      title="Data table: loading and empty"
      description="While the first page loads the table shows a busy skeleton under its headers; a list with no rows says 'No data available'. The skeleton is also available on its own."
    >
      <div className="grid gap-5 lg:grid-cols-2">
        <div className="overflow-hidden rounded-md border border-slate-200">
          <DataTable aria-label="Loading checks" columns={checkColumns} data={[]} isLoading skeletonRows={5} />
        </div>
        <div className="overflow-hidden rounded-md border border-slate-200">
          <DataTable aria-label="Silences" columns={changeColumns} data={[]} />
        </div>
        <div className="overflow-hidden rounded-md border border-slate-200 lg:col-span-2">
          <DataTableSkeleton rows={3} columns={6} />
        </div>
      </div>
    </GallerySection>
  );
}
