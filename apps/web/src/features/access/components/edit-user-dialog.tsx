import { zodResolver } from '@hookform/resolvers/zod';
import { highestFormRole, userFormSchema, userUpdatedMessage } from '@lookout/contracts';
import type { UserForm } from '@lookout/contracts';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useUpdateUser } from '../api/update-user';
import { userDisplayName } from '../lib/user-fns';
import type { UserListItem } from '../lib/user-fns';
import { UserFormFields } from './user-form-fields';

export interface EditUserDialogProps {
  user: UserListItem;
  /** Without write on identities the form shows the user but cannot be saved (spec 1, section 6). */
  readOnly: boolean;
  /** The signed-in user may not deactivate themselves (the server refuses it too). */
  isSelf: boolean;
  onClose: () => void;
}

/**
 * The edit modal: the user's names, email, the highest-ranked of their admin, editor and
 * viewer roles (`highestFormRole`) and whether they are active. Saving posts
 * `/api/people/update` and toasts '{name} updated successfully'.
 */
export function EditUserDialog({ user, readOnly, isSelf, onClose }: EditUserDialogProps) {
  const form = useForm<UserForm>({
    resolver: zodResolver(userFormSchema),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      role: highestFormRole(user.roles),
      active: user.state === 'active',
    },
  });
  const update = useUpdateUser();

  const onSubmit = form.handleSubmit((values) => {
    update.mutate(
      { id: user.id, ...values },
      {
        onSuccess: (response) => {
          toast.success(userUpdatedMessage(userDisplayName(response.name.first, response.name.last, response.email)));
          onClose();
        },
        onError: toastError,
      },
    );
  });

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={readOnly ? user.name : `Edit ${user.name}`}
      description={readOnly ? 'You may view this user but not change them.' : undefined}
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <UserFormFields
          form={form}
          disabled={readOnly || update.isPending}
          active={isSelf ? { disabledReason: 'You cannot deactivate yourself.' } : {}}
        />
        <ModalFooter>
          <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
            {readOnly ? 'Close' : 'Cancel'}
          </Button>
          {!readOnly && (
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save'}
            </Button>
          )}
        </ModalFooter>
      </form>
    </Modal>
  );
}
