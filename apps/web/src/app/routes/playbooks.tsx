import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { PlaybooksPage } from '@/features/playbooks/components/playbooks-page';

/**
 * `/playbooks` (spec 2 section 2.5): read on playbooks; create, delete and run need write on
 * playbooks, and edit also write on connections (a spec may name connections).
 */
export function Component() {
  const permissions = usePermissions();
  const canWrite = permissions.can('playbooks', 'write');
  return (
    <Can resource="playbooks" action="read" showUnauthorized>
      <PlaybooksPage canWrite={canWrite} canEdit={canWrite && permissions.can('connections', 'write')} />
    </Can>
  );
}
