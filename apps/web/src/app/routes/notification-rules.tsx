import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { RulesView } from '@/features/notifications/components/rules-view';

/**
 * `/notifications/rules` (spec 3 section 2.10): every role reads the rules (read on notifications); add, edit and
 * delete need write on notifications (spec 3 section 6).
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="notifications" action="read" showUnauthorized>
      <RulesView canWrite={permissions.can('notifications', 'write')} currentUserId={permissions.userId} />
    </Can>
  );
}
