import { parseCanaryDocument, type CanaryDocument, type CanaryValidationError } from '@lookout/contracts';
import type { Resolver } from 'react-hook-form';
import { isObject, readCanaryYaml, type CanaryDraft } from './canary-draft-fns';

/** The editor's two views of one canary: the form, or the YAML of the whole document. */
export type CanaryEditorMode = 'form' | 'yaml';

/** What the editor's form holds: the form's draft, and the YAML text while that view is open. */
export type CanaryEditorValues = {
  draft: CanaryDraft;
  yaml: string;
};

/** Namespace and name of a canary that exists: they identify it, so they cannot change. */
export type LockedIdentity = { name: string; namespace: string };

/** What validation needs besides the values (react-hook-form's resolver context). */
export type CanaryEditorContext = {
  /** Which view would be saved. */
  mode: CanaryEditorMode;
  /** Set when editing an existing canary. */
  locked?: LockedIdentity | undefined;
};

/** The outcome of {@link checkCanaryEditor}. */
export type CanaryEditorCheck = {
  /** Why the YAML cannot be read (YAML view only); nothing can be saved then. */
  yamlError?: string;
  /** Every problem, each once, each naming its field (`spec.http[0].url: is required`). */
  problems: CanaryValidationError[];
  /** The document to save, when there is no problem. */
  document?: CanaryDocument;
};

/** A YAML value as a form draft, or undefined when it is not shaped like one. */
export function toDraft(value: unknown): CanaryDraft | undefined {
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

/** Problems of a changed name or namespace on a canary that exists (spec 2 section 5). */
function identityProblems(candidate: unknown, locked: LockedIdentity): CanaryValidationError[] {
  if (!isObject(candidate) || !isObject(candidate.metadata)) return [];
  const metadata = candidate.metadata;
  return (['name', 'namespace'] as const)
    .filter((key) => metadata[key] !== locked[key])
    .map((key) => {
      const reason = `cannot be changed on an existing health check (it is '${locked[key]}')`;
      return { path: `metadata.${key}`, reason, message: `metadata.${key}: ${reason}` };
    });
}

/**
 * Validates what the editor would save (the draft, or the YAML in the YAML view) with
 * `parseCanaryDocument` from contracts, whose messages name the field, plus the identity rule
 * of an existing canary. Used live for the messages on screen and by the form's resolver.
 */
export function checkCanaryEditor(values: CanaryEditorValues, context: CanaryEditorContext): CanaryEditorCheck {
  let candidate: unknown = values.draft;
  if (context.mode === 'yaml') {
    const read = readCanaryYaml(values.yaml);
    if (!read.ok) return { yamlError: read.message, problems: [] };
    candidate = read.value;
  }
  const parsed = parseCanaryDocument(candidate);
  // One line per message: a value can fail the same rule on two routes of the schema.
  const problems = parsed.ok ? [] : [...new Map(parsed.errors.map((error) => [error.message, error])).values()];
  if (context.locked) problems.push(...identityProblems(candidate, context.locked));
  return parsed.ok && problems.length === 0 ? { problems, document: parsed.document } : { problems };
}

/**
 * react-hook-form resolver of the editor: the canary document when it may be saved, otherwise
 * an error on the view being saved that lists every problem. It validates with the contracts'
 * `parseCanaryDocument` rather than `zodResolver(canaryDocumentSchema)`, because the editor
 * shows that function's messages (field paths, unknown fields named with the check types
 * Lookout runs) in both views, and the YAML view saves a document that is not form values.
 */
export const canaryEditorResolver: Resolver<CanaryEditorValues, CanaryEditorContext, CanaryDocument> = (
  values,
  context,
) => {
  const check = checkCanaryEditor(values, context ?? { mode: 'form' });
  if (check.document) return { values: check.document, errors: {} };
  const message = check.yamlError ?? check.problems.map((problem) => problem.message).join('\n');
  const field = context?.mode === 'yaml' ? 'yaml' : 'draft';
  return { values: {}, errors: { [field]: { type: 'validate', message } } };
};
