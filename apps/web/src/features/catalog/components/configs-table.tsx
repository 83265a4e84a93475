import { CATALOG_LIMITS, CATALOG_TEXTS } from '@lookout/contracts';
import type { SortingState } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';
import type { ConfigTableRow } from '../api/catalog-api';
import { changeTotal } from '../lib/catalog-fns';
import { CONFIG_SORT_COLUMNS } from '../lib/catalog-params';
import { AnalysisIcons, ChangeCount, CostCell } from './catalog-badges';
import { HealthDot } from '@/components/ui/health-dot';

const col = createDataTableColumnHelper<ConfigTableRow>();
const texts = CATALOG_TEXTS.columns;
const dateCell = { cellClassName: 'whitespace-nowrap tabular-nums text-slate-600' };
const sortable = (id: string) => (CONFIG_SORT_COLUMNS as readonly string[]).includes(id);

export type ConfigsTableProps = {
  rows: ConfigTableRow[];
  isLoading: boolean;
  /** Whether the server has rows beyond `rows`. */
  hasMore: boolean;
  /** Asked for once per loaded length, when the last loaded row scrolls into view. */
  onLoadMore: () => void;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  onSort: (sortBy: string, sortOrder: 'asc' | 'desc') => void;
  onOpen: (row: ConfigTableRow) => void;
};

/** The item table (a type or a search): virtualised, sorted and paged by the server. */
export function ConfigsTable({
  rows,
  isLoading,
  hasMore,
  onLoadMore,
  sortBy,
  sortOrder,
  onSort,
  onOpen,
}: ConfigsTableProps) {
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          size: 240,
          cell: (info) => (
            <span className="flex items-center gap-1.5 font-medium text-slate-900">
              <HealthDot health={info.row.original.health} />
              {info.getValue()}
            </span>
          ),
        }),
        col.accessor('type', { header: texts.type, size: 170 }),
        col.accessor('status', { header: texts.status, size: 110 }),
        col.accessor((row) => changeTotal(row.changes), {
          id: 'changes',
          header: texts.changes,
          size: 90,
          enableSorting: false,
          cell: (info) => <ChangeCount count={info.getValue()} />,
        }),
        col.accessor('tags', {
          header: texts.tags,
          size: 200,
          enableSorting: false,
          cell: (info) => (
            // One line: virtual rows have one fixed height, wrapped tags would overflow it.
            <span className="flex gap-1 overflow-hidden whitespace-nowrap">
              {Object.entries(info.getValue() ?? {}).map(([key, value]) => (
                <span key={key} className="rounded bg-slate-100 px-1 text-xs text-slate-700">
                  {key}: {value}
                </span>
              ))}
            </span>
          ),
        }),
        col.accessor('analysis', {
          header: texts.analysis,
          size: 110,
          enableSorting: false,
          cell: (info) => <AnalysisIcons analysis={info.getValue()} />,
        }),
        col.accessor('cost_total_30d', {
          header: texts.cost,
          size: 110,
          enableSorting: false,
          cell: (info) => <CostCell cost1d={info.row.original.cost_total_1d} cost30d={info.getValue()} />,
        }),
        col.accessor('created_at', {
          header: texts.created,
          size: 140,
          cell: (info) => formatDateTime(info.getValue()),
          meta: dateCell,
        }),
        col.accessor('updated_at', {
          header: texts.updated,
          size: 140,
          cell: (info) => formatDateTime(info.getValue()),
          meta: dateCell,
        }),
        col.accessor('deleted_at', {
          header: texts.deletedAt,
          size: 140,
          cell: (info) => formatDateTime(info.getValue()),
          meta: dateCell,
        }),
        col.accessor((row) => row.changes?.length ?? 0, {
          id: 'changed',
          header: texts.changed,
          size: 90,
          enableSorting: false,
          cell: (info) => (info.getValue() > 0 ? `${info.getValue()}` : ''),
        }),
      ]),
    [],
  );
  const sorting = useMemo<SortingState>(() => [{ id: sortBy, desc: sortOrder === 'desc' }], [sortBy, sortOrder]);
  return (
    <DataTable
      aria-label={CATALOG_TEXTS.title}
      columns={columns}
      data={rows}
      getRowId={(row) => row.id}
      isLoading={isLoading}
      manualSorting
      sorting={sorting}
      onSortingChange={(next) => {
        const [first] = next;
        if (first && sortable(first.id)) onSort(first.id, first.desc ? 'desc' : 'asc');
      }}
      virtual={{ estimateSize: CATALOG_LIMITS.rowEstimate, overscan: CATALOG_LIMITS.overscan }}
      // The table asks for "more" when its last row is in view; the size it names is not used,
      // the next server page is. Keyed by the loaded length, so each length asks once.
      virtualPagination={{ pageSize: rows.length, onPageSizeChange: onLoadMore, hasMore }}
      onRowClick={onOpen}
      className="h-full"
    />
  );
}
