import { usePermissions } from '@/features/access/hooks/use-permissions';
import { Can } from '@/features/access/components/can';
import { ConnectionsView } from '@/features/connections/components/connections-view';

/**
 * `/settings/connections` (spec 3 section 2.7): shown to roles that read connections (admin,
 * editor); add, edit, delete and test for those who write them (admin).
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="connections" action="read" showUnauthorized>
      <ConnectionsView canWrite={permissions.can('connections', 'write')} currentUserId={permissions.userId} />
    </Can>
  );
}
