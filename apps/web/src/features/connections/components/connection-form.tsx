import {
  CONNECTIONS_PAGE_TEXTS,
  CONNECTION_MESSAGES,
  buildServiceUrl,
  connectionFormDefaults,
  connectionFormFields,
  connectionFormToWrite,
  connectionRowToForm,
  isEditableConnection,
  isNotificationConnectionType,
  validateConnectionForm,
} from '@lookout/contracts';
import type {
  ConnectionField,
  ConnectionFormState,
  ConnectionFormValues,
  ConnectionRow,
  ConnectionType,
} from '@lookout/contracts';
import { Lock, PlugZap } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ModalFooter } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useCreateConnection } from '../api/create-connection';
import { useDeleteConnection } from '../api/delete-connection';
import { useUpdateConnection } from '../api/update-connection';
import { useConnectionTest } from '../hooks/use-connection-test';
import { ConnectionFieldInput } from './connection-field-input';
import { TestOutcomePanel } from './test-outcome-panel';

export interface ConnectionFormProps {
  type: ConnectionType;
  /** The connection to show or edit; absent to add one. */
  row?: ConnectionRow;
  /** Write on connections (spec 1 section 6): save, delete and test. */
  canWrite: boolean;
  /** The signed-in user, recorded as `created_by` of a new connection. */
  currentUserId: string;
  /** Adding: back to the type picker. */
  onBack?: () => void;
  onClose: () => void;
  /** Tells the dialog a write is under way, so it does not close meanwhile. */
  onBusyChange?: (busy: boolean) => void;
}

/** Fields that take the form's whole width: long values, and the checkbox under the rest. */
const wide = (field: ConnectionField) =>
  field.kind === 'certificate' || field.kind === 'checkbox' || field.key === 'url';

/** react-hook-form's resolver over the contracts' checks (spec 3 section 5). */
function connectionResolver(type: ConnectionType, state: ConnectionFormState): Resolver<ConnectionFormValues> {
  return (values) => {
    const messages = validateConnectionForm(type, values, state.storedSecrets);
    const keys = Object.keys(messages);
    if (keys.length === 0) return { values, errors: {} };
    const errors: FieldErrors<ConnectionFormValues> = {};
    for (const key of keys) errors[key] = { type: 'validate', message: messages[key] };
    return { values: {}, errors };
  };
}

/**
 * A connection type's form (spec 3 sections 2.7, 4 and 5): its fields with their defaults,
 * 'This field is required' under empty required fields once touched or on save, the service
 * URL a notification type saves, and for a saved connection 'Test connection' and Delete. A
 * row from another source, or a reader without write, sees it read-only.
 */
export function ConnectionForm({
  type,
  row,
  canWrite,
  currentUserId,
  onBack,
  onClose,
  onBusyChange,
}: ConnectionFormProps) {
  const fromUi = row ? isEditableConnection(row) : true;
  const editable = canWrite && fromUi;
  const state = useMemo<ConnectionFormState>(
    () =>
      row
        ? connectionRowToForm({ ...row, type }, { fillDefaults: fromUi })
        : { values: connectionFormDefaults(type), storedSecrets: [] },
    [row, type, fromUi],
  );
  const form = useForm<ConnectionFormValues>({
    defaultValues: state.values,
    resolver: connectionResolver(type, state),
    mode: 'onTouched',
  });
  const values = useWatch({ control: form.control });
  const create = useCreateConnection();
  const update = useUpdateConnection();
  const remove = useDeleteConnection();
  const test = useConnectionTest(row?.id);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const busy = create.isPending || update.isPending || remove.isPending;

  // A row from another source shows the URL it was written with; a form, the one it will save.
  const serviceUrl =
    !isNotificationConnectionType(type) || buildServiceUrl(type, {}) === undefined
      ? undefined
      : row && !fromUi
        ? (row.url ?? undefined)
        : buildServiceUrl(type, { ...state.values, ...values } as ConnectionFormValues);

  const finish = (message: string) => {
    toast.success(message);
    onBusyChange?.(false);
    onClose();
  };
  const fail = (error: unknown) => {
    onBusyChange?.(false);
    toastError(error);
  };

  const onSubmit = form.handleSubmit((submitted) => {
    onBusyChange?.(true);
    if (row) {
      const body = connectionFormToWrite(type, submitted, {
        loaded: { ...row, type },
        storedSecrets: state.storedSecrets,
      });
      update.mutate({ id: row.id, body }, { onSuccess: () => finish(CONNECTION_MESSAGES.updated), onError: fail });
    } else {
      const body = connectionFormToWrite(type, submitted);
      create.mutate(
        { ...body, created_by: currentUserId },
        { onSuccess: () => finish(CONNECTION_MESSAGES.added), onError: fail },
      );
    }
  });

  const { errors } = form.formState;
  return (
    <>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={CONNECTIONS_PAGE_TEXTS.title}>
        {row && !fromUi && (
          <p
            role="status"
            className="mb-4 flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          >
            <Lock aria-hidden className="size-4 shrink-0 text-amber-700" />
            {CONNECTION_MESSAGES.readOnly} ({row.source})
          </p>
        )}
        <fieldset disabled={!editable || busy} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {connectionFormFields(type).map((field) => (
            <div key={field.key} className={wide(field) ? 'sm:col-span-2' : undefined}>
              <ConnectionFieldInput
                field={field}
                register={form.register}
                error={errors[field.key]?.message}
                disabled={!editable || busy}
                stored={state.storedSecrets.some((column) => column === field.key)}
              />
            </div>
          ))}
        </fieldset>
        {serviceUrl !== undefined && (
          <div className="mt-4">
            <p className="text-xs font-medium text-slate-500">{CONNECTIONS_PAGE_TEXTS.serviceUrl}</p>
            <code className="mt-1 block rounded-md bg-slate-50 px-3 py-2 font-mono text-xs break-all text-slate-700 ring-1 ring-slate-200">
              {serviceUrl}
            </code>
          </div>
        )}
        {test.outcome && <TestOutcomePanel outcome={test.outcome} />}
        <ModalFooter>
          {/* Back and Delete on the left, away from Save. */}
          <div className="mr-auto flex gap-2">
            {!row && onBack && (
              <Button variant="ghost" onClick={onBack} disabled={busy}>
                Back
              </Button>
            )}
            {row && editable && (
              <Button
                variant="ghost"
                className="text-red-700 hover:bg-red-50 hover:text-red-800"
                onClick={() => setConfirmingDelete(true)}
                disabled={busy}
              >
                Delete
              </Button>
            )}
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            {row && canWrite && (
              <Button variant="secondary" onClick={test.run} disabled={busy || test.isPending}>
                <PlugZap aria-hidden className="size-4" />
                {test.isPending ? CONNECTIONS_PAGE_TEXTS.testing : CONNECTIONS_PAGE_TEXTS.test}
              </Button>
            )}
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
      {row && editable && (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={(open) => {
            if (!remove.isPending) setConfirmingDelete(open);
          }}
          title={CONNECTIONS_PAGE_TEXTS.deleteTitle(row.name)}
          isPending={remove.isPending}
          onConfirm={() =>
            remove.mutate(
              { id: row.id, name: row.name },
              {
                onSuccess: () => {
                  setConfirmingDelete(false);
                  finish(CONNECTION_MESSAGES.deleted);
                },
                onError: toastError,
              },
            )
          }
        />
      )}
    </>
  );
}
