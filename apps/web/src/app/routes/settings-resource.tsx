import { NEW_SETTINGS_RESOURCE_ID } from '@lookout/contracts';
import { useParams } from 'react-router';
import { SettingsResourceEditor } from '@/components/settings-resource';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { JobHistoryTable } from '@/features/job-history/components/job-history-table';
import { useSettingsResource } from '../settings-resource-route';

/**
 * `/settings/{table}/{id}` and `/settings/{table}/new` for a table edited with the generic form
 * (spec 2 section 2.8): Spec and Job History (its runs from the job history feature). Creating
 * needs write on the resource; an existing row opens read-only for those who only read it.
 */
export function Component() {
  const resource = useSettingsResource();
  const { id } = useParams();
  const permissions = usePermissions();
  const rowId = id === undefined || id === NEW_SETTINGS_RESOURCE_ID ? undefined : id;
  const jobResourceType = resource.jobResourceType;
  return (
    <Can resource={resource.resource} action={rowId === undefined ? 'write' : 'read'} showUnauthorized>
      <SettingsResourceEditor
        key={`${resource.table}:${rowId ?? NEW_SETTINGS_RESOURCE_ID}`}
        resource={resource}
        id={rowId}
        canWrite={permissions.can(resource.resource, 'write')}
        currentUserId={permissions.userId}
        jobHistory={
          jobResourceType ? (rowId) => <JobHistoryTable resourceType={jobResourceType} resourceId={rowId} /> : undefined
        }
      />
    </Can>
  );
}
