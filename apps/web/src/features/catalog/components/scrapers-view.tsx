import { JOB_STATUSES, NEW_SCRAPER_ID, SCRAPERS_PAGE_TEXTS, type JobHistoryStatus } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { useScrapers, type ScraperRow } from '../api/scrapers-api';
import { scraperPath, scraperSchedule, scraperTypes } from '../lib/scraper-fns';
import { CatalogPageTabs } from './catalog-page-tabs';
import { SourceBadge } from './source-badge';

const texts = SCRAPERS_PAGE_TEXTS.columns;
const col = createDataTableColumnHelper<ScraperRow>();
const NO_ROWS: readonly ScraperRow[] = [];
const timeCell = { cellClassName: 'whitespace-nowrap tabular-nums' };
const isJobStatus = (value: string | null | undefined): value is JobHistoryStatus =>
  (JOB_STATUSES as readonly string[]).includes(value ?? '');

/**
 * `/catalog/scrapers` (spec 3 section 2.1, ui-calls 3.5): the live scrapers with their types,
 * schedule, source and latest run; the add button only with write on the scrapers resource
 * (spec 3 section 6). A row opens `/catalog/scrapers/{id}`.
 */
export interface ScrapersViewProps {
  /** Write on the scrapers resource: the add button (spec 3 section 6). */
  canWrite: boolean;
  /** Draws a run status (the job history feature's badge, composed by the route page). */
  jobStatus: (status: JobHistoryStatus) => ReactNode;
}

export function ScrapersView({ canWrite, jobStatus }: ScrapersViewProps) {
  const scrapers = useScrapers();
  const navigate = useNavigate();
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          size: 260,
          cell: (info) => <span className="font-medium text-slate-900">{info.getValue()}</span>,
        }),
        col.accessor((row) => scraperTypes(row.spec).join(', '), {
          id: 'types',
          header: texts.types,
          size: 180,
          cell: (info) => info.getValue() || MISSING_VALUE,
        }),
        col.accessor((row) => scraperSchedule(row.spec).value, {
          id: 'schedule',
          header: texts.schedule,
          size: 140,
          cell: (info) => {
            const schedule = scraperSchedule(info.row.original.spec);
            return <span className={schedule.isDefault ? 'text-slate-500' : undefined}>{schedule.value}</span>;
          },
        }),
        col.accessor('source', {
          header: texts.source,
          size: 120,
          cell: (info) => <SourceBadge source={info.getValue()} />,
        }),
        col.accessor((row) => row.job_status ?? '', {
          id: 'job_status',
          header: texts.jobStatus,
          size: 110,
          cell: (info) => {
            const status = info.row.original.job_status;
            return isJobStatus(status) ? jobStatus(status) : MISSING_VALUE;
          },
        }),
        col.accessor((row) => row.last_runtime ?? '', {
          id: 'last_runtime',
          header: texts.lastRun,
          cell: (info) => formatDateTime(info.row.original.last_runtime),
          meta: timeCell,
        }),
        col.accessor('created_at', {
          header: texts.created,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor((row) => row.updated_at ?? '', {
          id: 'updated_at',
          header: texts.updated,
          cell: (info) => formatDateTime(info.row.original.updated_at),
          meta: timeCell,
        }),
      ]),
    [jobStatus],
  );

  return (
    <>
      <PageHeader
        title={SCRAPERS_PAGE_TEXTS.title}
        actions={
          canWrite ? (
            <Link to={scraperPath(NEW_SCRAPER_ID)} className={buttonClasses('primary')}>
              <Plus aria-hidden className="size-4" />
              {SCRAPERS_PAGE_TEXTS.add}
            </Link>
          ) : undefined
        }
        onRefresh={() => void scrapers.refetch()}
        isLoading={scrapers.isFetching}
      />
      <div className="flex flex-col gap-3">
        <CatalogPageTabs />
        {scrapers.isError && !scrapers.data ? (
          <ErrorPanel error={scrapers.error} onRetry={() => void scrapers.refetch()} />
        ) : (
          <DataTable
            columns={columns}
            data={scrapers.data ?? NO_ROWS}
            getRowId={(row) => row.id}
            isLoading={scrapers.isPending}
            onRowClick={(row) => void navigate(scraperPath(row.id))}
            aria-label={SCRAPERS_PAGE_TEXTS.title}
            className="rounded-lg border border-slate-200 bg-white"
          />
        )}
      </div>
    </>
  );
}
