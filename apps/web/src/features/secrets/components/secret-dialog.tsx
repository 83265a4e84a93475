import { SECRET_STORE_KINDS, SECRET_STORE_MESSAGES, SECRET_TOASTS, SECRETS_PAGE_TEXTS } from '@lookout/contracts';
import type { SecretStoreEntry, SecretStoreEntryParams } from '@lookout/contracts';
import { Lock } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useCreateSecret } from '../api/create-secret';
import { useDeleteSecret } from '../api/delete-secret';
import { useUpdateSecret } from '../api/update-secret';
import {
  createBodyOf,
  formOf,
  hasErrors,
  updateBodyOf,
  validateForm,
  type SecretFormState,
} from '../lib/secret-form-fns';
import { SecretKeyRows } from './secret-key-rows';

export interface SecretDialogProps {
  /** The entry to edit; absent to add one. */
  entry?: SecretStoreEntry;
  onClose: () => void;
}

const texts = SECRETS_PAGE_TEXTS;
const KIND_OPTIONS = SECRET_STORE_KINDS.map((kind) => ({ value: kind, label: texts.kinds[kind] }));

/**
 * Adds or edits a secret or config map, and deletes it after a confirmation. Kind, namespace
 * and name are fixed once created (they are how references find the entry).
 */
export function SecretDialog({ entry, onClose }: SecretDialogProps) {
  const editing = entry !== undefined;
  const readOnly = entry !== undefined && entry.source !== 'UI';
  const [state, setState] = useState<SecretFormState>(() => formOf(entry));
  const [submitted, setSubmitted] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const create = useCreateSecret();
  const update = useUpdateSecret();
  const remove = useDeleteSecret();
  const busy = create.isPending || update.isPending || remove.isPending;
  const errors = validateForm(state, editing);
  const shown = submitted ? errors : undefined;
  const params: SecretStoreEntryParams | undefined = entry && {
    kind: entry.kind,
    namespace: entry.namespace,
    name: entry.name,
  };

  const onSubmit = () => {
    setSubmitted(true);
    if (hasErrors(errors) || readOnly) return;
    if (params) {
      update.mutate(
        { entry: params, body: updateBodyOf(state) },
        {
          onSuccess: () => {
            toast.success(SECRET_TOASTS.updated(params.name));
            onClose();
          },
          onError: toastError,
        },
      );
    } else {
      const body = createBodyOf(state);
      create.mutate(body, {
        onSuccess: () => {
          toast.success(SECRET_TOASTS.created(body.name));
          onClose();
        },
        onError: toastError,
      });
    }
  };

  return (
    <>
      <Modal
        open
        onOpenChange={(open) => {
          if (!open && !busy) onClose();
        }}
        title={entry ? texts.titleEdit(entry.name) : texts.titleNew}
        className="max-w-2xl"
      >
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          {readOnly && (
            <p
              role="status"
              className="mb-4 flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              <Lock aria-hidden className="size-4 shrink-0 text-amber-700" />
              {SECRET_STORE_MESSAGES.readOnly(entry.source)}
            </p>
          )}
          <div className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-3">
              <SelectField
                label={texts.fields.kind}
                options={KIND_OPTIONS}
                value={state.kind}
                disabled={editing || busy}
                onChange={(event) =>
                  setState({ ...state, kind: event.target.value === 'configmap' ? 'configmap' : 'secret' })
                }
              />
              <TextField
                label={texts.fields.namespace}
                autoComplete="off"
                spellCheck={false}
                value={state.namespace}
                disabled={editing || busy}
                error={shown?.namespace}
                onChange={(event) => setState({ ...state, namespace: event.target.value })}
              />
              <TextField
                label={texts.fields.name}
                autoComplete="off"
                spellCheck={false}
                value={state.name}
                disabled={editing || busy}
                error={shown?.name}
                onChange={(event) => setState({ ...state, name: event.target.value })}
              />
            </div>
            <SecretKeyRows
              state={state}
              errors={shown?.rows}
              editing={editing}
              disabled={busy || readOnly}
              onChange={(rows) => setState({ ...state, rows })}
            />
            {shown?.form && (
              <p role="alert" className="text-sm text-red-600">
                {shown.form}
              </p>
            )}
          </div>
          <ModalFooter>
            {editing && !readOnly && (
              <Button
                variant="ghost"
                // Left of the footer, in red: the ghost look's own text colour is overridden.
                className="mr-auto text-red-700! hover:bg-red-50 hover:text-red-800!"
                onClick={() => setConfirmingDelete(true)}
                disabled={busy}
              >
                {texts.delete}
              </Button>
            )}
            <div className="flex gap-2">
              <Button variant="secondary" onClick={onClose} disabled={busy}>
                {texts.cancel}
              </Button>
              {!readOnly && (
                <Button type="submit" disabled={busy}>
                  {editing
                    ? update.isPending
                      ? texts.updating
                      : texts.update
                    : create.isPending
                      ? texts.saving
                      : texts.save}
                </Button>
              )}
            </div>
          </ModalFooter>
        </form>
      </Modal>
      {params && (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={(open) => {
            if (!remove.isPending) setConfirmingDelete(open);
          }}
          title={texts.deleteConfirm(params.kind, params.name)}
          isPending={remove.isPending}
          onConfirm={() =>
            remove.mutate(params, {
              onSuccess: () => {
                toast.success(SECRET_TOASTS.deleted(params.name));
                setConfirmingDelete(false);
                onClose();
              },
              onError: toastError,
            })
          }
        />
      )}
    </>
  );
}
