import { NEW_SETTINGS_RESOURCE_ID } from '@lookout/contracts';
import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { JobHistoryTable } from '@/features/job-history/components/job-history-table';
import { TopologyEditor } from '@/features/topology/settings/topology-editor';

/** The runs of a topology (job_history resource_type 'topology'). */
const topologyJobHistory = (id: string) => <JobHistoryTable resourceType="topology" resourceId={id} />;

/**
 * `/settings/topologies/{id}` and `/settings/topologies/new` (spec 3 section 2.6): creating
 * needs write on topologies; an existing topology opens read-only for readers.
 */
export function Component() {
  const { id } = useParams();
  const permissions = usePermissions();
  const topologyId = id === undefined || id === NEW_SETTINGS_RESOURCE_ID ? undefined : id;
  return (
    <Can resource="topologies" action={topologyId === undefined ? 'write' : 'read'} showUnauthorized>
      <TopologyEditor
        key={topologyId ?? NEW_SETTINGS_RESOURCE_ID}
        id={topologyId}
        canWrite={permissions.can('topologies', 'write')}
        currentUserId={permissions.userId}
        jobHistory={topologyJobHistory}
      />
    </Can>
  );
}
