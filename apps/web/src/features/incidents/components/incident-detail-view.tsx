import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { incidentReportPath } from '../api/incidents-api';
import { incidentKeys } from '../api/incident-keys';
import { getResponders } from '../api/responders-api';
import { useIncident, useIncidentHistory } from '../api/use-incident';
import { allEvidence, evidenceComponentIds, rootHypothesis } from '../lib/hypothesis-tree-fns';
import { ActionPlan } from './action-plan';
import { ChangelogSection } from './changelog-section';
import { CommentsTab } from './comments-tab';
import { ComponentChips } from './component-chips';
import { DetailsSection } from './details-section';
import { DodSection } from './dod-section';
import { IncidentStatusControl } from './incident-status-control';
import { SidePanel } from './side-panel';
import { TimelineTab } from './timeline-tab';

type Tab = 'comments' | 'actionPlan' | 'timeline';

/** `/incidents/{id}` (spec 3 section 2.3): tabs Comments and Action plan, and the side panel. */
export function IncidentDetailView({ id, canWrite }: { id: string; canWrite: boolean }) {
  const incident = useIncident(id);
  const history = useIncidentHistory(id);
  const responders = useQuery({ queryKey: incidentKeys.responders(id), queryFn: () => getResponders(id) });
  const [tab, setTab] = useState<Tab>('actionPlan');
  if (incident.isPending) return null;
  if (incident.isError) {
    return (
      <p role="alert" className="p-6 text-sm text-red-600">
        {getErrorMessage(incident.error)}
      </p>
    );
  }
  const data = incident.data;
  if (!data) {
    return (
      <div className="p-6">
        <PageHeader title={INCIDENT_UI_TEXTS.title} />
        <p className="text-center text-sm text-slate-600">{INCIDENT_MESSAGES.notFound}</p>
      </div>
    );
  }
  const evidence = allEvidence(data.hypotheses);
  const dodCount = evidence.filter((item) => item.definition_of_done).length;
  const now = new Date();
  return (
    <div className="grid gap-4 p-4 lg:grid-cols-[1fr_22rem]">
      <PageHeader
        title={`${data.incident_id} ${data.title}`}
        onRefresh={() => void Promise.all([incident.refetch(), history.refetch(), responders.refetch()])}
        isLoading={incident.isFetching}
        actions={
          <>
            <a href={incidentReportPath(data.id)} download className={buttonClasses('secondary')}>
              <Download aria-hidden className="size-4" />
              {INCIDENT_UI_TEXTS.exportReport}
            </a>
            <IncidentStatusControl incident={data} canWrite={canWrite} />
          </>
        }
      />
      <div className="min-w-0 space-y-4">
        {data.description && <p className="text-sm whitespace-pre-wrap text-slate-700">{data.description}</p>}
        <ComponentChips ids={evidenceComponentIds(data.hypotheses)} />
        <div role="tablist" className="flex gap-4 border-b border-slate-200">
          {(['comments', 'actionPlan', 'timeline'] as const).map((key) => (
            <button
              key={key}
              type="button"
              role="tab"
              aria-selected={tab === key}
              className={clsx(
                '-mb-px border-b-2 px-1 py-2 text-sm font-medium',
                tab === key ? 'border-sky-600 text-sky-700' : 'border-transparent text-slate-500 hover:text-slate-800',
              )}
              onClick={() => setTab(key)}
            >
              {INCIDENT_UI_TEXTS.tabs[key]}
            </button>
          ))}
        </div>
        <div role="tabpanel">
          {tab === 'comments' && <CommentsTab incident={data} canWrite={canWrite} />}
          {tab === 'actionPlan' && <ActionPlan incident={data} canWrite={canWrite} />}
          {tab === 'timeline' && <TimelineTab incidentId={data.id} />}
        </div>
      </div>
      <aside>
        <SidePanel
          initial="details"
          sections={[
            {
              key: 'details',
              title: INCIDENT_UI_TEXTS.sections.details,
              count: responders.data?.length,
              content: (
                <DetailsSection incident={data} responders={responders.data ?? []} canWrite={canWrite} now={now} />
              ),
            },
            {
              key: 'dod',
              title: INCIDENT_UI_TEXTS.sections.definitionOfDone,
              count: dodCount,
              content: (
                <DodSection
                  incidentId={data.id}
                  rootHypothesisId={rootHypothesis(data.hypotheses)?.id}
                  evidence={evidence}
                  canWrite={canWrite}
                />
              ),
            },
            {
              key: 'changelog',
              title: INCIDENT_UI_TEXTS.sections.changelog,
              count: history.data?.length,
              content: <ChangelogSection rows={history.data ?? []} />,
            },
          ]}
        />
      </aside>
    </div>
  );
}
