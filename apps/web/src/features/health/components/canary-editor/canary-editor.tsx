import {
  CANARY_FORM_TEXTS,
  CANARY_SCHEDULE_OPTIONS,
  CHECK_FORM_TYPES,
  EDITABLE_SOURCE,
  VALIDATION_MESSAGES,
  type CheckFormType,
} from '@lookout/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { SettingsResourceTabs } from '@/components/settings-resource/settings-resource-tabs';
import { Button, buttonClasses } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { formClasses } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast';
import { YamlEditor } from '@/components/ui/yaml-editor';
import { KeyValueList } from '@/components/ui/key-value-list';
import { useApplyCanary } from '../../api/apply-canary';
import { useCanary } from '../../api/get-canary';
import { useCanaryForm } from '../../hooks/use-canary-form';
import {
  canaryRowToDraft,
  checksOf,
  isObject,
  newCanaryDraft,
  typesWithoutForm,
  type CanaryDraft,
  type JsonObject,
} from '../../lib/canary-draft-fns';
import { CANARY_SETTINGS_PATH } from '../../lib/health-paths';
import { CheckIcon } from '../check-icon';
import { CheckFields } from './check-fields';
import { DeleteCanaryButton } from './delete-canary-button';
import { DraftSelect, DraftText } from './draft-fields';

export interface CanaryEditorProps {
  /** The canary to edit; undefined creates one. */
  canaryId: string | undefined;
  /** Write on canaries (spec 2 section 6): without it everything is read-only. */
  canWrite: boolean;
  /** The Job History tab's content, composed by the route page from the job history feature. */
  jobHistory?: (canaryId: string) => ReactNode;
}

/**
 * The health-check page (`/settings/canaries/{id}`, spec 2 sections 2.8, 3, 4 and 5): a form
 * for the check types that have one and a YAML editor for the whole canary, both validated by
 * `parseCanaryDocument`, whose messages name the field.
 */
export function CanaryEditor({ canaryId, canWrite, jobHistory }: CanaryEditorProps) {
  const canary = useCanary(canaryId);
  if (canaryId === undefined) {
    return <CanaryEditorForm initial={newCanaryDraft()} existing={undefined} canWrite={canWrite} />;
  }
  if (canary.isError) {
    return (
      <>
        <PageHeader title={CANARY_FORM_TEXTS.titleNew} />
        <ErrorPanel error={canary.error} onRetry={() => void canary.refetch()} />
      </>
    );
  }
  if (canary.isPending) {
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading
      </p>
    );
  }
  if (!canary.data) {
    return (
      <>
        <PageHeader title={CANARY_FORM_TEXTS.titleNew} />
        <p role="status" className="text-sm text-slate-600">
          {CANARY_FORM_TEXTS.notFound}
        </p>
      </>
    );
  }
  const row = canary.data;
  const form = (
    <CanaryEditorForm
      key={`${row.id}:${row.updated_at}`}
      initial={canaryRowToDraft(row)}
      existing={{ id: row.id, source: row.source }}
      canWrite={canWrite}
    />
  );
  if (!jobHistory) return form;
  // The settings resource sub-tabs (spec 2 section 2.8): Spec, and the canary's runs.
  return (
    <div className="mx-auto max-w-4xl">
      <SettingsResourceTabs label="Health check" content={{ spec: form, 'job-history': jobHistory(row.id) }} />
    </div>
  );
}

interface CanaryEditorFormProps {
  initial: CanaryDraft;
  existing: { id: string; source: string } | undefined;
  canWrite: boolean;
}

function CanaryEditorForm({ initial, existing, canWrite }: CanaryEditorFormProps) {
  const navigate = useNavigate();
  const apply = useApplyCanary();
  const [addType, setAddType] = useState<CheckFormType>('http');
  const errorsId = useId();

  const fromOtherSource = existing !== undefined && existing.source !== EDITABLE_SOURCE;
  const readOnly = fromOtherSource || !canWrite;

  const editor = useCanaryForm({
    initial,
    existing: existing !== undefined,
    readOnly,
    save: async (document) => {
      const result = await apply.mutateAsync(document);
      toast.success(
        result.created ? CANARY_FORM_TEXTS.created(result.canary.name) : CANARY_FORM_TEXTS.saved(result.canary.name),
      );
      // Saving returns to the list (spec 3 section 2.6).
      void navigate(CANARY_SETTINGS_PATH);
    },
  });
  const { draft, mode, fieldErrors, yamlError, serverError, problems: shownProblems, submitted, edit } = editor;

  const name = draft.metadata.name;
  const labels = isObject(draft.metadata.labels) ? draft.metadata.labels : {};
  const schedule = typeof draft.spec.schedule === 'string' ? draft.spec.schedule : '';
  const interval = typeof draft.spec.interval === 'number' ? draft.spec.interval : undefined;
  const scheduleOptions = [
    ...(interval !== undefined ? [{ value: `interval:${interval}`, label: `every ${interval}s` }] : []),
    ...CANARY_SCHEDULE_OPTIONS,
  ];
  const otherTypes = typesWithoutForm(draft.spec);
  const submitLabel = existing
    ? apply.isPending
      ? CANARY_FORM_TEXTS.updating
      : CANARY_FORM_TEXTS.update
    : apply.isPending
      ? CANARY_FORM_TEXTS.saving
      : CANARY_FORM_TEXTS.save;

  const tabClass =
    'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

  return (
    <>
      <PageHeader
        title={existing ? `${initial.metadata.namespace}/${initial.metadata.name}` : CANARY_FORM_TEXTS.titleNew}
      />
      <form
        onSubmit={editor.onSubmit}
        noValidate
        className="mx-auto flex max-w-4xl flex-col gap-4"
        aria-label="Health check"
      >
        {fromOtherSource && (
          <p role="status" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {CANARY_FORM_TEXTS.readOnly(existing.source)}
          </p>
        )}
        {existing && !canWrite && <p className="text-sm text-slate-600">{CANARY_FORM_TEXTS.secretsMasked}</p>}
        {(shownProblems.length > 0 || yamlError || serverError) && (
          <div
            ref={editor.summaryRef}
            id={errorsId}
            role="alert"
            tabIndex={-1}
            className="scroll-mt-4 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 focus:outline-none"
          >
            <ul className="list-inside list-disc">
              {yamlError && <li>{`${CANARY_FORM_TEXTS.invalidYaml}: ${yamlError}`}</li>}
              {serverError && <li>{serverError}</li>}
              {shownProblems.map((problem) => (
                <li key={problem.message} className="font-mono text-xs">
                  {problem.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        <Tabs.Root value={mode} onValueChange={(value) => editor.switchMode(value === 'yaml' ? 'yaml' : 'form')}>
          <Tabs.List aria-label="Editor" className="flex border-b border-slate-200">
            <Tabs.Trigger value="form" className={tabClass} disabled={mode === 'yaml' && yamlError !== undefined}>
              {CANARY_FORM_TEXTS.formTab}
            </Tabs.Trigger>
            <Tabs.Trigger value="yaml" className={tabClass}>
              {CANARY_FORM_TEXTS.yamlTab}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="form" className="flex flex-col gap-6 pt-4 focus-visible:outline-none">
            <section className="grid gap-4 sm:grid-cols-2">
              <DraftText
                label={CANARY_FORM_TEXTS.name}
                required
                value={name}
                onChange={(value) => edit.metadata({ name: value })}
                error={fieldErrors.get('metadata.name')}
                readOnly={readOnly || existing !== undefined}
              />
              <DraftText
                label={CANARY_FORM_TEXTS.namespace}
                value={draft.metadata.namespace}
                onChange={(value) => edit.metadata({ namespace: value })}
                error={fieldErrors.get('metadata.namespace')}
                readOnly={readOnly || existing !== undefined}
              />
              <DraftSelect
                label={CANARY_FORM_TEXTS.schedule}
                required
                value={interval !== undefined && schedule === '' ? `interval:${interval}` : schedule}
                options={scheduleOptions}
                placeholder=""
                onChange={(value) =>
                  value.startsWith('interval:')
                    ? edit.spec({ schedule: undefined, interval: Number(value.slice('interval:'.length)) })
                    : edit.spec({ schedule: value, interval: undefined })
                }
                error={
                  fieldErrors.get('spec.schedule') ??
                  fieldErrors.get('spec.interval') ??
                  (submitted && schedule === '' && interval === undefined ? VALIDATION_MESSAGES.required : undefined)
                }
                readOnly={readOnly}
              />
              <div className="sm:col-span-2">
                <KeyValueList
                  label={CANARY_FORM_TEXTS.labels}
                  keyLabel="Key"
                  pairs={Object.entries(labels).map(([key, value]) => ({ key, value: String(value) }))}
                  onChange={(pairs) =>
                    edit.metadata({
                      labels:
                        pairs.length === 0
                          ? undefined
                          : Object.fromEntries(pairs.map(({ key, value }) => [key, value])),
                    })
                  }
                  readOnly={readOnly}
                  error={fieldErrors.get('metadata.labels')}
                />
              </div>
            </section>

            <section aria-label={CANARY_FORM_TEXTS.checks} className="flex flex-col gap-4">
              <h2 className="text-sm font-semibold text-slate-800">{CANARY_FORM_TEXTS.checks}</h2>
              {fieldErrors.get('spec') && <p className={formClasses.error}>{fieldErrors.get('spec')}</p>}
              {CHECK_FORM_TYPES.flatMap((type) =>
                checksOf(draft.spec, type).map((check: JsonObject, index) => (
                  <fieldset
                    key={`${type}-${index}`}
                    className="flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-4"
                  >
                    <legend className="flex items-center gap-2 px-1 text-sm font-medium text-slate-800">
                      <CheckIcon type={type} />
                      <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-600">{type}</span>
                      <span>{typeof check.name === 'string' && check.name ? check.name : `${type} ${index + 1}`}</span>
                    </legend>
                    <CheckFields
                      type={type}
                      index={index}
                      check={check}
                      errors={fieldErrors}
                      readOnly={readOnly}
                      onChange={(changes) => edit.check(type, index, changes)}
                    />
                    {!readOnly && (
                      <Button
                        variant="ghost"
                        className="self-end text-red-700"
                        onClick={() => edit.removeCheck(type, index)}
                      >
                        <Trash2 aria-hidden className="size-4" />
                        {CANARY_FORM_TEXTS.removeCheck}
                      </Button>
                    )}
                  </fieldset>
                )),
              )}
              {otherTypes.length > 0 && (
                <p className="text-sm text-slate-600">{CANARY_FORM_TEXTS.otherTypes(otherTypes.join(', '))}</p>
              )}
              {!readOnly && (
                <div className="flex items-end gap-2">
                  <label className="flex flex-col gap-1 text-sm text-slate-700">
                    <span className={formClasses.label}>Check type</span>
                    <select
                      value={addType}
                      onChange={(event) => setAddType(event.target.value as CheckFormType)}
                      className={`${formClasses.control} py-1.5`}
                    >
                      {CHECK_FORM_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button variant="secondary" onClick={() => edit.addCheck(addType)}>
                    <Plus aria-hidden className="size-4" />
                    {CANARY_FORM_TEXTS.addCheck}
                  </Button>
                </div>
              )}
            </section>
          </Tabs.Content>
          <Tabs.Content value="yaml" className="pt-4 focus-visible:outline-none">
            {mode === 'yaml' && (
              <YamlEditor
                key={readOnly ? 'read-only' : 'editable'}
                value={editor.yaml}
                onChange={editor.setYaml}
                readOnly={readOnly}
                label="Canary YAML"
                describedBy={shownProblems.length > 0 || yamlError ? errorsId : undefined}
              />
            )}
          </Tabs.Content>
        </Tabs.Root>
        <div className="flex justify-end gap-2 border-t border-slate-200 pt-4">
          {existing && !readOnly && (
            <span className="mr-auto">
              <DeleteCanaryButton id={existing.id} name={initial.metadata.name} />
            </span>
          )}
          {/* Cancel returns to the list, as on every settings resource (spec 3 section 2.6). */}
          <Link to={CANARY_SETTINGS_PATH} className={buttonClasses('secondary')}>
            {CANARY_FORM_TEXTS.cancel}
          </Link>
          {!readOnly && (
            <Button type="submit" disabled={apply.isPending}>
              {submitLabel}
            </Button>
          )}
        </div>
      </form>
    </>
  );
}
