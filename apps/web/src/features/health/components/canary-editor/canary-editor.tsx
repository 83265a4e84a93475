import {
  CANARY_FORM_TEXTS,
  CANARY_SCHEDULE_OPTIONS,
  CHECK_FORM_TYPES,
  EDITABLE_SOURCE,
  VALIDATION_MESSAGES,
  parseCanaryDocument,
  type CanaryValidationError,
  type CheckFormType,
} from '@lookout/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button, buttonClasses } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { formClasses } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast';
import { getErrorMessage } from '@/lib/api-client';
import { useApplyCanary } from '../../api/apply-canary';
import { useCanary } from '../../api/get-canary';
import {
  canaryRowToDraft,
  checksOf,
  draftToYaml,
  errorsByPath,
  isObject,
  newCanaryDraft,
  newCheck,
  readCanaryYaml,
  typesWithoutForm,
  withChanges,
  type CanaryDraft,
  type JsonObject,
} from '../../lib/canary-draft-fns';
import { canaryEditPath } from '../../lib/health-paths';
import { CheckIcon } from '../check-icon';
import { CheckFields } from './check-fields';
import { DraftSelect, DraftText } from './draft-fields';
import { KeyValueList } from './key-value-list';
import { YamlEditor } from './yaml-editor';

export interface CanaryEditorProps {
  /** The canary to edit; undefined creates one. */
  canaryId: string | undefined;
  /** Write on canaries (spec 2 section 6): without it everything is read-only. */
  canWrite: boolean;
}

/**
 * The health-check page (`/settings/canaries/{id}`, spec 2 sections 2.8, 3, 4 and 5): a form
 * for the check types that have one and a YAML editor for the whole canary, both validated by
 * `parseCanaryDocument`, whose messages name the field.
 */
export function CanaryEditor({ canaryId, canWrite }: CanaryEditorProps) {
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
  return (
    <CanaryEditorForm
      key={`${row.id}:${row.updated_at}`}
      initial={canaryRowToDraft(row)}
      existing={{ id: row.id, source: row.source }}
      canWrite={canWrite}
    />
  );
}

interface CanaryEditorFormProps {
  initial: CanaryDraft;
  existing: { id: string; source: string } | undefined;
  canWrite: boolean;
}

type Mode = 'form' | 'yaml';

/** A YAML value as a draft, or undefined when it is not shaped like one. */
function toDraft(value: unknown): CanaryDraft | undefined {
  if (!isObject(value) || !isObject(value.metadata) || !isObject(value.spec)) return undefined;
  const metadata = value.metadata;
  return {
    ...value,
    apiVersion: typeof value.apiVersion === 'string' ? value.apiVersion : '',
    kind: typeof value.kind === 'string' ? value.kind : '',
    metadata: {
      ...metadata,
      name: typeof metadata.name === 'string' ? metadata.name : '',
      namespace: typeof metadata.namespace === 'string' ? metadata.namespace : 'default',
    },
    spec: value.spec,
  } as CanaryDraft;
}

function CanaryEditorForm({ initial, existing, canWrite }: CanaryEditorFormProps) {
  const navigate = useNavigate();
  const apply = useApplyCanary();
  const [draft, setDraft] = useState<CanaryDraft>(initial);
  const [mode, setMode] = useState<Mode>('form');
  const [yamlText, setYamlText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const [addType, setAddType] = useState<CheckFormType>('http');
  const errorsId = useId();
  const summaryRef = useRef<HTMLDivElement>(null);

  const fromOtherSource = existing !== undefined && existing.source !== EDITABLE_SOURCE;
  const readOnly = fromOtherSource || !canWrite;

  // What would be saved: the form's draft, or the YAML being typed.
  const yamlRead = mode === 'yaml' ? readCanaryYaml(yamlText) : undefined;
  const candidate: unknown = mode === 'yaml' ? (yamlRead?.ok ? yamlRead.value : undefined) : draft;
  const validation = useMemo(() => (candidate === undefined ? undefined : parseCanaryDocument(candidate)), [candidate]);
  const problems = useMemo<CanaryValidationError[]>(() => {
    // One line per message: a value can fail the same rule on two routes of the schema.
    const errors = validation && !validation.ok ? validation.errors : [];
    const list = [...new Map(errors.map((error) => [error.message, error])).values()];
    // Namespace and name identify the canary: they cannot change once it exists (spec 2 section 5).
    if (existing && isObject(candidate) && isObject(candidate.metadata)) {
      for (const key of ['name', 'namespace'] as const) {
        if (candidate.metadata[key] !== initial.metadata[key]) {
          const reason = `cannot be changed on an existing health check (it is '${initial.metadata[key]}')`;
          list.push({ path: `metadata.${key}`, reason, message: `metadata.${key}: ${reason}` });
        }
      }
    }
    return list;
  }, [validation, existing, candidate, initial.metadata]);
  const fieldErrors = useMemo(() => errorsByPath(submitted ? problems : []), [submitted, problems]);
  const yamlError = yamlRead && !yamlRead.ok ? yamlRead.message : undefined;
  // The YAML editor shows its problems as they are typed; the form only after a save attempt.
  const shownProblems = mode === 'yaml' || submitted ? problems : [];

  const switchMode = (next: Mode) => {
    if (next === mode) return;
    if (next === 'yaml') {
      setYamlText(draftToYaml(draft));
      setMode('yaml');
      return;
    }
    const read = readCanaryYaml(yamlText);
    const value = read.ok ? toDraft(read.value) : undefined;
    // The form can only show a document it can read; until then the YAML stays open.
    if (!value) return;
    setDraft(value);
    setMode('form');
  };

  const updateSpec = (changes: Record<string, unknown>) =>
    setDraft((current) => ({ ...current, spec: withChanges(current.spec, changes) }));
  const updateMetadata = (changes: Record<string, unknown>) =>
    setDraft((current) => ({
      ...current,
      metadata: withChanges(current.metadata, changes) as CanaryDraft['metadata'],
    }));
  const updateCheck = (type: string, index: number, changes: Record<string, unknown>) =>
    setDraft((current) => {
      const list = checksOf(current.spec, type).map((check, i) => (i === index ? withChanges(check, changes) : check));
      return { ...current, spec: { ...current.spec, [type]: list } };
    });
  const removeCheck = (type: string, index: number) =>
    setDraft((current) => {
      const list = checksOf(current.spec, type).filter((_, i) => i !== index);
      return { ...current, spec: withChanges(current.spec, { [type]: list.length === 0 ? undefined : list }) };
    });
  const addCheck = () =>
    setDraft((current) => ({
      ...current,
      spec: { ...current.spec, [addType]: [...checksOf(current.spec, addType), newCheck(addType)] },
    }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setServerError(undefined);
    if (readOnly || !validation?.ok || problems.length > 0) {
      // The list of problems is at the top; bring it into view rather than leave the user below.
      requestAnimationFrame(() => summaryRef.current?.focus());
      return;
    }
    const document = validation.document;
    apply.mutate(document, {
      onSuccess: (result) => {
        toast.success(
          result.created ? CANARY_FORM_TEXTS.created(result.canary.name) : CANARY_FORM_TEXTS.saved(result.canary.name),
        );
        if (!existing) void navigate(canaryEditPath(result.canary.id), { replace: true });
      },
      onError: (error) => setServerError(getErrorMessage(error)),
    });
  };

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
      <form onSubmit={onSubmit} noValidate className="mx-auto flex max-w-4xl flex-col gap-4" aria-label="Health check">
        {fromOtherSource && (
          <p role="status" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {CANARY_FORM_TEXTS.readOnly(existing.source)}
          </p>
        )}
        {existing && !canWrite && <p className="text-sm text-slate-600">{CANARY_FORM_TEXTS.secretsMasked}</p>}
        {(shownProblems.length > 0 || yamlError || serverError) && (
          <div
            ref={summaryRef}
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
        <Tabs.Root value={mode} onValueChange={(value) => switchMode(value === 'yaml' ? 'yaml' : 'form')}>
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
                onChange={(value) => updateMetadata({ name: value })}
                error={fieldErrors.get('metadata.name')}
                readOnly={readOnly || existing !== undefined}
              />
              <DraftText
                label={CANARY_FORM_TEXTS.namespace}
                value={draft.metadata.namespace}
                onChange={(value) => updateMetadata({ namespace: value })}
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
                    ? updateSpec({ schedule: undefined, interval: Number(value.slice('interval:'.length)) })
                    : updateSpec({ schedule: value, interval: undefined })
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
                    updateMetadata({
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
                      onChange={(changes) => updateCheck(type, index, changes)}
                    />
                    {!readOnly && (
                      <Button
                        variant="ghost"
                        className="self-end text-red-700"
                        onClick={() => removeCheck(type, index)}
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
                  <Button variant="secondary" onClick={addCheck}>
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
                value={yamlText}
                onChange={setYamlText}
                readOnly={readOnly}
                label="Canary YAML"
                describedBy={shownProblems.length > 0 || yamlError ? errorsId : undefined}
              />
            )}
          </Tabs.Content>
        </Tabs.Root>
        <div className="flex justify-end gap-2 border-t border-slate-200 pt-4">
          <Link to="/health" className={buttonClasses('secondary')}>
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
