import { zodResolver } from '@hookform/resolvers/zod';
import { FEATURE_FLAG_MESSAGES, FEATURES, featureDisableProperty, featureFlagFormSchema } from '@lookout/contracts';
import type { FeatureFlagForm, Property } from '@lookout/contracts';
import { Lock } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextAreaField, TextField } from '@/components/ui/form-field';
import { Modal, ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useCreateProperty } from '../api/create-property';
import { useDeleteProperty } from '../api/delete-property';
import { useUpdateProperty } from '../api/update-property';
import { PropertyNotWrittenError } from '../api/written-row';

/** The switches the console knows, offered while typing a name. */
const DISABLE_PROPERTY_NAMES = FEATURES.map(featureDisableProperty);

function toastWriteError(error: unknown): void {
  if (error instanceof PropertyNotWrittenError) toast.error(error.message);
  else toastError(error);
}

export interface FeatureFlagDialogProps {
  /** The flag to show or edit; absent to add one. */
  property?: Property;
  /** Write on feature_flags (spec 1, section 6). */
  canWrite: boolean;
  /** The signed-in user, recorded as `created_by` of a new flag. */
  currentUserId: string;
  onClose: () => void;
}

/**
 * Adds, edits or deletes a feature flag. Name and value are required ('please provide all
 * details'); a local flag (from the server's configuration) says 'Cannot edit local feature
 * flags' and has neither a save nor a delete button.
 */
export function FeatureFlagDialog({ property, canWrite, currentUserId, onClose }: FeatureFlagDialogProps) {
  const isLocal = property?.source === 'local';
  const editable = canWrite && !isLocal;
  const datalistId = useId();
  const form = useForm<FeatureFlagForm>({
    resolver: zodResolver(featureFlagFormSchema),
    defaultValues: {
      name: property?.name ?? '',
      value: property?.value ?? '',
      description: property?.description ?? '',
    },
  });
  const create = useCreateProperty();
  const update = useUpdateProperty();
  const remove = useDeleteProperty();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const busy = create.isPending || update.isPending || remove.isPending;

  const { errors } = form.formState;
  const missing = [errors.name, errors.value].some((error) => error?.message === FEATURE_FLAG_MESSAGES.required);
  // 'please provide all details' is said once for the form; other problems (length) per field.
  const fieldError = (message: string | undefined) =>
    message === FEATURE_FLAG_MESSAGES.required ? undefined : message;

  const onSubmit = form.handleSubmit((values) => {
    const description = values.description?.trim() ? values.description.trim() : null;
    if (property) {
      update.mutate(
        { name: property.name, changes: { value: values.value, description } },
        {
          onSuccess: () => {
            toast.success(FEATURE_FLAG_MESSAGES.updated);
            onClose();
          },
          onError: toastWriteError,
        },
      );
    } else {
      create.mutate(
        { name: values.name, value: values.value, description, created_by: currentUserId },
        {
          onSuccess: () => {
            toast.success(FEATURE_FLAG_MESSAGES.added);
            onClose();
          },
          onError: toastWriteError,
        },
      );
    }
  });

  const title = property ? (editable ? 'Edit Feature Flag' : 'Feature Flag') : 'Add Feature Flag';

  return (
    <>
      <Modal
        open
        onOpenChange={(open) => {
          if (!open && !busy) onClose();
        }}
        title={title}
      >
        <form noValidate onSubmit={(event) => void onSubmit(event)}>
          {isLocal && (
            <p
              role="status"
              className="mb-4 flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              <Lock aria-hidden className="size-4 shrink-0 text-amber-700" />
              {FEATURE_FLAG_MESSAGES.localReadOnly}
            </p>
          )}
          <div className="space-y-4">
            <TextField
              label="Name"
              autoComplete="off"
              list={editable && !property ? datalistId : undefined}
              // A flag keeps its name: rename by deleting it and adding another.
              disabled={!editable || property !== undefined || busy}
              aria-invalid={errors.name ? true : undefined}
              error={fieldError(errors.name?.message)}
              hint={
                editable && !property ? "For example incidents.disable; 'true' switches the feature off." : undefined
              }
              {...form.register('name')}
            />
            {editable && !property && (
              <datalist id={datalistId}>
                {DISABLE_PROPERTY_NAMES.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            )}
            <TextField
              label="Value"
              autoComplete="off"
              disabled={!editable || busy}
              aria-invalid={errors.value ? true : undefined}
              error={fieldError(errors.value?.message)}
              {...form.register('value')}
            />
            <TextAreaField
              label="Description"
              rows={3}
              disabled={!editable || busy}
              error={errors.description?.message}
              {...form.register('description')}
            />
            {missing && (
              <p role="alert" className="text-sm text-red-600">
                {FEATURE_FLAG_MESSAGES.required}
              </p>
            )}
          </div>
          <ModalFooter className={property && editable ? 'justify-between' : undefined}>
            {property && editable && (
              <Button
                variant="ghost"
                className="text-red-700 hover:bg-red-50 hover:text-red-800"
                onClick={() => setConfirmingDelete(true)}
                disabled={busy}
              >
                Delete
              </Button>
            )}
            <div className="flex gap-2">
              <Button variant="secondary" onClick={onClose} disabled={busy}>
                {editable ? 'Cancel' : 'Close'}
              </Button>
              {editable && (
                <Button type="submit" disabled={busy}>
                  {create.isPending || update.isPending ? 'Saving…' : 'Save'}
                </Button>
              )}
            </div>
          </ModalFooter>
        </form>
      </Modal>
      {property && editable && (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={(open) => {
            if (!remove.isPending) setConfirmingDelete(open);
          }}
          title={`Are you sure you want to delete the feature flag ${property.name} ?`}
          isPending={remove.isPending}
          onConfirm={() =>
            remove.mutate(property.name, {
              onSuccess: () => {
                toast.success(FEATURE_FLAG_MESSAGES.removed);
                setConfirmingDelete(false);
                onClose();
              },
              onError: toastWriteError,
            })
          }
        />
      )}
    </>
  );
}
