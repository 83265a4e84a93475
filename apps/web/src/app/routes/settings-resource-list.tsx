import { SettingsResourceList } from '@/components/settings-resource';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useSettingsResource } from '../settings-resource-route';

/**
 * `/settings/{table}` (spec 3 section 2.6): the list of the route's settings table, read on its
 * permission resource; the add button needs write on it.
 */
export function Component() {
  const resource = useSettingsResource();
  const permissions = usePermissions();
  return (
    <Can resource={resource.resource} action="read" showUnauthorized>
      <SettingsResourceList
        key={resource.table}
        resource={resource}
        canWrite={permissions.can(resource.resource, 'write')}
      />
    </Can>
  );
}
