import { TEAMS_PAGE_TEXTS } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useTeams } from '../api/get-teams';
import { NEW_TEAM_ID, teamPath } from '../lib/team-paths';
import { TeamsTable } from './teams-table';

export interface TeamsViewProps {
  /** Write on the teams' resource: the add button (spec 3 section 2.6). */
  canWrite: boolean;
}

/** `/settings/teams`: the live teams, newest first; a row opens `/settings/teams/{id}`. */
export function TeamsView({ canWrite }: TeamsViewProps) {
  const teams = useTeams();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title={TEAMS_PAGE_TEXTS.title}
        actions={
          canWrite ? (
            <Link to={teamPath(NEW_TEAM_ID)} className={buttonClasses('primary')}>
              <Plus aria-hidden className="size-4" />
              {TEAMS_PAGE_TEXTS.add}
            </Link>
          ) : undefined
        }
        onRefresh={() => void teams.refetch()}
        isLoading={teams.isFetching}
      />
      {teams.isError && !teams.data ? (
        <ErrorPanel error={teams.error} onRetry={() => void teams.refetch()} />
      ) : (
        <TeamsTable
          teams={teams.data}
          isLoading={teams.isPending}
          onOpen={(team) => void navigate(teamPath(team.id))}
        />
      )}
    </>
  );
}
