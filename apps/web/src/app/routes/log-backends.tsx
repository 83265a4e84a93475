import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { LogBackendsView } from '@/features/logs/settings/log-backends-view';

/** `/settings/logging_backends` (spec 2 section 2.8): read on logging_backends; Add with write. */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="logging_backends" action="read" showUnauthorized>
      <LogBackendsView canWrite={permissions.can('logging_backends', 'write')} />
    </Can>
  );
}
