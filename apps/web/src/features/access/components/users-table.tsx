import { USERS_PAGE_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { EllipsisVertical, Pencil, Trash2 } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useMemo } from 'react';
import { layoutClasses } from '@/components/layout/layout-classes';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';
import type { UserListItem } from '../lib/user-fns';
import { RoleBadges } from './role-badges';

export interface UsersTableProps {
  users: readonly UserListItem[] | undefined;
  isLoading: boolean;
  /** Write on identities: the Actions column (spec 1, section 2.5). */
  canWrite: boolean;
  /** The signed-in user, who cannot delete themselves. */
  currentUserId: string;
  onEdit: (user: UserListItem) => void;
  onDelete: (user: UserListItem) => void;
}

const NO_USERS: readonly UserListItem[] = [];
const col = createDataTableColumnHelper<UserListItem>();

function StateBadge({ state }: { state: string }) {
  return (
    <span
      className={clsx(
        'rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        state === 'active' ? 'bg-green-50 text-green-700 ring-green-200' : 'bg-slate-100 text-slate-600 ring-slate-200',
      )}
    >
      {state}
    </span>
  );
}

function UserActions({
  user,
  canDelete,
  onEdit,
  onDelete,
}: {
  user: UserListItem;
  canDelete: boolean;
  onEdit: (user: UserListItem) => void;
  onDelete: (user: UserListItem) => void;
}) {
  return (
    // React events bubble through portals, so clicks in the menu would also reach the row and
    // open the edit modal a second time; they stop here.
    <div onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger aria-label={`Actions for ${user.name}`} className={layoutClasses.iconButton}>
          <EllipsisVertical aria-hidden className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className={clsx(layoutClasses.menuContent, 'min-w-36')}>
            <DropdownMenu.Item className={layoutClasses.menuItem} onSelect={() => onEdit(user)}>
              <Pencil aria-hidden className="size-4 text-slate-500" />
              Edit
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className={clsx(
                layoutClasses.menuItem,
                'text-red-700 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
              )}
              disabled={!canDelete}
              onSelect={() => onDelete(user)}
            >
              <Trash2 aria-hidden className="size-4" />
              Delete
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}

/**
 * The Users table (spec 1, section 2.5): Name, Email, Roles, State, Created At, plus Actions
 * (an edit/delete menu) with write on identities. A row click opens the user.
 */
export function UsersTable({ users, isLoading, canWrite, currentUserId, onEdit, onDelete }: UsersTableProps) {
  const { columns: texts } = USERS_PAGE_TEXTS;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          cell: (info) => <span className="font-medium text-slate-900">{info.getValue()}</span>,
        }),
        col.accessor('email', { header: texts.email }),
        col.accessor((user) => user.roles.join(', '), {
          id: 'roles',
          header: texts.roles,
          cell: (info) => <RoleBadges roles={info.row.original.roles} />,
        }),
        col.accessor('state', { header: texts.state, cell: (info) => <StateBadge state={info.getValue()} /> }),
        col.accessor('createdAt', {
          header: texts.createdAt,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
        ...(canWrite
          ? [
              col.display({
                id: 'actions',
                header: texts.actions,
                cell: (info) => (
                  <UserActions
                    user={info.row.original}
                    canDelete={info.row.original.id !== currentUserId}
                    onEdit={onEdit}
                    onDelete={onDelete}
                  />
                ),
                meta: { cellClassName: 'w-20 text-right', headerClassName: 'w-20 text-right' },
              }),
            ]
          : []),
      ]),
    [texts, canWrite, currentUserId, onEdit, onDelete],
  );

  return (
    <DataTable
      columns={columns}
      data={users ?? NO_USERS}
      getRowId={(user) => user.id}
      isLoading={isLoading}
      onRowClick={onEdit}
      defaultSorting={[{ id: 'name', desc: false }]}
      aria-label={USERS_PAGE_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
