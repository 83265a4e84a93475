import { HEALTH_PAGE_TEXTS } from '@lookout/contracts';
import type { PaginationState, SortingState } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDuration, formatPercentage } from '@/lib/format';
import {
  groupUptime,
  rowHealth,
  rowLatency,
  rowSortValue,
  rowTransition,
  subRowsOf,
  type HealthRow,
} from '../lib/health-group-fns';
import { HEALTH_SORT_COLUMNS, type HealthSortColumn } from '../lib/health-params';
import { staleRunAge, transitionAge, uptimePercent } from '../lib/health-status-fns';
import { CheckIcon } from './check-icon';
import { StatusDot } from './status-dot';

export interface ChecksTableProps {
  rows: readonly HealthRow[];
  isLoading: boolean;
  now: Date;
  sortBy: HealthSortColumn | undefined;
  sortDesc: boolean;
  onSortChange: (sortBy: HealthSortColumn, sortDesc: boolean) => void;
  pagination: PaginationState;
  onPaginationChange: (pagination: PaginationState) => void;
  onOpenCheck: (checkId: string) => void;
}

const col = createDataTableColumnHelper<HealthRow>();
const narrow = { cellClassName: 'whitespace-nowrap tabular-nums', headerClassName: 'w-32' };

function ChecksCell({ row }: { row: HealthRow }) {
  if (row.kind === 'group') {
    return (
      <span className="flex min-w-0 items-center gap-2 font-medium text-slate-900">
        <CheckIcon type="group" />
        <span className="truncate">{row.title}</span>
      </span>
    );
  }
  const { check } = row;
  return (
    <span className="flex min-w-0 items-center gap-2">
      <CheckIcon type={check.type} />
      <span className="truncate text-slate-900" title={check.endpoint ?? undefined}>
        {row.title}
      </span>
      {check.namespace && (
        <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{check.namespace}</span>
      )}
    </span>
  );
}

/**
 * The checks table (spec 2 section 2.2): Checks (name with icon and namespace tag), Health,
 * Uptime, Latency, Transition; grouped rows expand. Sorting and paging live in the address.
 */
export function ChecksTable({
  rows,
  isLoading,
  now,
  sortBy,
  sortDesc,
  onSortChange,
  pagination,
  onPaginationChange,
  onOpenCheck,
}: ChecksTableProps) {
  const { columns: texts } = HEALTH_PAGE_TEXTS;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor(rowSortValue.name, {
          id: 'name',
          header: texts.checks,
          cell: (info) => <ChecksCell row={info.row.original} />,
          meta: { cellClassName: 'max-w-0 w-full' },
        }),
        col.accessor(rowSortValue.status, {
          id: 'status',
          header: texts.health,
          cell: (info) => {
            const row = info.row.original;
            const age = row.kind === 'check' ? staleRunAge(row.check.last_runtime, now) : undefined;
            return (
              <span className="flex items-center gap-1.5">
                <StatusDot status={rowHealth(row)} />
                {age && <span className="text-xs text-slate-500">{age}</span>}
              </span>
            );
          },
          meta: narrow,
        }),
        col.accessor(rowSortValue.uptime, {
          id: 'uptime',
          header: texts.uptime,
          cell: (info) => {
            const row = info.row.original;
            if (row.kind === 'group') {
              const { passed, total } = groupUptime(row);
              return `${passed}/${total}`;
            }
            const percent = uptimePercent(row.check.uptime);
            return percent === undefined ? MISSING_VALUE : formatPercentage(percent);
          },
          meta: narrow,
        }),
        col.accessor(rowSortValue.latency, {
          id: 'latency',
          header: texts.latency,
          cell: (info) => formatDuration(rowLatency(info.row.original)),
          meta: narrow,
        }),
        col.accessor(rowSortValue.last_transition_time, {
          id: 'last_transition_time',
          header: texts.transition,
          cell: (info) => transitionAge(rowTransition(info.row.original), now) ?? '',
          meta: { ...narrow, cellClassName: 'whitespace-nowrap text-slate-600' },
        }),
      ]),
    [texts, now],
  );

  const sorting = useMemo<SortingState>(
    () => [{ id: sortBy ?? 'name', desc: sortBy ? sortDesc : false }],
    [sortBy, sortDesc],
  );

  return (
    <DataTable
      columns={columns}
      data={rows}
      getRowId={(row) => row.id}
      getSubRows={subRowsOf}
      isLoading={isLoading}
      sorting={sorting}
      onSortingChange={(next) => {
        const first = next[0];
        const id = HEALTH_SORT_COLUMNS.find((column) => column === first?.id);
        if (id) onSortChange(id, first?.desc ?? false);
      }}
      pagination={{ mode: 'client', state: pagination, onChange: onPaginationChange }}
      onRowClick={(row) => {
        if (row.kind === 'check') onOpenCheck(row.check.id);
      }}
      persistStateKey="health-checks"
      aria-label={HEALTH_PAGE_TEXTS.checksTable}
    />
  );
}
