import { NEW_SETTINGS_RESOURCE_ID } from '@lookout/contracts';
import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { LogBackendEditor } from '@/features/logs/settings/log-backend-form';

/** `/settings/logging_backends/{id}` and `/new`: adding needs write; readers see the spec read-only. */
export function Component() {
  const { id } = useParams();
  const permissions = usePermissions();
  const backendId = id === undefined || id === NEW_SETTINGS_RESOURCE_ID ? undefined : id;
  return (
    <Can resource="logging_backends" action={backendId === undefined ? 'write' : 'read'} showUnauthorized>
      <LogBackendEditor
        key={backendId ?? NEW_SETTINGS_RESOURCE_ID}
        id={backendId}
        canWrite={permissions.can('logging_backends', 'write')}
        currentUserId={permissions.userId}
      />
    </Can>
  );
}
