import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { CanaryEditor } from '@/features/health/components/canary-editor/canary-editor';
import { JobHistoryTable } from '@/features/job-history/components/job-history-table';
import { NEW_CANARY_ID } from '@/features/health/lib/health-paths';

/** The runs of a canary (job_history resource_type 'canary'). */
const canaryJobHistory = (canaryId: string) => <JobHistoryTable resourceType="canary" resourceId={canaryId} />;

/**
 * `/settings/canaries/{id}` and `/settings/canaries/new` (spec 2 sections 2.1 and 2.8): a
 * health check's form and YAML editor. Saving needs write on canaries (spec 2 section 6).
 */
export function Component() {
  const { id } = useParams();
  const permissions = usePermissions();
  const canaryId = id === undefined || id === NEW_CANARY_ID ? undefined : id;
  return (
    <Can resource="canaries" action="read" showUnauthorized>
      <CanaryEditor
        key={canaryId ?? NEW_CANARY_ID}
        canaryId={canaryId}
        canWrite={permissions.can('canaries', 'write')}
        jobHistory={canaryJobHistory}
      />
    </Can>
  );
}
