import { JOB_STATUSES, NIL_AGENT_ID, type IntegrationRow, type JobHistoryRow } from '@lookout/contracts';
import { JobStatusBadge } from '@/components/ui/job-status-badge';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { IntegrationsView } from '@/features/integrations/components/integrations-view';
import { JobDetailsModal } from '@/features/job-history/components/job-details-modal';
import { jobDetailsTabs } from '@/features/job-history/lib/job-details-fns';

const isJobStatus = (status: string): status is JobHistoryRow['status'] =>
  (JOB_STATUSES as readonly string[]).includes(status);

/** An integration's last run as the job history's details modal reads it (its name and details). */
const lastRunOf = (row: IntegrationRow): JobHistoryRow => ({
  id: row.id,
  name: row.job_name ?? row.name,
  status: row.job_status && isJobStatus(row.job_status) ? row.job_status : 'SUCCESS',
  success_count: 0,
  error_count: 0,
  duration_millis: null,
  hostname: null,
  resource_type: null,
  resource_id: row.id,
  resource_name: row.name,
  time_start: row.job_time_start ?? row.created_at,
  time_end: null,
  created_at: row.job_time_start ?? row.created_at,
  agent_id: row.agent_id ?? NIL_AGENT_ID,
  agent: null,
  details: row.job_details,
});

const renderJobStatus = (status: string) =>
  isJobStatus(status) ? <JobStatusBadge status={status} /> : <span className="text-xs">{status}</span>;
const hasJobDetails = (row: IntegrationRow) => jobDetailsTabs(row.job_details).length > 0;
const renderJobDetails = (row: IntegrationRow, onClose: () => void) => (
  <JobDetailsModal job={lastRunOf(row)} onClose={onClose} />
);
// Spec 2 section 2.1: the link target of an agent from job and integration rows.
const agentHref = (agentId: string) => `/settings/agents?id=${encodeURIComponent(agentId)}`;

/**
 * `/settings/integrations` (spec 2 section 2.7): read on integrations; 'Add Integration' needs
 * write on integrations, and offers Log Backends only while the logs feature is enabled. The
 * job status and its details come from the job history feature.
 */
export function Component() {
  const permissions = usePermissions();
  const { isFeatureDisabled } = useFeatureFlags();
  return (
    <Can resource="integrations" action="read" showUnauthorized>
      <IntegrationsView
        canAdd={permissions.can('integrations', 'write')}
        showLogBackends={!isFeatureDisabled('logs')}
        renderJobStatus={renderJobStatus}
        hasJobDetails={hasJobDetails}
        renderJobDetails={renderJobDetails}
        agentHref={agentHref}
      />
    </Can>
  );
}
