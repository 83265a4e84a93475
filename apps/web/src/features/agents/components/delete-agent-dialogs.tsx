import { AGENTS_TEXTS } from '@lookout/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useDeleteAgent } from '../api/agent-writes';

const texts = AGENTS_TEXTS.delete;

export interface DeleteAgentDialogsProps {
  agentId: string;
  onCancel: () => void;
  onDeleted: () => void;
}

/**
 * Deleting an agent (spec 2 section 2.6): first whether to also delete what the agent
 * created (Yes or No), then the confirmation; the delete is `PATCH {deleted_at, cleanup}`.
 */
export function DeleteAgentDialogs({ agentId, onCancel, onDeleted }: DeleteAgentDialogsProps) {
  // undefined: the cleanup question is open; a boolean: the answer, and the confirmation is open.
  const [cleanup, setCleanup] = useState<boolean>();
  const remove = useDeleteAgent();

  if (cleanup === undefined) {
    return (
      <Modal
        open
        onOpenChange={(open) => !open && onCancel()}
        title={texts.cleanupTitle}
        description={texts.cleanupDescription}
      >
        <ModalFooter>
          <Button variant="secondary" onClick={() => setCleanup(false)}>
            {texts.no}
          </Button>
          <Button variant="danger" onClick={() => setCleanup(true)}>
            {texts.yes}
          </Button>
        </ModalFooter>
      </Modal>
    );
  }
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title={texts.confirmTitle}
      description={cleanup ? texts.confirmWithCleanup : texts.confirmWithoutCleanup}
      confirmLabel={texts.confirm}
      isPending={remove.isPending}
      // mutateAsync, not mutate's callbacks: the delete refetches the drawer's agent, which is
      // gone, and that can unmount these dialogs before mutate would call back.
      onConfirm={() =>
        void remove.mutateAsync({ id: agentId, cleanup }).then(() => {
          toast.success(AGENTS_TEXTS.toasts.deleted);
          onDeleted();
        }, toastError)
      }
    />
  );
}
