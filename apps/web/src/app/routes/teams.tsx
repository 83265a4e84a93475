import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { TeamsView } from '@/features/teams/components/teams-view';

/**
 * `/settings/teams` (spec 3 section 2.6): the teams list. Teams are guarded by the database
 * resource (`DATA_API_RELATIONS`): every role reads them, admin and editor add them.
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="database" action="read" showUnauthorized>
      <TeamsView canWrite={permissions.can('database', 'write')} />
    </Can>
  );
}
