import { INTEGRATIONS_PAGE_SIZES, INTEGRATIONS_TEXTS, integrationPath, type IntegrationRow } from '@lookout/contracts';
import type { PaginationState } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { useCallback, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useIntegrations } from '../api/get-integrations';
import { AddIntegrationModal } from './add-integration-modal';
import { IntegrationsTable } from './integrations-table';

const DEFAULT_PAGE_SIZE: number = INTEGRATIONS_PAGE_SIZES[0];

/** The page and its size from the address (`pageIndex` from 0, `pageSize`). */
function usePageParams(): [PaginationState, (next: PaginationState) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const index = Number(searchParams.get('pageIndex'));
  const size = Number(searchParams.get('pageSize'));
  const page: PaginationState = {
    pageIndex: Number.isInteger(index) && index > 0 ? index : 0,
    pageSize: (INTEGRATIONS_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
  const setPage = (next: PaginationState) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('pageIndex', String(next.pageSize === page.pageSize ? next.pageIndex : 0));
        params.set('pageSize', String(next.pageSize));
        return params;
      },
      { replace: true },
    );
  return [page, setPage];
}

export interface IntegrationsViewProps {
  /** Write on integrations (spec 2 section 6): the add control shows only then. */
  canAdd: boolean;
  /** The logs feature is enabled: 'Log Backends' is offered under 'Add Directly'. */
  showLogBackends: boolean;
  /** The job history's status label, composed by the route page. */
  renderJobStatus: (status: string) => ReactNode;
  /** True when a row's last run has details (errors or summaries) to show. */
  hasJobDetails: (row: IntegrationRow) => boolean;
  /** The job history's details modal for a row's last run. */
  renderJobDetails: (row: IntegrationRow, onClose: () => void) => ReactNode;
  /** Where an agent's badge leads. */
  agentHref: (agentId: string) => string;
}

/**
 * `/settings/integrations` (spec 2 section 2.7): the integrations newest first, paged, a row
 * opening `/settings/integrations/{type}/{id}`, the run's details in the job history's modal,
 * and 'Add Integration' for those who may write integrations.
 */
export function IntegrationsView({
  canAdd,
  showLogBackends,
  renderJobStatus,
  hasJobDetails,
  renderJobDetails,
  agentHref,
}: IntegrationsViewProps) {
  const navigate = useNavigate();
  const [page, setPage] = usePageParams();
  const [adding, setAdding] = useState(false);
  const [details, setDetails] = useState<IntegrationRow>();
  const list = useIntegrations(page);
  const onViewJobDetails = useCallback((row: IntegrationRow) => setDetails(row), []);
  const closeDetails = useCallback(() => setDetails(undefined), []);

  return (
    <div className="flex flex-col gap-3 p-4">
      <PageHeader
        title={INTEGRATIONS_TEXTS.title}
        actions={
          canAdd ? (
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden className="size-4" />
              {INTEGRATIONS_TEXTS.add}
            </Button>
          ) : undefined
        }
        onRefresh={() => void list.refetch()}
        isLoading={list.isFetching}
      />
      {list.isError && !list.data ? (
        <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <IntegrationsTable
          rows={list.data?.rows}
          isLoading={list.isPending}
          pagination={page}
          pageCount={Math.max(1, Math.ceil((list.data?.total ?? 0) / page.pageSize))}
          onPaginationChange={setPage}
          onOpen={(row) => void navigate(integrationPath(row.integration_type, row.id))}
          renderJobStatus={renderJobStatus}
          hasJobDetails={hasJobDetails}
          onViewJobDetails={onViewJobDetails}
          agentHref={agentHref}
        />
      )}
      {canAdd && <AddIntegrationModal open={adding} onOpenChange={setAdding} showLogBackends={showLogBackends} />}
      {details && renderJobDetails(details, closeDetails)}
    </div>
  );
}
