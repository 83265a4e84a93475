import { z } from 'zod';
import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from './canary-fields.js';
import { VALIDATION_MESSAGES } from './messages.js';

/**
 * The secret store: named secrets and config maps (namespace, name, key → value) kept by
 * Lookout, so the spec's secret-or-value fields (`valueFrom.secretKeyRef`/`configMapKeyRef`,
 * `secret://<name>/<key>`, `configmap://<name>/<key>`) work without Kubernetes (issue 12,
 * docs/secrets.md). Secret values are sealed at rest and never returned; config map values are
 * plain and shown.
 */

/** What a store entry is: a secret (values sealed, write-only) or a config map (values plain). */
export const SECRET_STORE_KINDS = ['secret', 'configmap'] as const;
export type SecretStoreKind = (typeof SECRET_STORE_KINDS)[number];

/** The namespace of an entry, a reference or a canary when none is given (as in Kubernetes). */
export const DEFAULT_SECRET_NAMESPACE = 'default';

/** The reference forms a credential field may hold instead of a value (spec 3 section 3). */
export const SECRET_REFERENCE_SCHEMES = { secret: 'secret://', configmap: 'configmap://' } as const;

/**
 * Bounds of names, keys and values, after Kubernetes: names are DNS-1123 subdomains (253),
 * namespaces DNS-1123 labels (63), keys at most 253 of `-._a-zA-Z0-9`, and one entry at most
 * 1 MiB of values.
 */
export const SECRET_STORE_LIMITS = {
  name: 253,
  namespace: 63,
  key: 253,
  keys: 100,
  value: 256 * 1024,
  total: 1024 * 1024,
} as const;

/** Key names, as Kubernetes allows them in a Secret or ConfigMap. */
export const SECRET_KEY_PATTERN = /^[-._a-zA-Z0-9]+$/;

/** The user-facing messages of the store (server answers, check failures, form errors). */
export const SECRET_STORE_MESSAGES = {
  kindLabel: (kind: SecretStoreKind) => (kind === 'secret' ? 'secret' : 'config map'),
  name: `must be a lowercase DNS-1123 name: letters a-z, digits, '-' and '.', starting and ending with a letter or digit, at most ${SECRET_STORE_LIMITS.name} characters (for example db-credentials)`,
  namespace: `must be a lowercase DNS-1123 label: letters a-z, digits and '-', starting and ending with a letter or digit, at most ${SECRET_STORE_LIMITS.namespace} characters (for example default)`,
  key: `must be 1 to ${SECRET_STORE_LIMITS.key} characters of letters, digits, '-', '_' and '.' (for example password)`,
  tooManyKeys: `may hold at most ${SECRET_STORE_LIMITS.keys} keys`,
  value: `must be at most ${SECRET_STORE_LIMITS.value} characters`,
  total: `All values together must be at most ${SECRET_STORE_LIMITS.total} characters.`,
  noKeys: 'Add at least one key with its value.',
  keepNeedsStoredValue: (key: string) =>
    `Key '${key}' has no stored value to keep: send its value, or leave the key out to remove it.`,
  exists: (kind: SecretStoreKind, namespace: string, name: string) =>
    `A ${SECRET_STORE_MESSAGES.kindLabel(kind)} named '${name}' already exists in namespace '${namespace}'. Choose another name, or edit that one.`,
  notFound: (kind: SecretStoreKind, namespace: string, name: string) =>
    `There is no ${SECRET_STORE_MESSAGES.kindLabel(kind)} named '${name}' in namespace '${namespace}'.`,
  readOnly: (source: string) => `This entry comes from ${source} and is read-only here.`,
  /** A check or connection names an entry or key the store does not have. */
  missingEntry: (kind: SecretStoreKind, namespace: string, name: string) =>
    `no ${SECRET_STORE_MESSAGES.kindLabel(kind)} '${name}' in namespace '${namespace}'; add it at Settings > Secrets`,
  missingKey: (kind: SecretStoreKind, namespace: string, name: string, key: string) =>
    `${SECRET_STORE_MESSAGES.kindLabel(kind)} '${name}' in namespace '${namespace}' has no key '${key}'`,
  /**
   * Reading from the Kubernetes cluster of LOOKOUT_SECRETS_KUBERNETES_CONNECTION: the cluster's
   * answer (status and its Status message), never a value.
   */
  clusterMissingEntry: (kind: SecretStoreKind, namespace: string, name: string, cluster: string) =>
    `no ${SECRET_STORE_MESSAGES.kindLabel(kind)} '${name}' in namespace '${namespace}' of the cluster of ${cluster} (404 not found)`,
  clusterMissingKey: (kind: SecretStoreKind, namespace: string, name: string, key: string, cluster: string) =>
    `${SECRET_STORE_MESSAGES.kindLabel(kind)} '${name}' in namespace '${namespace}' of the cluster of ${cluster} has no key '${key}'`,
  clusterRefused: (kind: SecretStoreKind, namespace: string, name: string, cluster: string, answer: string) =>
    `the cluster of ${cluster} refused to read ${SECRET_STORE_MESSAGES.kindLabel(kind)} '${name}' in namespace '${namespace}' (${answer}); grant its user get on ${kind === 'secret' ? 'secrets' : 'configmaps'} there`,
  clusterFailed: (cluster: string, reason: string) => `could not reach the cluster of ${cluster} (${reason})`,
  badReference: (text: string) =>
    `'${text.slice(0, 120)}' is not a reference of the form secret://<name>/<key> or configmap://<name>/<key>`,
} as const;

const name = z
  .string({ message: VALIDATION_MESSAGES.required })
  .trim()
  .min(1, { message: VALIDATION_MESSAGES.required })
  .max(SECRET_STORE_LIMITS.name, { message: SECRET_STORE_MESSAGES.name })
  .regex(DNS1123_SUBDOMAIN, { message: SECRET_STORE_MESSAGES.name });
const namespace = z
  .string()
  .trim()
  .min(1, { message: VALIDATION_MESSAGES.required })
  .max(SECRET_STORE_LIMITS.namespace, { message: SECRET_STORE_MESSAGES.namespace })
  .regex(DNS1123_LABEL, { message: SECRET_STORE_MESSAGES.namespace });
const key = z
  .string()
  .min(1, { message: SECRET_STORE_MESSAGES.key })
  .max(SECRET_STORE_LIMITS.key, { message: SECRET_STORE_MESSAGES.key })
  .regex(SECRET_KEY_PATTERN, { message: SECRET_STORE_MESSAGES.key });
const value = z.string().max(SECRET_STORE_LIMITS.value, { message: SECRET_STORE_MESSAGES.value });

export const secretStoreKindSchema = z.enum(SECRET_STORE_KINDS, {
  message: `must be one of ${SECRET_STORE_KINDS.join(', ')}`,
});
export const secretStoreNameSchema = name;
export const secretStoreNamespaceSchema = namespace;
export const secretStoreKeySchema = key;

/** Total size and key count of a data map; a message when over a bound. */
function dataProblem(data: Record<string, string | null>): string | undefined {
  const keys = Object.keys(data);
  if (keys.length > SECRET_STORE_LIMITS.keys) return `data ${SECRET_STORE_MESSAGES.tooManyKeys}`;
  const total = Object.values(data).reduce((sum, text) => sum + (text?.length ?? 0), 0);
  if (total > SECRET_STORE_LIMITS.total) return SECRET_STORE_MESSAGES.total;
  return undefined;
}

// Keys are checked here rather than as the record's key schema: zod reports a bad record key
// only as "Invalid key in record", and the message should say what a key may hold.
const dataMap = <V extends z.ZodType<string | null>>(valueSchema: V) =>
  z.record(z.string(), valueSchema).superRefine((data, ctx) => {
    for (const entryKey of Object.keys(data)) {
      if (!key.safeParse(entryKey).success) {
        ctx.addIssue({ code: 'custom', path: [entryKey], message: SECRET_STORE_MESSAGES.key });
      }
    }
    const problem = dataProblem(data as Record<string, string | null>);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    if (Object.keys(data).length === 0) ctx.addIssue({ code: 'custom', message: SECRET_STORE_MESSAGES.noKeys });
  });

/** `POST /api/secrets`: a new secret or config map with every value given. */
export const createSecretStoreEntrySchema = z.strictObject({
  kind: secretStoreKindSchema,
  namespace: namespace.default(DEFAULT_SECRET_NAMESPACE),
  name,
  data: dataMap(value),
});
export type CreateSecretStoreEntry = z.input<typeof createSecretStoreEntrySchema>;

/**
 * `PUT /api/secrets/{kind}/{namespace}/{name}`: the entry's whole key set. A key whose value
 * is `null` keeps its stored value (the console never has a secret's value to send back); a
 * stored key left out is removed.
 */
export const updateSecretStoreEntrySchema = z.strictObject({
  data: dataMap(value.nullable()),
});
export type UpdateSecretStoreEntry = z.infer<typeof updateSecretStoreEntrySchema>;

export const secretStoreEntryParamsSchema = z.object({ kind: secretStoreKindSchema, namespace, name });
export type SecretStoreEntryParams = z.infer<typeof secretStoreEntryParamsSchema>;

export const listSecretStoreQuerySchema = z.object({
  kind: secretStoreKindSchema.optional(),
  namespace: namespace.optional(),
});

/** One key of an entry as readers see it: a secret's value never leaves the server. */
export const secretStoreKeyViewSchema = z.object({
  key: z.string().max(SECRET_STORE_LIMITS.key),
  set: z.literal(true),
  /** Config maps only. */
  value: z.string().max(SECRET_STORE_LIMITS.value).optional(),
});
export type SecretStoreKeyView = z.infer<typeof secretStoreKeyViewSchema>;

export const secretStoreEntrySchema = z.object({
  id: z.uuid(),
  kind: secretStoreKindSchema,
  namespace: z.string().max(SECRET_STORE_LIMITS.namespace),
  name: z.string().max(SECRET_STORE_LIMITS.name),
  /** Sorted by key. */
  keys: z.array(secretStoreKeyViewSchema).max(SECRET_STORE_LIMITS.keys),
  source: z.string().max(64),
  created_by: z.uuid().nullable(),
  created_at: z.string().max(40),
  updated_at: z.string().max(40),
});
export type SecretStoreEntry = z.infer<typeof secretStoreEntrySchema>;

export const secretStoreListSchema = z.object({ items: z.array(secretStoreEntrySchema) });
export type SecretStoreList = z.infer<typeof secretStoreListSchema>;

export const deleteSecretStoreEntryResponseSchema = z.object({ deleted: secretStoreEntrySchema });

/** A `secret://<name>/<key>` or `configmap://<name>/<key>` reference, parsed. */
export type SecretReference = { kind: SecretStoreKind; name: string; key: string };

/**
 * Reads a reference string; `undefined` when the text is not one (a static value). A text
 * with a reference scheme but the wrong shape is `{ invalid }`: the caller says so rather than
 * using the text as a password.
 */
export function parseSecretReference(text: string): SecretReference | { invalid: string } | undefined {
  const kind = (Object.keys(SECRET_REFERENCE_SCHEMES) as SecretStoreKind[]).find((candidate) =>
    text.startsWith(SECRET_REFERENCE_SCHEMES[candidate]),
  );
  if (!kind) return undefined;
  const [entryName, entryKey, ...rest] = text.slice(SECRET_REFERENCE_SCHEMES[kind].length).split('/');
  if (
    rest.length > 0 ||
    !entryName ||
    !entryKey ||
    !name.safeParse(entryName).success ||
    !key.safeParse(entryKey).success
  ) {
    return { invalid: SECRET_STORE_MESSAGES.badReference(text) };
  }
  return { kind, name: entryName, key: entryKey };
}

/** The reference string of one key of an entry. */
export function secretReference(kind: SecretStoreKind, entryName: string, entryKey: string): string {
  return `${SECRET_REFERENCE_SCHEMES[kind]}${entryName}/${entryKey}`;
}

/** Labels and texts of the Settings > Secrets page (ours: the spec has no such page). */
export const SECRETS_PAGE_TEXTS = {
  title: 'Secrets',
  menu: 'Secrets',
  intro:
    'Secrets and config maps that checks and connections read by name: valueFrom.secretKeyRef / configMapKeyRef, or secret://<name>/<key> and configmap://<name>/<key>. Secret values are encrypted and never shown again.',
  add: 'Add Secret',
  titleNew: 'New Secret',
  titleEdit: (name: string) => `Edit ${name}`,
  kinds: { secret: 'Secret', configmap: 'Config Map' } satisfies Record<SecretStoreKind, string>,
  columns: { name: 'Name', namespace: 'Namespace', kind: 'Kind', keys: 'Keys', updatedAt: 'Updated', source: 'Source' },
  fields: { kind: 'Kind', namespace: 'Namespace', name: 'Name', key: 'Key', value: 'Value' },
  valueSet: 'set',
  replace: 'Replace',
  keepValue: 'Keep',
  replacePlaceholder: 'New value',
  addKey: 'Add Key',
  removeKey: (entryKey: string) => `Remove key ${entryKey || 'row'}`,
  duplicateKey: 'Each key may appear once',
  empty: 'No secrets or config maps yet.',
  save: 'Save',
  saving: 'Saving',
  update: 'Update',
  updating: 'Updating',
  cancel: 'Cancel',
  delete: 'Delete',
  deleteConfirmTitle: 'Delete',
  deleteConfirm: (kind: SecretStoreKind, entryName: string) =>
    `Are you sure you want to delete the ${SECRET_STORE_MESSAGES.kindLabel(kind)} ${entryName} ?`,
  writeOnly: 'Secret values are write-only: the server keeps them encrypted and never sends them back.',
  referenceHint: 'Reference',
} as const;

/** Success toasts of the Secrets page (spec 2 section 8's wording for updates and deletes). */
export const SECRET_TOASTS = {
  created: (entryName: string) => `${entryName} created successfully`,
  updated: (entryName: string) => `${entryName} updated successfully`,
  deleted: (entryName: string) => `${entryName} deleted successfully`,
} as const;
