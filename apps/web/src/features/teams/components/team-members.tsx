import { TEAM_MEMBERS_TEXTS, TEAM_TOASTS, type TeamPerson } from '@lookout/contracts';
import { UserMinus, UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { toast } from '@/components/ui/toast';
import { MISSING_VALUE } from '@/lib/format';
import { toastError } from '@/lib/api-client';
import { useTeamMembers } from '../api/get-team-members';
import { useRemoveTeamMember } from '../api/remove-team-member';
import { AddTeamMembersDialog } from './add-team-members-dialog';

export interface TeamMembersProps {
  teamId: string;
  teamName: string;
  /** Add and remove need write, on a team from the UI. */
  editable: boolean;
}

const NO_MEMBERS: readonly TeamPerson[] = [];
const col = createDataTableColumnHelper<TeamPerson>();

/**
 * The Members tab (spec 2 section 2.8): the team's users with 'Remove user' on each, and 'Add
 * Members', which opens 'Add users to the team'. Removing asks first, then says '{name}
 * removed from team successfully'.
 */
export function TeamMembers({ teamId, teamName, editable }: TeamMembersProps) {
  const members = useTeamMembers(teamId);
  const remove = useRemoveTeamMember();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<TeamPerson>();
  const memberIds = useMemo(() => new Set((members.data ?? []).map((person) => person.id)), [members.data]);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: TEAM_MEMBERS_TEXTS.columns.name,
          cell: (info) => (
            <span className="flex items-center gap-2 font-medium text-slate-900">
              <Avatar name={info.getValue()} src={info.row.original.avatar} />
              {info.getValue()}
            </span>
          ),
        }),
        col.accessor((person) => person.email ?? '', {
          id: 'email',
          header: TEAM_MEMBERS_TEXTS.columns.email,
          cell: (info) => info.getValue() || MISSING_VALUE,
        }),
        ...(editable
          ? [
              col.display({
                id: 'actions',
                header: '',
                cell: (info) => (
                  <Button
                    variant="ghost"
                    aria-label={`${TEAM_MEMBERS_TEXTS.removeUser} ${info.row.original.name}`}
                    onClick={() => setRemoving(info.row.original)}
                  >
                    <UserMinus aria-hidden className="size-4" />
                    {TEAM_MEMBERS_TEXTS.removeUser}
                  </Button>
                ),
                meta: { cellClassName: 'w-40 text-right', headerClassName: 'w-40' },
              }),
            ]
          : []),
      ]),
    [editable],
  );

  if (members.isError && !members.data) {
    return <ErrorPanel error={members.error} onRetry={() => void members.refetch()} />;
  }

  return (
    <div className="flex flex-col gap-3">
      {editable && (
        <div className="flex justify-end">
          <Button onClick={() => setAdding(true)}>
            <UserPlus aria-hidden className="size-4" />
            {TEAM_MEMBERS_TEXTS.addMembers}
          </Button>
        </div>
      )}
      <DataTable
        columns={columns}
        data={members.data ?? NO_MEMBERS}
        getRowId={(person) => person.id}
        isLoading={members.isPending}
        emptyMessage={TEAM_MEMBERS_TEXTS.empty}
        aria-label={`Members of ${teamName}`}
        className="rounded-lg border border-slate-200 bg-white"
      />
      {adding && <AddTeamMembersDialog teamId={teamId} memberIds={memberIds} onClose={() => setAdding(false)} />}
      {removing && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open && !remove.isPending) setRemoving(undefined);
          }}
          title={TEAM_MEMBERS_TEXTS.removeConfirm(removing.name, teamName)}
          confirmLabel={TEAM_MEMBERS_TEXTS.remove}
          isPending={remove.isPending}
          onConfirm={() =>
            remove.mutate(
              { teamId, personId: removing.id },
              {
                onSuccess: () => {
                  toast.success(TEAM_TOASTS.memberRemoved(removing.name));
                  setRemoving(undefined);
                },
                onError: toastError,
              },
            )
          }
        />
      )}
    </div>
  );
}
