import { EDITABLE_SOURCE, TEAMS_PAGE_TEXTS, type TeamRow } from '@lookout/contracts';
import { ArrowLeft, Lock } from 'lucide-react';
import { Tabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useTeam } from '../api/get-team';
import { TEAMS_PATH, teamTabOf, type TeamTab } from '../lib/team-paths';
import { TeamForm } from './team-form';
import { TeamIcon } from './team-icon';
import { TeamMembers } from './team-members';

export interface TeamEditorProps {
  /** The team to edit; undefined opens an empty form to create one. */
  teamId: string | undefined;
  /** Write on the teams' resource (spec 2 section 6: saving and deleting need it). */
  canWrite: boolean;
  /** The signed-in user, the author of a team created here. */
  currentUserId: string;
  /**
   * The Job History tab's content (spec 2 section 2.8), composed by the route page from the
   * job history feature; without it the tab is left out.
   */
  jobHistory?: (teamId: string) => ReactNode;
}

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

function BackToTeams() {
  return (
    <Link to={TEAMS_PATH} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
      <ArrowLeft aria-hidden className="size-4" />
      {TEAMS_PAGE_TEXTS.title}
    </Link>
  );
}

/**
 * `/settings/teams/{id}` and `/settings/teams/new` (spec 2 section 2.8, spec 3 section 2.6):
 * a team's sub-tabs Spec, Members and Job History; a new team has only its form. An id that
 * matches no live team shows 'No resources found'. A team another source owns opens
 * read-only (spec 3 section 5), as it does for roles without write.
 */
export function TeamEditor({ teamId, canWrite, currentUserId, jobHistory }: TeamEditorProps) {
  const team = useTeam(teamId);
  if (teamId === undefined) {
    return (
      <section className="mx-auto flex max-w-4xl flex-col gap-4">
        <PageHeader title={TEAMS_PAGE_TEXTS.titleNew} />
        <BackToTeams />
        <TeamForm editable={canWrite} currentUserId={currentUserId} />
      </section>
    );
  }
  if (team.isError) {
    return (
      <>
        <PageHeader title={TEAMS_PAGE_TEXTS.title} />
        <ErrorPanel error={team.error} onRetry={() => void team.refetch()} />
      </>
    );
  }
  if (team.isPending) {
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading
      </p>
    );
  }
  if (!team.data) {
    return (
      <section className="mx-auto flex max-w-4xl flex-col gap-4">
        <PageHeader title={TEAMS_PAGE_TEXTS.title} />
        <BackToTeams />
        <p role="status" className="text-sm text-slate-600">
          {TEAMS_PAGE_TEXTS.notFound}
        </p>
      </section>
    );
  }
  return (
    <ExistingTeam
      key={`${team.data.id}:${team.data.updated_at}`}
      team={team.data}
      canWrite={canWrite}
      currentUserId={currentUserId}
      jobHistory={jobHistory}
    />
  );
}

interface ExistingTeamProps {
  team: TeamRow;
  canWrite: boolean;
  currentUserId: string;
  jobHistory: TeamEditorProps['jobHistory'];
}

function ExistingTeam({ team, canWrite, currentUserId, jobHistory }: ExistingTeamProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const fromOtherSource = team.source !== EDITABLE_SOURCE;
  const editable = canWrite && !fromOtherSource;
  const requested = teamTabOf(searchParams.get('tab'));
  const tab: TeamTab = requested === 'job-history' && !jobHistory ? 'spec' : requested;
  const selectTab = (value: string) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (value === 'spec') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );

  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-4">
      <PageHeader title={team.name} />
      <div className="flex items-center justify-between gap-4">
        <BackToTeams />
        <span className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <TeamIcon icon={team.icon} />
          {team.name}
        </span>
      </div>
      {fromOtherSource && (
        <p
          role="status"
          className="flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <Lock aria-hidden className="size-4 shrink-0 text-amber-700" />
          {TEAMS_PAGE_TEXTS.readOnly(team.source)}
        </p>
      )}
      {!canWrite && team.spec !== null && <p className="text-sm text-slate-600">{TEAMS_PAGE_TEXTS.secretsMasked}</p>}
      <Tabs.Root value={tab} onValueChange={selectTab}>
        <Tabs.List aria-label="Team" className="flex border-b border-slate-200">
          <Tabs.Trigger value="spec" className={tabClass}>
            {TEAMS_PAGE_TEXTS.tabs.spec}
          </Tabs.Trigger>
          <Tabs.Trigger value="members" className={tabClass}>
            {TEAMS_PAGE_TEXTS.tabs.members}
          </Tabs.Trigger>
          {jobHistory && (
            <Tabs.Trigger value="job-history" className={tabClass}>
              {TEAMS_PAGE_TEXTS.tabs.jobHistory}
            </Tabs.Trigger>
          )}
        </Tabs.List>
        {/* Kept mounted (hidden) while another tab shows, so unsaved edits survive a look at the members. */}
        <Tabs.Content value="spec" forceMount className="pt-4 focus-visible:outline-none data-[state=inactive]:hidden">
          <TeamForm team={team} editable={editable} currentUserId={currentUserId} />
        </Tabs.Content>
        <Tabs.Content value="members" className="pt-4 focus-visible:outline-none">
          <TeamMembers teamId={team.id} teamName={team.name} editable={editable} />
        </Tabs.Content>
        {jobHistory && (
          <Tabs.Content value="job-history" className="pt-4 focus-visible:outline-none">
            {jobHistory(team.id)}
          </Tabs.Content>
        )}
      </Tabs.Root>
    </section>
  );
}
