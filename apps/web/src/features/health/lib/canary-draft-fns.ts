import {
  CANARY_API_VERSION,
  CANARY_CHECK_TYPES,
  CANARY_KIND,
  CHECK_FORM_TYPES,
  VALIDATION_MESSAGES,
  type CanaryRow,
  type CanaryValidationError,
  type CheckFormType,
} from '@lookout/contracts';
import { parseAllDocuments, stringify } from 'yaml';

/**
 * The canary the editor works on, before validation: JSON as the form and the YAML editor
 * write it. `parseCanaryDocument` from contracts decides whether it may be saved.
 */
export type JsonObject = { [key: string]: unknown };

export interface CanaryDraft {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> } & JsonObject;
  spec: JsonObject;
}

/** A new canary: namespace 'default' (spec 2 section 3.1), every 5 minutes, one http check. */
export function newCanaryDraft(): CanaryDraft {
  return {
    apiVersion: CANARY_API_VERSION,
    kind: CANARY_KIND,
    metadata: { name: '', namespace: 'default' },
    spec: { schedule: '@every 5m', http: [newCheck('http')] },
  };
}

/** A stored canary as a document. */
export function canaryRowToDraft(row: CanaryRow): CanaryDraft {
  return {
    apiVersion: CANARY_API_VERSION,
    kind: CANARY_KIND,
    metadata: {
      name: row.name,
      namespace: row.namespace,
      ...(row.labels && Object.keys(row.labels).length > 0 ? { labels: row.labels } : {}),
    },
    spec: row.spec,
  };
}

/** An empty check of a type with a form, with the fields a new one starts from. */
export function newCheck(type: CheckFormType): JsonObject {
  switch (type) {
    case 'http':
      return { name: '', url: '', responseCodes: [200] };
    case 'exec':
      return { name: '', script: '' };
    case 'redis':
      return { name: '', addr: '' };
    case 'icmp':
    case 'tcp':
      return { name: '', endpoint: '' };
    case 'folder':
      return { name: '', path: '' };
  }
}

/** The checks of one type in a spec (an empty list when there are none or the value is not a list). */
export function checksOf(spec: JsonObject, type: string): JsonObject[] {
  const list = spec[type];
  return Array.isArray(list) ? list.filter((item): item is JsonObject => isObject(item)) : [];
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Check types present in the spec that have no form: they are kept and edited in YAML. */
export function typesWithoutForm(spec: JsonObject): string[] {
  return CANARY_CHECK_TYPES.filter(
    (type) => !(CHECK_FORM_TYPES as readonly string[]).includes(type) && checksOf(spec, type).length > 0,
  );
}

/**
 * A copy of `target` with the changes applied: `undefined` and '' remove a key, so the document
 * holds only what was filled in (an empty optional field would otherwise fail validation).
 */
export function withChanges(target: JsonObject, changes: Record<string, unknown>): JsonObject {
  const next: JsonObject = { ...target };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}

/** The draft as YAML, as the editor shows it. */
export function draftToYaml(draft: CanaryDraft): string {
  return stringify(draft, { lineWidth: 0 });
}

/** What reading the editor's YAML gave: a document to validate, or why it cannot be read. */
export type ReadYamlResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Reads one YAML document; several documents or a syntax error are refused with a message. */
export function readCanaryYaml(text: string): ReadYamlResult {
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return { ok: false, message: 'The YAML holds no document' };
  const [first, ...rest] = documents;
  if (!first) return { ok: false, message: 'The YAML holds no document' };
  if (rest.length > 0) return { ok: false, message: 'Write one canary per health check' };
  const error = first.errors[0];
  // The message names the line and column; its continuation lines quote the text, which the
  // editor already shows.
  if (error) return { ok: false, message: error.message.split('\n')[0] ?? error.message };
  return { ok: true, value: first.toJS() as unknown };
}

/**
 * The validation problems by field path (`spec.http[0].url`), in the form's words: a missing
 * value is 'This field is required' (spec 2 section 5), anything else the validator's reason.
 */
export function errorsByPath(errors: readonly CanaryValidationError[]): Map<string, string> {
  const byPath = new Map<string, string>();
  for (const error of errors) {
    if (byPath.has(error.path)) continue;
    byPath.set(error.path, error.reason === 'is required' ? VALIDATION_MESSAGES.required : error.reason);
  }
  return byPath;
}

/** The path of a check's field, as the validator names it: `spec.http[0].url`. */
export function checkFieldPath(type: string, index: number, ...keys: string[]): string {
  return [`spec.${type}[${index}]`, ...keys].join('.');
}

/** The draft with changes to its spec (`undefined` or '' removes a key, as in {@link withChanges}). */
export function withSpecChanges(draft: CanaryDraft, changes: Record<string, unknown>): CanaryDraft {
  return { ...draft, spec: withChanges(draft.spec, changes) };
}

/** The draft with changes to its metadata. */
export function withMetadataChanges(draft: CanaryDraft, changes: Record<string, unknown>): CanaryDraft {
  return { ...draft, metadata: withChanges(draft.metadata, changes) as CanaryDraft['metadata'] };
}

/** The draft with changes to the `index`th check of a type. */
export function withCheckChanges(
  draft: CanaryDraft,
  type: string,
  index: number,
  changes: Record<string, unknown>,
): CanaryDraft {
  const list = checksOf(draft.spec, type).map((check, i) => (i === index ? withChanges(check, changes) : check));
  return { ...draft, spec: { ...draft.spec, [type]: list } };
}

/** The draft without the `index`th check of a type; a type left with none leaves the spec. */
export function withoutCheck(draft: CanaryDraft, type: string, index: number): CanaryDraft {
  const list = checksOf(draft.spec, type).filter((_, i) => i !== index);
  return withSpecChanges(draft, { [type]: list.length === 0 ? undefined : list });
}

/** The draft with a new, empty check of a type after the others of that type. */
export function withNewCheck(draft: CanaryDraft, type: CheckFormType): CanaryDraft {
  return { ...draft, spec: { ...draft.spec, [type]: [...checksOf(draft.spec, type), newCheck(type)] } };
}
