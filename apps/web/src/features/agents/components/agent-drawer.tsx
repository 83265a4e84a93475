import {
  AGENTS_TEXTS,
  EMPTY_AGENT_FORM,
  agentFormOf,
  type AgentFormValues,
  type AgentGenerateResponse,
} from '@lookout/contracts';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useCreateAgent, useUpdateAgent } from '../api/agent-writes';
import { useAgent } from '../api/get-agents';
import { AgentForm } from './agent-form';
import { DeleteAgentDialogs } from './delete-agent-dialogs';

const texts = AGENTS_TEXTS.drawer;

export interface AgentDrawerProps {
  /** The agent to edit; absent for the create drawer. */
  agentId?: string | undefined;
  /** Write on agents: the save area and Delete (spec 2 section 6). */
  canWrite: boolean;
  /** After a create: the page opens the installation instructions with the answer. */
  onCreated: (created: AgentGenerateResponse, form: AgentFormValues) => void;
  onClose: () => void;
}

/**
 * The agent drawer (spec 2 section 2.6): the create form ('Next' creates the agent, then the
 * installation instructions open) or one agent's edit form ('Save' updates its properties; the
 * name is read-only), with Delete. 'Saving ...' while a write runs.
 */
export function AgentDrawer({ agentId, canWrite, onCreated, onClose }: AgentDrawerProps) {
  const isEdit = agentId !== undefined;
  const formId = useId();
  const agent = useAgent(agentId);
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const [deleting, setDeleting] = useState(false);
  const saving = create.isPending || update.isPending;

  const submit = (values: AgentFormValues) => {
    if (!canWrite) return;
    if (agentId === undefined) {
      create.mutate(values, {
        onSuccess: (created) => {
          toast.success(AGENTS_TEXTS.toasts.created);
          onCreated(created, values);
        },
        onError: toastError,
      });
    } else {
      update.mutate(
        { id: agentId, form: values },
        {
          onSuccess: () => {
            toast.success(AGENTS_TEXTS.toasts.updated);
            onClose();
          },
          onError: toastError,
        },
      );
    }
  };

  const body = () => {
    if (!isEdit)
      return <AgentForm id={formId} initial={EMPTY_AGENT_FORM} isEdit={false} readOnly={!canWrite} onSubmit={submit} />;
    if (agent.isError) return <ErrorPanel error={agent.error} onRetry={() => void agent.refetch()} />;
    if (agent.isPending) {
      return (
        <p role="status" className="text-sm text-slate-600">
          Loading
        </p>
      );
    }
    if (!agent.data) return <p className="text-sm text-slate-600">{AGENTS_TEXTS.notFound}</p>;
    return <AgentForm id={formId} initial={agentFormOf(agent.data)} isEdit readOnly={!canWrite} onSubmit={submit} />;
  };

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/30" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-xl flex-col bg-white shadow-xl focus:outline-none"
        >
          <header className="flex items-center gap-3 border-b border-slate-200 px-5 py-4">
            <Dialog.Title className="min-w-0 flex-1 truncate text-lg font-semibold text-slate-900">
              {isEdit ? texts.editTitle : texts.createTitle}
            </Dialog.Title>
            <Dialog.Close
              aria-label="Close"
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              <X aria-hidden className="size-4" />
            </Dialog.Close>
          </header>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{body()}</div>
          {canWrite && (
            <footer className="flex items-center gap-2 border-t border-slate-200 px-5 py-3">
              {isEdit && agent.data && (
                <Button variant="danger" disabled={saving} onClick={() => setDeleting(true)}>
                  {texts.delete}
                </Button>
              )}
              <Button variant="secondary" className="ml-auto" disabled={saving} onClick={onClose}>
                {texts.cancel}
              </Button>
              <Button type="submit" form={formId} disabled={saving || (isEdit && !agent.data)}>
                {saving ? texts.saving : isEdit ? texts.save : texts.next}
              </Button>
            </footer>
          )}
          {deleting && agent.data && (
            <DeleteAgentDialogs
              agentId={agent.data.id}
              onCancel={() => setDeleting(false)}
              onDeleted={() => {
                setDeleting(false);
                onClose();
              }}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
