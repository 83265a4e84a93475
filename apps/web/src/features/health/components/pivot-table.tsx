import { HEALTH_PAGE_TEXTS, type CheckSummary } from '@lookout/contracts';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDuration, formatPercentage } from '@/lib/format';
import type { PivotCellType, PivotRow } from '../lib/health-pivot-fns';
import { pivotChecks } from '../lib/health-pivot-fns';
import { displayLatency, uptimePercent } from '../lib/health-status-fns';
import { StatusDot } from './status-dot';

export interface PivotTableProps {
  checks: readonly CheckSummary[];
  pivotBy: string;
  pivotLabel: string | undefined;
  cellType: PivotCellType;
  isLoading: boolean;
  onOpenCheck: (checkId: string) => void;
}

const col = createDataTableColumnHelper<PivotRow>();

function cellValue(check: CheckSummary | undefined, cellType: PivotCellType): number {
  if (!check) return -1;
  if (cellType === 'latency') return displayLatency(check.latency) ?? -1;
  if (cellType === 'checkStatuses') return check.status === 'healthy' ? 1 : 0;
  return uptimePercent(check.uptime) ?? -1;
}

function PivotCell({
  check,
  cellType,
  onOpenCheck,
}: {
  check: CheckSummary | undefined;
  cellType: PivotCellType;
  onOpenCheck: (checkId: string) => void;
}) {
  if (!check) return <span className="text-slate-400">{MISSING_VALUE}</span>;
  const uptime = uptimePercent(check.uptime);
  return (
    <button
      type="button"
      onClick={() => onOpenCheck(check.id)}
      title={check.endpoint ?? check.name}
      className="inline-flex items-center gap-1.5 rounded px-1 tabular-nums hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-sky-600"
    >
      {cellType === 'checkStatuses' ? (
        <StatusDot status={check.status} />
      ) : cellType === 'latency' ? (
        formatDuration(displayLatency(check.latency))
      ) : uptime === undefined ? (
        MISSING_VALUE
      ) : (
        formatPercentage(uptime)
      )}
    </button>
  );
}

/**
 * The pivot layout (`pivotBy`, `pivotLabel`, `pivotCellType`): one row per check name, one
 * column per namespace or label value, each cell the uptime, health or latency of that check
 * there. A cell opens its check's drawer.
 */
export function PivotTable({ checks, pivotBy, pivotLabel, cellType, isLoading, onOpenCheck }: PivotTableProps) {
  const pivot = useMemo(() => pivotChecks(checks, pivotBy, pivotLabel), [checks, pivotBy, pivotLabel]);
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor((row) => row.name.toLowerCase(), {
          id: 'name',
          header: HEALTH_PAGE_TEXTS.columns.checks,
          cell: (info) => <span className="text-slate-900">{info.row.original.name}</span>,
        }),
        ...pivot.columns.map((value) =>
          col.accessor((row) => cellValue(row.cells[value], cellType), {
            id: `pivot:${value}`,
            header: value,
            cell: (info) => (
              <PivotCell check={info.row.original.cells[value]} cellType={cellType} onOpenCheck={onOpenCheck} />
            ),
            meta: { cellClassName: 'whitespace-nowrap' },
          }),
        ),
      ]),
    [pivot.columns, cellType, onOpenCheck],
  );
  const label = pivotBy === 'labels' ? (pivotLabel ?? '') : HEALTH_PAGE_TEXTS.pivotNamespace.toLowerCase();
  return (
    <DataTable
      columns={columns}
      data={pivot.rows}
      getRowId={(row) => row.name}
      isLoading={isLoading}
      defaultSorting={[{ id: 'name', desc: false }]}
      aria-label={`${HEALTH_PAGE_TEXTS.pivotTable} ${label}`}
    />
  );
}
