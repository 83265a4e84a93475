import { SETTINGS_RESOURCES, SETTINGS_RESOURCE_TEXTS, SETTINGS_RESOURCE_TOASTS } from '@lookout/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { settingsResourceHooks } from '@/components/settings-resource/settings-resource-hooks';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { CANARY_SETTINGS_PATH } from '../../lib/health-paths';

/**
 * Delete on a health check (spec 2 section 6: write on canaries): asks first, then soft-deletes
 * the canary (`PATCH /api/db/canaries?id=eq.{id}` with `deleted_at: now()`; the database stops
 * and soft-deletes its checks) and returns to the list with '{name} deleted successfully'.
 */
export function DeleteCanaryButton({ id, name }: { id: string; name: string }) {
  const [confirming, setConfirming] = useState(false);
  const remove = settingsResourceHooks(SETTINGS_RESOURCES.canaries).useDelete();
  const navigate = useNavigate();
  return (
    <>
      <Button variant="danger" onClick={() => setConfirming(true)}>
        {SETTINGS_RESOURCE_TEXTS.delete}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={SETTINGS_RESOURCE_TEXTS.deleteConfirm(name)}
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(id, {
            onSuccess: () => {
              toast.success(SETTINGS_RESOURCE_TOASTS.deleted(name));
              void navigate(CANARY_SETTINGS_PATH);
            },
            onError: toastError,
          })
        }
      />
    </>
  );
}
