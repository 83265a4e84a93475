import type { CanaryDocument, CheckFormType } from '@lookout/contracts';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { getErrorMessage } from '@/lib/api-client';
import {
  draftToYaml,
  errorsByPath,
  readCanaryYaml,
  withCheckChanges,
  withMetadataChanges,
  withNewCheck,
  withoutCheck,
  withSpecChanges,
  type CanaryDraft,
} from '../lib/canary-draft-fns';
import {
  canaryEditorResolver,
  checkCanaryEditor,
  toDraft,
  type CanaryEditorContext,
  type CanaryEditorMode,
  type CanaryEditorValues,
  type LockedIdentity,
} from '../lib/canary-editor-fns';

export interface UseCanaryFormOptions {
  /** The canary to start from: a stored one, or a new draft. */
  initial: CanaryDraft;
  /** True when editing a canary that exists: its namespace and name cannot change. */
  existing: boolean;
  /** Nothing is saved (another source's canary, or no write on canaries). */
  readOnly: boolean;
  /** Saves a valid document; the message of a rejection is shown above the form. */
  save: (document: CanaryDocument) => Promise<unknown>;
}

/**
 * The health-check editor's state (react-hook-form): the draft the form edits and the YAML
 * text of the YAML view, the open view, and the problems to show. Both views are validated by
 * `checkCanaryEditor` (contracts' `parseCanaryDocument`): the YAML view as it is typed, the
 * form's fields once a save was tried. Saving goes through `handleSubmit` with
 * `canaryEditorResolver`, so `save` only ever receives a valid document.
 */
export function useCanaryForm({ initial, existing, readOnly, save }: UseCanaryFormOptions) {
  const [mode, setMode] = useState<CanaryEditorMode>('form');
  const [serverError, setServerError] = useState<string>();
  const summaryRef = useRef<HTMLDivElement>(null);

  const { name, namespace } = initial.metadata;
  const locked = useMemo<LockedIdentity | undefined>(
    () => (existing ? { name, namespace } : undefined),
    [existing, name, namespace],
  );
  const context: CanaryEditorContext = { mode, locked };

  const form = useForm<CanaryEditorValues, CanaryEditorContext, CanaryDocument>({
    defaultValues: { draft: initial, yaml: '' },
    resolver: canaryEditorResolver,
    context,
  });
  const [draft, yaml] = useWatch({ control: form.control, name: ['draft', 'yaml'] });
  const { isSubmitted, isSubmitting } = form.formState;

  // Shown live from the same rule the resolver applies: a removed check renumbers the paths of
  // the others, so problems are recomputed for the whole document, not field by field.
  const check = useMemo(() => checkCanaryEditor({ draft, yaml }, { mode, locked }), [draft, yaml, mode, locked]);
  const fieldErrors = useMemo(() => errorsByPath(isSubmitted ? check.problems : []), [isSubmitted, check.problems]);

  const editDraft = (change: (current: CanaryDraft) => CanaryDraft) =>
    form.setValue('draft', change(form.getValues('draft')));

  const switchMode = (next: CanaryEditorMode) => {
    if (next === mode) return;
    if (next === 'yaml') {
      form.setValue('yaml', draftToYaml(form.getValues('draft')));
      setMode('yaml');
      return;
    }
    const read = readCanaryYaml(form.getValues('yaml'));
    const value = read.ok ? toDraft(read.value) : undefined;
    // The form can only show a document it can read; until then the YAML stays open.
    if (!value) return;
    form.setValue('draft', value);
    setMode('form');
  };

  // The list of problems is at the top; bring it into view rather than leave the user below.
  const focusProblems = () => requestAnimationFrame(() => summaryRef.current?.focus());

  const onSubmit = (event: FormEvent) => {
    setServerError(undefined);
    void form.handleSubmit(async (document) => {
      if (readOnly) {
        focusProblems();
        return;
      }
      try {
        await save(document);
      } catch (error) {
        setServerError(getErrorMessage(error));
      }
    }, focusProblems)(event);
  };

  return {
    mode,
    switchMode,
    /** The form's draft (in the YAML view, as it was when the view opened). */
    draft,
    yaml,
    setYaml: (text: string) => form.setValue('yaml', text),
    /** True once a save was tried. */
    submitted: isSubmitted,
    isSubmitting,
    /** Problems for the list above the form: as typed in YAML, after a save try in the form. */
    problems: mode === 'yaml' || isSubmitted ? check.problems : [],
    /** Field messages by path (`spec.http[0].url`), after a save try. */
    fieldErrors,
    /** Why the YAML cannot be read; the form view stays closed until it can. */
    yamlError: check.yamlError,
    serverError,
    summaryRef,
    onSubmit,
    edit: {
      spec: (changes: Record<string, unknown>) => editDraft((current) => withSpecChanges(current, changes)),
      metadata: (changes: Record<string, unknown>) => editDraft((current) => withMetadataChanges(current, changes)),
      check: (type: string, index: number, changes: Record<string, unknown>) =>
        editDraft((current) => withCheckChanges(current, type, index, changes)),
      removeCheck: (type: string, index: number) => editDraft((current) => withoutCheck(current, type, index)),
      addCheck: (type: CheckFormType) => editDraft((current) => withNewCheck(current, type)),
    },
  };
}

/** What {@link useCanaryForm} returns. */
export type CanaryForm = ReturnType<typeof useCanaryForm>;
