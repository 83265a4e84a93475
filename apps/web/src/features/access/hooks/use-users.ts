import { useCallback, useMemo } from 'react';
import { useIdentities } from '../api/get-identities';
import { usePeopleRoles } from '../api/get-people-roles';
import { toUserListItems } from '../lib/user-fns';
import type { UserListItem } from '../lib/user-fns';

export interface UsersQuery {
  users: UserListItem[] | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch: () => Promise<void>;
}

/**
 * The Users page's list: `GET /api/db/identities`, then `GET /api/db/people_roles` for those
 * ids, joined. Rows show as soon as the identities are in; roles fill in when they arrive.
 */
export function useUsers({ enabled }: { enabled: boolean }): UsersQuery {
  const identities = useIdentities({ enabled });
  const ids = useMemo(() => identities.data?.map((identity) => identity.id) ?? [], [identities.data]);
  const roles = usePeopleRoles(ids);
  const users = useMemo(
    () => (identities.data ? toUserListItems(identities.data, roles.data ?? []) : undefined),
    [identities.data, roles.data],
  );
  const { refetch: refetchIdentities } = identities;
  const { refetch: refetchRoles } = roles;
  const hasIds = ids.length > 0;
  const refetch = useCallback(async () => {
    // Roles are refetched too: a role can change without the identity list changing.
    await Promise.all([refetchIdentities(), hasIds ? refetchRoles() : undefined]);
  }, [refetchIdentities, refetchRoles, hasIds]);
  return {
    users,
    isPending: enabled && identities.isPending,
    isFetching: identities.isFetching || roles.isFetching,
    error: identities.error ?? roles.error,
    refetch,
  };
}
