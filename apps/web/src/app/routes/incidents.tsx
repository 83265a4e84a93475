import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useCurrentUser } from '@/features/identity/hooks/use-current-user';
import { IncidentsListView } from '@/features/incidents/components/incidents-list-view';
import { IncidentUserContext } from '@/features/incidents/lib/incident-user';

/** `/incidents` (spec 3 section 2.3): every role reads incidents; writers create them. */
export function Component() {
  const permissions = usePermissions();
  const user = useCurrentUser();
  return (
    <Can resource="incident" action="read" showUnauthorized>
      <IncidentUserContext value={user}>
        <IncidentsListView canWrite={permissions.can('incident', 'write')} />
      </IncidentUserContext>
    </Can>
  );
}
