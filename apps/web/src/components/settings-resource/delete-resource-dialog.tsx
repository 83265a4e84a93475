import { SETTINGS_RESOURCE_TOASTS } from '@lookout/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';

type DeleteMutation = {
  mutate: (id: string, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
  isPending: boolean;
};

/**
 * The confirmation before a settings resource is soft-deleted (spec 2 section 4): on success
 * the spec's '{name} deleted successfully' toast, then `onDeleted` (usually back to the list);
 * a failure toasts the server's message and keeps the form.
 */
export function DeleteResourceDialog({
  resource,
  title,
  open,
  onOpenChange,
  remove,
  onDeleted,
}: {
  resource: { id: string; name: string };
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  remove: DeleteMutation;
  onDeleted: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      isPending={remove.isPending}
      onConfirm={() =>
        remove.mutate(resource.id, {
          onSuccess: () => {
            toast.success(SETTINGS_RESOURCE_TOASTS.deleted(resource.name));
            onDeleted();
          },
          onError: toastError,
        })
      }
    />
  );
}
