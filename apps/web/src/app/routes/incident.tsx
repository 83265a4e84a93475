import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { useCurrentUser } from '@/features/identity/hooks/use-current-user';
import { IncidentDetailView } from '@/features/incidents/components/incident-detail-view';
import { IncidentUserContext } from '@/features/incidents/lib/incident-user';

/** `/incidents/{id}` (spec 3 section 2.3): the incident, its action plan and its side panel. */
export function Component() {
  const { id = '' } = useParams();
  const permissions = usePermissions();
  const user = useCurrentUser();
  return (
    <Can resource="incident" action="read" showUnauthorized>
      <IncidentUserContext value={user}>
        <IncidentDetailView key={id} id={id} canWrite={permissions.can('incident', 'write')} />
      </IncidentUserContext>
    </Can>
  );
}
