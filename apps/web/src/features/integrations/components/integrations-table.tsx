import { INTEGRATIONS_TEXTS, isIntegrationType, type IntegrationRow } from '@lookout/contracts';
import type { PaginationState } from '@tanstack/react-table';
import { Boxes, Network, Plug, ScrollText, type LucideIcon } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { AgentBadge } from '@/components/ui/agent-badge';
import { Avatar } from '@/components/ui/avatar';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';

const col = createDataTableColumnHelper<IntegrationRow>();
const texts = INTEGRATIONS_TEXTS.columns;
const timeCell = { cellClassName: 'whitespace-nowrap tabular-nums' };
const NONE: readonly IntegrationRow[] = [];

const TYPE_ICONS: Record<string, LucideIcon> = { scrapers: Boxes, topologies: Network, logging_backends: ScrollText };

/** The type of an integration as an icon named for screen readers. */
function TypeIcon({ type }: { type: string }) {
  const Icon = TYPE_ICONS[type] ?? Plug;
  const label = isIntegrationType(type) ? INTEGRATIONS_TEXTS.typeLabels[type] : type;
  return <Icon role="img" aria-label={label} className="size-4 shrink-0 text-slate-500" />;
}

export interface IntegrationsTableProps {
  rows: readonly IntegrationRow[] | undefined;
  isLoading: boolean;
  pagination: PaginationState;
  pageCount: number;
  onPaginationChange: (next: PaginationState) => void;
  onOpen: (row: IntegrationRow) => void;
  /** The run's status as the job history shows it (composed by the route page). */
  renderJobStatus: (status: string) => ReactNode;
  /** True when the row's last run has details to show; the 'View details' link shows then. */
  hasJobDetails: (row: IntegrationRow) => boolean;
  onViewJobDetails: (row: IntegrationRow) => void;
  /** Where an agent's badge leads. */
  agentHref: (agentId: string) => string;
}

/**
 * The integrations list (spec 2 section 2.7): Name (type icon and agent badge), Namespace,
 * Source, Job Status (with a View details link), Last Run, Created By, Created At, Updated At.
 */
export function IntegrationsTable({
  rows,
  isLoading,
  pagination,
  pageCount,
  onPaginationChange,
  onOpen,
  renderJobStatus,
  hasJobDetails,
  onViewJobDetails,
  agentHref,
}: IntegrationsTableProps) {
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          size: 280,
          enableSorting: false,
          cell: (info) => {
            const row = info.row.original;
            return (
              <span className="flex min-w-0 items-center gap-2">
                <TypeIcon type={row.integration_type} />
                <span className="truncate font-medium text-slate-900" title={row.name}>
                  {row.name}
                </span>
                <AgentBadge agent={row.agent} href={row.agent?.id ? agentHref(row.agent.id) : undefined} />
              </span>
            );
          },
        }),
        col.accessor((row) => row.namespace ?? '', {
          id: 'namespace',
          header: texts.namespace,
          size: 140,
          enableSorting: false,
          cell: (info) => info.getValue() || MISSING_VALUE,
        }),
        col.accessor('source', { header: texts.source, size: 120, enableSorting: false }),
        col.accessor((row) => row.job_status ?? '', {
          id: 'job_status',
          header: texts.jobStatus,
          size: 190,
          enableSorting: false,
          cell: (info) => {
            const row = info.row.original;
            if (!row.job_status) return <span className="text-slate-400">{MISSING_VALUE}</span>;
            return (
              <span className="flex items-center gap-2">
                {renderJobStatus(row.job_status)}
                {hasJobDetails(row) && (
                  <button
                    type="button"
                    onClick={(event) => {
                      // The row opens the integration; this opens the run's details only.
                      event.stopPropagation();
                      onViewJobDetails(row);
                    }}
                    className="text-xs text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
                  >
                    {INTEGRATIONS_TEXTS.viewDetails}
                  </button>
                )}
              </span>
            );
          },
        }),
        col.accessor('job_time_start', {
          header: texts.lastRun,
          enableSorting: false,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor((row) => row.creator?.name ?? '', {
          id: 'created_by',
          header: texts.createdBy,
          size: 160,
          enableSorting: false,
          cell: (info) => {
            const creator = info.row.original.creator;
            if (!creator) return MISSING_VALUE;
            return (
              <span className="flex items-center gap-2">
                <Avatar name={creator.name} src={creator.avatar} />
                {creator.name}
              </span>
            );
          },
        }),
        col.accessor('created_at', {
          header: texts.createdAt,
          enableSorting: false,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
        col.accessor('updated_at', {
          header: texts.updatedAt,
          enableSorting: false,
          cell: (info) => formatDateTime(info.getValue()),
          meta: timeCell,
        }),
      ]),
    [renderJobStatus, hasJobDetails, onViewJobDetails, agentHref],
  );
  return (
    <DataTable
      columns={columns}
      data={rows ?? NONE}
      getRowId={(row) => `${row.integration_type}:${row.id}`}
      isLoading={isLoading}
      onRowClick={onOpen}
      pagination={{ mode: 'remote', state: pagination, pageCount, onChange: onPaginationChange }}
      emptyMessage={INTEGRATIONS_TEXTS.empty}
      aria-label={INTEGRATIONS_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
