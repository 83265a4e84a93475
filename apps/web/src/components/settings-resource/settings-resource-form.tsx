import {
  EDITABLE_SOURCE,
  SETTINGS_RESOURCE_TEXTS,
  SETTINGS_RESOURCE_TOASTS,
  VALIDATION_MESSAGES,
  type SettingsResourceDefinition,
} from '@lookout/contracts';
import { Lock } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { DeleteResourceDialog } from './delete-resource-dialog';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField, formClasses } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { labelsFromText, labelsToText, specFromText, specToText } from './settings-resource-fns';
import {
  settingsResourceHooks,
  type SettingsResourceFields,
  type SettingsResourceRow,
} from './settings-resource-hooks';

const texts = SETTINGS_RESOURCE_TEXTS;

export interface SettingsResourceFormProps {
  resource: SettingsResourceDefinition;
  /** The row to update; absent to create one. */
  row?: SettingsResourceRow;
  /** Write on the resource (spec 2 section 6: saving and deleting need it). */
  canWrite: boolean;
  /** The signed-in user, the author of a row created here. */
  currentUserId: string;
  /** The spec a new row starts from. */
  specTemplate?: string;
  /** Where save, delete and cancel return; the resource's list by default. */
  listPath?: string;
}

/**
 * The generic form of a settings resource (spec 2 sections 2.8, 3.1, 4 and 5): its fields,
 * Save/Saving to create and Update/Updating to update, Cancel, and Delete (a soft delete) with
 * a question first; save, delete and cancel return to the list. Namespace and name are fixed
 * once the row exists, and a row from another source than the UI is shown read-only, as it is
 * to roles without write. The server validates the spec; its answer is shown as it gives it.
 */
export function SettingsResourceForm({
  resource,
  row,
  canWrite,
  currentUserId,
  specTemplate = '',
  listPath = resource.path,
}: SettingsResourceFormProps) {
  const hooks = settingsResourceHooks(resource);
  const save = hooks.useSave();
  const remove = hooks.useDelete();
  const navigate = useNavigate();
  const specLabelId = useId();
  const specErrorId = useId();
  const [name, setName] = useState(row?.name ?? '');
  const [namespace, setNamespace] = useState(row?.namespace ?? 'default');
  const [labels, setLabels] = useState(labelsToText(row?.labels));
  const [spec, setSpec] = useState(row ? specToText(row.spec) : specTemplate);
  const [errors, setErrors] = useState<{ name?: string; namespace?: string; labels?: string; spec?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const fromOtherSource = row !== undefined && row.source !== EDITABLE_SOURCE;
  const editable = canWrite && !fromOtherSource;
  const has = (field: SettingsResourceDefinition['fields'][number]) => resource.fields.includes(field);
  const back = () => void navigate(listPath);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsedSpec = specFromText(spec);
    const parsedLabels = labelsFromText(labels);
    const found = {
      ...(name.trim() === '' ? { name: VALIDATION_MESSAGES.required } : {}),
      ...(has('namespace') && namespace.trim() === '' ? { namespace: VALIDATION_MESSAGES.required } : {}),
      ...(has('labels') && !parsedLabels.ok ? { labels: parsedLabels.error } : {}),
      ...(!parsedSpec.ok ? { spec: parsedSpec.error } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsedSpec.ok || !parsedLabels.ok) return;
    setServerError(null);
    // Namespace and name are sent as they were loaded when updating: they cannot change.
    const fields: SettingsResourceFields = {
      name: row ? row.name : name.trim(),
      ...(has('namespace') ? { namespace: row ? (row.namespace ?? namespace) : namespace.trim() } : {}),
      ...(has('labels') ? { labels: parsedLabels.value } : {}),
      spec: parsedSpec.value,
    };
    save.mutate(
      { ...(row ? { id: row.id } : {}), fields, createdBy: currentUserId },
      {
        onSuccess: () => {
          toast.success(
            row ? SETTINGS_RESOURCE_TOASTS.updated(fields.name) : SETTINGS_RESOURCE_TOASTS.created(fields.name),
          );
          back();
        },
        onError: (error) => {
          setServerError(getErrorMessage(error));
          toastError(error);
        },
      },
    );
  };

  return (
    <form aria-label={resource.name} noValidate onSubmit={submit} className="flex flex-col gap-4">
      {fromOtherSource && (
        <p
          role="status"
          className="flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <Lock aria-hidden className="size-4 shrink-0 text-amber-700" />
          {texts.readOnly(row.source)}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={texts.fields.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          // Fixed once the row exists (spec 2 section 5).
          readOnly={row !== undefined || !editable}
          disabled={row !== undefined || !editable}
          hint={row ? (has('namespace') ? texts.identityLocked : texts.nameLocked) : undefined}
          error={errors.name}
          required
        />
        {has('namespace') && (
          <TextField
            label={texts.fields.namespace}
            value={namespace}
            onChange={(event) => setNamespace(event.target.value)}
            readOnly={row !== undefined || !editable}
            disabled={row !== undefined || !editable}
            error={errors.namespace}
          />
        )}
      </div>
      {has('labels') && (
        <TextAreaField
          label={texts.fields.labels}
          value={labels}
          onChange={(event) => setLabels(event.target.value)}
          readOnly={!editable}
          rows={3}
          hint={texts.labelsHint}
          error={errors.labels}
        />
      )}
      <div>
        <span id={specLabelId} className={formClasses.label}>
          {texts.fields.spec}
        </span>
        <p className={formClasses.hint}>{texts.specHint}</p>
        <YamlEditor
          value={spec}
          onChange={setSpec}
          readOnly={!editable}
          label={texts.fields.spec}
          describedBy={errors.spec ? specErrorId : undefined}
          className="mt-1 h-80"
        />
        {errors.spec && (
          <p id={specErrorId} role="alert" className={formClasses.error}>
            {errors.spec}
          </p>
        )}
      </div>
      {serverError && (
        <p role="alert" className="text-sm whitespace-pre-wrap text-red-700">
          {serverError}
        </p>
      )}
      <div className="flex items-center gap-2">
        {editable && row && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {texts.delete}
          </Button>
        )}
        <div className="ml-auto flex gap-2">
          <Button variant="secondary" onClick={back}>
            {texts.cancel}
          </Button>
          {editable && (
            <Button type="submit" disabled={save.isPending}>
              {texts.submitLabel(Boolean(row), save.isPending)}
            </Button>
          )}
        </div>
      </div>
      {row && (
        <DeleteResourceDialog
          resource={row}
          title={texts.deleteConfirm(row.name)}
          open={confirming}
          onOpenChange={setConfirming}
          remove={remove}
          onDeleted={back}
        />
      )}
    </form>
  );
}
