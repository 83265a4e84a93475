import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { TeamEditor } from '@/features/teams/components/team-editor';
import { NEW_TEAM_ID } from '@/features/teams/lib/team-paths';

/**
 * `/settings/teams/{id}` and `/settings/teams/new` (spec 2 section 2.8, spec 3 section 2.6):
 * a team's Spec, Members and Job History tabs. Saving, deleting and changing members need
 * write on the database resource, which guards teams and team_members.
 */
export function Component() {
  const { id } = useParams();
  const permissions = usePermissions();
  const teamId = id === undefined || id === NEW_TEAM_ID ? undefined : id;
  return (
    // Creating needs write; an existing team opens read-only for those who only read.
    <Can resource="database" action={teamId === undefined ? 'write' : 'read'} showUnauthorized>
      <TeamEditor
        key={teamId ?? NEW_TEAM_ID}
        teamId={teamId}
        canWrite={permissions.can('database', 'write')}
        currentUserId={permissions.userId}
      />
    </Can>
  );
}
