import { USER_FORM_MESSAGES } from '@lookout/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useDeleteUser } from '../api/delete-user';
import type { UserListItem } from '../lib/user-fns';

export interface DeleteUserDialogProps {
  user: UserListItem;
  onClose: () => void;
}

/** Asks 'Are you sure you want to delete this user ?', then deletes and toasts 'user deleted successfully'. */
export function DeleteUserDialog({ user, onClose }: DeleteUserDialogProps) {
  const remove = useDeleteUser();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => {
        if (!open && !remove.isPending) onClose();
      }}
      title={USER_FORM_MESSAGES.deleteConfirm}
      description={`${user.name} (${user.email}) loses access at once; their sessions end and their roles are removed.`}
      isPending={remove.isPending}
      onConfirm={() =>
        remove.mutate(user.id, {
          onSuccess: () => {
            toast.success(USER_FORM_MESSAGES.deleted);
            onClose();
          },
          onError: toastError,
        })
      }
    />
  );
}
