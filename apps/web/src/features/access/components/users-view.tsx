import { USERS_PAGE_TEXTS } from '@lookout/contracts';
import { UserPlus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { usePermissions } from '../hooks/use-permissions';
import { useUsers } from '../hooks/use-users';
import type { UserListItem } from '../lib/user-fns';
import { Can } from './can';
import { DeleteUserDialog } from './delete-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { InviteUserDialog } from './invite-user-dialog';
import { UsersTable } from './users-table';

/**
 * The Users page (spec 1, section 2.5): read on identities to see it (else the Unauthorized
 * view); write on identities for Invite User, the Actions menu and saving the form.
 */
export function UsersView() {
  const permissions = usePermissions();
  const canRead = permissions.can('identities', 'read');
  const canWrite = permissions.can('identities', 'write');
  const users = useUsers({ enabled: canRead });
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<UserListItem>();
  const [deleting, setDeleting] = useState<UserListItem>();
  // Stable, so the table's columns are not rebuilt on every render.
  const onEdit = useCallback((user: UserListItem) => setEditing(user), []);
  const onDelete = useCallback((user: UserListItem) => setDeleting(user), []);

  return (
    <>
      <PageHeader
        title={USERS_PAGE_TEXTS.title}
        actions={
          canWrite ? (
            <Button onClick={() => setInviting(true)}>
              <UserPlus aria-hidden className="size-4" />
              {USERS_PAGE_TEXTS.invite}
            </Button>
          ) : undefined
        }
        onRefresh={canRead ? () => void users.refetch() : undefined}
        isLoading={users.isFetching}
      />
      <Can resource="identities" action="read" showUnauthorized>
        {users.error && !users.users ? (
          <ErrorPanel error={users.error} onRetry={() => void users.refetch()} />
        ) : (
          <UsersTable
            users={users.users}
            isLoading={users.isPending}
            canWrite={canWrite}
            currentUserId={permissions.userId}
            onEdit={onEdit}
            onDelete={onDelete}
          />
        )}
      </Can>
      {canWrite && <InviteUserDialog open={inviting} onOpenChange={setInviting} />}
      {editing && (
        <EditUserDialog
          key={editing.id}
          user={editing}
          readOnly={!canWrite}
          isSelf={editing.id === permissions.userId}
          onClose={() => setEditing(undefined)}
        />
      )}
      {deleting && canWrite && (
        <DeleteUserDialog key={deleting.id} user={deleting} onClose={() => setDeleting(undefined)} />
      )}
    </>
  );
}
