import { useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { JobHistoryTable } from '@/features/job-history/components/job-history-table';
import { TeamEditor } from '@/features/teams/components/team-editor';
import { NEW_TEAM_ID } from '@/features/teams/lib/team-paths';

/** The runs recorded against a team (job_history resource_type 'team'). */
const teamJobHistory = (teamId: string) => <JobHistoryTable resourceType="team" resourceId={teamId} />;

/**
 * `/settings/teams/{id}` and `/settings/teams/new` (spec 2 section 2.8, spec 3 section 2.6):
 * a team's Spec, Members and Job History tabs, the last from the job history feature. Saving,
 * deleting and changing members need write on the database resource, which guards teams and
 * team_members; job history is read under the same resource.
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
        jobHistory={teamJobHistory}
      />
    </Can>
  );
}
