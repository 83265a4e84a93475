import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { TopologiesView } from '@/features/topology/settings/topologies-view';

/** `/settings/topologies` (spec 3 section 2.6): read on topologies; adding needs write. */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="topologies" action="read" showUnauthorized>
      <TopologiesView canWrite={permissions.can('topologies', 'write')} />
    </Can>
  );
}
