import { CATALOG_INSIGHTS_SORT_COLUMNS, CATALOG_INSIGHTS_TEXTS } from '@lookout/contracts';
import type { SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { useInsights } from '../api/insights-api';
import { useInsightsParams } from '../hooks/use-insights-params';
import { cutMessage, type InsightRow } from '../lib/insights-params';
import { InsightDialog } from './insight-dialog';
import { InsightsFilters } from './insights-filters';

const texts = CATALOG_INSIGHTS_TEXTS;
const NO_ROWS: readonly InsightRow[] = [];
const col = createDataTableColumnHelper<InsightRow>();
const dateCell = { cellClassName: 'whitespace-nowrap tabular-nums text-slate-600' };

const SEVERITY_CLASS: Record<string, string> = {
  critical: 'bg-red-100 text-red-800',
  blocker: 'bg-red-100 text-red-800',
  high: 'bg-red-50 text-red-700',
  medium: 'bg-orange-50 text-orange-700',
  warning: 'bg-orange-50 text-orange-700',
  low: 'bg-yellow-50 text-yellow-800',
  info: 'bg-slate-100 text-slate-700',
};

const COLUMNS = col.columns([
  col.accessor((row) => row.config?.name ?? '', {
    id: 'config_name',
    header: texts.columns.catalog,
    size: 300,
    cell: (info) => {
      const row = info.row.original;
      return (
        <span className="flex min-w-0 flex-col gap-0.5">
          {row.config ? (
            <Link
              to={`/catalog/${row.config.id}/insights`}
              // The row opens the insight; the link opens the item.
              onClick={(event) => event.stopPropagation()}
              className="truncate text-sky-700 hover:underline"
            >
              {row.config.name}
            </Link>
          ) : (
            MISSING_VALUE
          )}
          {row.message && (
            <span data-testid="insight-message" className="line-clamp-2 text-xs text-slate-500">
              {cutMessage(row.message)}
            </span>
          )}
        </span>
      );
    },
  }),
  col.accessor('analysis_type', {
    header: texts.columns.type,
    size: 120,
    cell: (info) => info.getValue() ?? MISSING_VALUE,
  }),
  col.accessor('analyzer', { header: texts.columns.analyzer, size: 170 }),
  col.accessor('severity', {
    header: texts.columns.severity,
    size: 100,
    cell: (info) => (
      <span className={`rounded px-1.5 py-0.5 text-xs ${SEVERITY_CLASS[info.getValue() ?? ''] ?? ''}`}>
        {info.getValue() ?? MISSING_VALUE}
      </span>
    ),
  }),
  col.accessor('status', { header: texts.columns.status, size: 90, cell: (info) => info.getValue() ?? MISSING_VALUE }),
  col.accessor('first_observed', {
    header: texts.columns.firstObserved,
    size: 150,
    cell: (info) => formatDateTime(info.getValue()),
    meta: dateCell,
  }),
  col.accessor('last_observed', {
    header: texts.columns.lastObserved,
    size: 150,
    cell: (info) => formatDateTime(info.getValue()),
    meta: dateCell,
  }),
]);

const isSortColumn = (id: string) => (CATALOG_INSIGHTS_SORT_COLUMNS as readonly string[]).includes(id);

/**
 * The insights list (spec 3 section 2.1): all items at /catalog/insights or one item on its
 * Insights tab. Filters, page and order live in the address; a row opens the detail panel.
 */
export function InsightsView({ configId }: { configId?: string }) {
  const [params, update] = useInsightsParams();
  const insights = useInsights(params, configId);
  const [opened, setOpened] = useState<string | null>(null);
  const sorting = useMemo<SortingState>(
    () => [{ id: params.sortBy, desc: params.sortOrder === 'desc' }],
    [params.sortBy, params.sortOrder],
  );
  const total = insights.data?.total ?? 0;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <InsightsFilters params={params} onChange={update} forItem={configId !== undefined} />
      {insights.isError && !insights.data ? (
        <ErrorPanel error={insights.error} onRetry={() => void insights.refetch()} />
      ) : (
        <DataTable
          columns={COLUMNS}
          data={insights.data?.rows ?? NO_ROWS}
          getRowId={(row) => row.id}
          isLoading={insights.isPending}
          emptyMessage={texts.empty}
          sorting={sorting}
          onSortingChange={(next) => {
            const [first] = next;
            if (first && isSortColumn(first.id)) update({ sortBy: first.id, sortOrder: first.desc ? 'desc' : 'asc' });
          }}
          manualSorting
          pagination={{
            mode: 'remote',
            state: { pageIndex: params.pageIndex, pageSize: params.pageSize },
            pageCount: Math.max(1, Math.ceil(total / params.pageSize)),
            onChange: (next) =>
              update(
                next.pageSize === params.pageSize
                  ? { pageIndex: next.pageIndex }
                  : { pageSize: next.pageSize, pageIndex: 0 },
              ),
          }}
          onRowClick={(row) => setOpened(row.id)}
          aria-label={texts.title}
          className="min-h-0 flex-1 rounded-lg border border-slate-200 bg-white"
        />
      )}
      <InsightDialog id={opened} onClose={() => setOpened(null)} />
    </div>
  );
}
