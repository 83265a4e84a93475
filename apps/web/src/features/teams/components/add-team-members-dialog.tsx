import { TEAM_MEMBERS_TEXTS, TEAM_TOASTS, type TeamPerson } from '@lookout/contracts';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Avatar } from '@/components/ui/avatar';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { SearchBox } from '@/components/ui/search-box';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useAddTeamMembers } from '../api/add-team-members';
import { usePeople } from '../api/get-people';

export interface AddTeamMembersDialogProps {
  teamId: string;
  /** Who is a member already: left out of the choices. */
  memberIds: ReadonlySet<string>;
  onClose: () => void;
}

const matches = (person: TeamPerson, search: string) => {
  const needle = search.trim().toLowerCase();
  return (
    needle === '' || person.name.toLowerCase().includes(needle) || (person.email ?? '').toLowerCase().includes(needle)
  );
};

/**
 * 'Add users to the team' (spec 2 section 2.8): a multi-select of the users who are not
 * members yet, and Add. On success it says '{names} added to the team successfully' and
 * closes; on failure it toasts the server's message and stays open with the choice kept.
 */
export function AddTeamMembersDialog({ teamId, memberIds, onClose }: AddTeamMembersDialogProps) {
  const people = usePeople(true);
  const add = useAddTeamMembers();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState('');
  const candidates = useMemo(
    () => (people.data ?? []).filter((person) => !memberIds.has(person.id)),
    [people.data, memberIds],
  );
  const shown = candidates.filter((person) => matches(person, search));

  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = () => {
    const picked = candidates.filter((person) => chosen.has(person.id));
    add.mutate(
      { teamId, personIds: picked.map((person) => person.id) },
      {
        onSuccess: () => {
          toast.success(TEAM_TOASTS.membersAdded(picked.map((person) => person.name)));
          onClose();
        },
        onError: toastError,
      },
    );
  };

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open && !add.isPending) onClose();
      }}
      title={TEAM_MEMBERS_TEXTS.modalTitle}
    >
      {people.isError ? (
        <ErrorPanel error={people.error} onRetry={() => void people.refetch()} />
      ) : people.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          Loading
        </p>
      ) : candidates.length === 0 ? (
        <p className="text-sm text-slate-600">{TEAM_MEMBERS_TEXTS.noCandidates}</p>
      ) : (
        <fieldset className="flex flex-col gap-2" disabled={add.isPending}>
          <legend className="sr-only">{TEAM_MEMBERS_TEXTS.usersLabel}</legend>
          {candidates.length > 6 && <SearchBox value={search} onChange={setSearch} placeholder="Search users" />}
          <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
            {shown.map((person) => (
              <li key={person.id}>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 hover:bg-slate-50">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-slate-300"
                    checked={chosen.has(person.id)}
                    onChange={() => toggle(person.id)}
                  />
                  <Avatar name={person.name} src={person.avatar} />
                  <span className="min-w-0">
                    <span className="block truncate text-sm font-medium text-slate-900">{person.name}</span>
                    {person.email && <span className="block truncate text-xs text-slate-500">{person.email}</span>}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          {chosen.size > 0 && <p className="text-xs text-slate-500">{`${chosen.size} selected`}</p>}
        </fieldset>
      )}
      <ModalFooter>
        <Button variant="secondary" onClick={onClose} disabled={add.isPending}>
          {TEAM_MEMBERS_TEXTS.cancel}
        </Button>
        <Button onClick={submit} disabled={chosen.size === 0 || add.isPending}>
          {add.isPending ? TEAM_MEMBERS_TEXTS.adding : TEAM_MEMBERS_TEXTS.add}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
