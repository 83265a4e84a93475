import {
  ADD_AGENT_PARAM,
  AGENT_DEFAULT_SORT,
  AGENT_ID_PARAM,
  AGENT_PAGE_SIZES,
  AGENTS_TEXTS,
  type AgentFormValues,
  type AgentGenerateResponse,
  type AgentSortColumn,
} from '@lookout/contracts';
import type { SortingState } from '@tanstack/react-table';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { agentKeys } from '../api/agent-keys';
import type { AgentSummaryRow } from '../api/agent-types';
import { useAgents } from '../api/get-agents';
import { listRequestOf, pageCountOf, withListRequest } from '../lib/agent-list-params';
import { AgentDrawer } from './agent-drawer';
import { AgentInstallModal } from './agent-install-modal';
import { agentColumns } from './agents-columns';

const NO_ROWS: readonly AgentSummaryRow[] = [];
const AGENT_DEFAULT_SORT_REQUEST = { sortBy: AGENT_DEFAULT_SORT.column, desc: AGENT_DEFAULT_SORT.desc };

export interface AgentsPageProps {
  /** Write on agents: the plus button and the drawer's save area (spec 2 section 6). */
  canWrite: boolean;
}

/**
 * `/agents` and `/settings/agents` (spec 2 sections 2.1 and 2.6): the agents, server-sorted and
 * paged from the address; `?id=` opens an agent's drawer, `?addAgent=true` the create drawer,
 * and a created agent's installation instructions follow.
 */
export function AgentsPage({ canWrite }: AgentsPageProps) {
  const [params, setParams] = useSearchParams();
  const request = listRequestOf(params);
  const agents = useAgents(request);
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: agentKeys.all });
  const [installing, setInstalling] = useState<{ created: AgentGenerateResponse; form: AgentFormValues }>();
  const columns = useMemo(() => agentColumns(), []);

  const agentId = params.get(AGENT_ID_PARAM) ?? undefined;
  const adding = params.get(ADD_AGENT_PARAM) === 'true';
  const sorting: SortingState = [{ id: request.sortBy, desc: request.desc }];

  const setDrawer = (change: { id?: string; add?: boolean }) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete(AGENT_ID_PARAM);
      next.delete(ADD_AGENT_PARAM);
      if (change.id) next.set(AGENT_ID_PARAM, change.id);
      if (change.add) next.set(ADD_AGENT_PARAM, 'true');
      return next;
    });

  const onSortingChange = (next: SortingState) => {
    // A third click on a header clears the sort: the list goes back to newest first.
    const [first] = next;
    const sort = first ? { sortBy: first.id as AgentSortColumn, desc: first.desc } : AGENT_DEFAULT_SORT_REQUEST;
    setParams((current) => withListRequest(current, { ...request, ...sort, pageIndex: 0 }));
  };

  const data = agents.data;
  return (
    <section className="flex min-h-0 flex-1 flex-col gap-4">
      <PageHeader
        title={AGENTS_TEXTS.title}
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: agentKeys.all })}
        isLoading={fetching > 0}
        actions={
          canWrite && (
            <Button onClick={() => setDrawer({ add: true })} aria-label={AGENTS_TEXTS.add} title={AGENTS_TEXTS.add}>
              <Plus aria-hidden className="size-4" />
            </Button>
          )
        }
      />
      {agents.isError && !data ? (
        <ErrorPanel error={agents.error} onRetry={() => void agents.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          data={data?.rows ?? NO_ROWS}
          getRowId={(agent) => agent.id}
          isLoading={agents.isPending}
          sorting={sorting}
          onSortingChange={onSortingChange}
          manualSorting
          pagination={{
            mode: 'remote',
            state: { pageIndex: request.pageIndex, pageSize: request.pageSize },
            pageCount: pageCountOf(data?.total ?? 0, request.pageSize),
            pageSizes: AGENT_PAGE_SIZES,
            onChange: (page) => setParams((current) => withListRequest(current, { ...request, ...page })),
          }}
          onRowClick={(agent) => setDrawer({ id: agent.id })}
          aria-label={AGENTS_TEXTS.table}
          className="rounded-lg border border-slate-200 bg-white"
        />
      )}
      {(agentId !== undefined || (adding && canWrite)) && (
        <AgentDrawer
          key={agentId ?? 'new'}
          agentId={agentId}
          canWrite={canWrite}
          onClose={() => setDrawer({})}
          onCreated={(created, form) => {
            setDrawer({});
            setInstalling({ created, form });
          }}
        />
      )}
      {installing && (
        <AgentInstallModal
          created={installing.created}
          form={installing.form}
          upstreamUrl={window.location.origin}
          onClose={() => setInstalling(undefined)}
        />
      )}
    </section>
  );
}
