import {
  INTEGRATION_TYPE_DETAILS,
  NEW_INTEGRATION_ID,
  isIntegrationType,
  type IntegrationType,
} from '@lookout/contracts';
import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { ScraperEditor } from '@/features/catalog/components/scraper-editor';
import {
  INTEGRATIONS_LIST,
  IntegrationTabs,
  UnknownIntegrationType,
} from '@/features/integrations/components/integration-detail';
import { JobHistoryTable } from '@/features/job-history/components/job-history-table';
import { LogBackendEditor } from '@/features/logs/settings/log-backend-form';
import { TopologyEditor } from '@/features/topology/settings/topology-editor';

/** The runs of one integration (job_history by its type's resource_type and its id). */
const jobHistoryOf = (type: IntegrationType) => (id: string) => (
  <JobHistoryTable resourceType={INTEGRATION_TYPE_DETAILS[type].jobResourceType} resourceId={id} />
);

/** The editor of each type, reused from its own settings page, returning to the integrations. */
function Editor({
  type,
  id,
  canWrite,
  userId,
}: {
  type: IntegrationType;
  id?: string;
  canWrite: boolean;
  userId: string;
}) {
  const jobHistory = jobHistoryOf(type);
  switch (type) {
    case 'scrapers':
      return (
        <ScraperEditor
          scraperId={id}
          canWrite={canWrite}
          currentUserId={userId}
          jobHistory={jobHistory}
          backTo={INTEGRATIONS_LIST}
        />
      );
    case 'topologies':
      return (
        <TopologyEditor
          id={id}
          canWrite={canWrite}
          currentUserId={userId}
          jobHistory={jobHistory}
          backTo={INTEGRATIONS_LIST}
        />
      );
    case 'logging_backends': {
      const editor = <LogBackendEditor id={id} canWrite={canWrite} currentUserId={userId} backTo={INTEGRATIONS_LIST} />;
      // The log backend form has no tabs of its own; a new one has no runs yet.
      return id === undefined ? editor : <IntegrationTabs spec={editor} jobHistory={jobHistory(id)} />;
    }
  }
}

/**
 * `/settings/integrations/{type}/{id}` (spec 2 sections 2.1 and 2.7): the integration's Spec
 * (its type's own editor) and Job History; `{id}` `new` creates one ('Add Directly'). Reading
 * needs read on the type's resource, creating write; any other `{type}` shows 'Unknown type'.
 */
export function Component() {
  const { type, id } = useParams();
  const permissions = usePermissions();
  if (!isIntegrationType(type)) return <UnknownIntegrationType />;
  const { resource } = INTEGRATION_TYPE_DETAILS[type];
  const integrationId = id === undefined || id === NEW_INTEGRATION_ID ? undefined : id;
  return (
    <Can resource={resource} action={integrationId === undefined ? 'write' : 'read'} showUnauthorized>
      <Editor
        key={`${type}:${integrationId ?? NEW_INTEGRATION_ID}`}
        type={type}
        id={integrationId}
        canWrite={permissions.can(resource, 'write')}
        userId={permissions.userId}
      />
    </Can>
  );
}
