import {
  createSecretStoreEntrySchema,
  DEFAULT_SECRET_NAMESPACE,
  SECRET_STORE_MESSAGES,
  SECRETS_PAGE_TEXTS,
  secretStoreKeySchema,
  secretStoreNameSchema,
  secretStoreNamespaceSchema,
  updateSecretStoreEntrySchema,
  type CreateSecretStoreEntry,
  type SecretStoreEntry,
  type SecretStoreKind,
  type UpdateSecretStoreEntry,
} from '@lookout/contracts';

/**
 * The secret form's state and its rules: one row per key, where a secret's stored key shows
 * only that its value is set until the user chooses to replace it. The body sent for an
 * update names every key kept, with `null` for a stored value that stays (the server keeps
 * it: the console never has it).
 */

export interface KeyRow {
  /** Stable row identity for React and for error messages. */
  id: string;
  key: string;
  value: string;
  /** The key exists on the server (its name is fixed; a secret's value is not known here). */
  stored: boolean;
  /** A stored secret key whose value the user is replacing. */
  replacing: boolean;
}

export interface SecretFormState {
  kind: SecretStoreKind;
  namespace: string;
  name: string;
  rows: KeyRow[];
}

export interface SecretFormErrors {
  namespace?: string;
  name?: string;
  /** By row id. */
  rows: Record<string, { key?: string; value?: string }>;
  /** About the entry as a whole (no keys, too much data). */
  form?: string;
}

let nextRowId = 0;
const rowId = () => `row-${(nextRowId += 1)}`;

/** An empty key row. */
export const newRow = (): KeyRow => ({ id: rowId(), key: '', value: '', stored: false, replacing: false });

/** The form for a new entry, or for editing `entry` (config map values filled in, secret values unknown). */
export function formOf(entry?: SecretStoreEntry): SecretFormState {
  if (!entry) return { kind: 'secret', namespace: DEFAULT_SECRET_NAMESPACE, name: '', rows: [newRow()] };
  return {
    kind: entry.kind,
    namespace: entry.namespace,
    name: entry.name,
    rows: entry.keys.map((key) => ({
      id: rowId(),
      key: key.key,
      value: key.value ?? '',
      stored: true,
      replacing: false,
    })),
  };
}

/** A stored secret key the user left alone: its value stays on the server. */
export const keepsStoredValue = (state: SecretFormState, row: KeyRow): boolean =>
  state.kind === 'secret' && row.stored && !row.replacing;

/** Problems to show beside the fields; empty when the form may be sent. */
export function validateForm(state: SecretFormState, editing: boolean): SecretFormErrors {
  const errors: SecretFormErrors = { rows: {} };
  if (!editing) {
    const namespace = secretStoreNamespaceSchema.safeParse(state.namespace);
    if (!namespace.success) errors.namespace = namespace.error.issues[0]?.message;
    const name = secretStoreNameSchema.safeParse(state.name);
    if (!name.success) errors.name = name.error.issues[0]?.message;
  }
  if (state.rows.length === 0) errors.form = SECRET_STORE_MESSAGES.noKeys;
  const seen = new Set<string>();
  for (const row of state.rows) {
    const key = secretStoreKeySchema.safeParse(row.key);
    if (!key.success) errors.rows[row.id] = { key: key.error.issues[0]?.message };
    else if (seen.has(row.key)) errors.rows[row.id] = { key: SECRETS_PAGE_TEXTS.duplicateKey };
    seen.add(row.key);
  }
  if (!errors.form && Object.keys(errors.rows).length === 0 && !errors.name && !errors.namespace) {
    // Bounds of the whole entry (key count, value sizes), as the server checks them.
    const checked = editing
      ? updateSecretStoreEntrySchema.safeParse(updateBodyOf(state))
      : createSecretStoreEntrySchema.safeParse(createBodyOf(state));
    if (!checked.success) errors.form = checked.error.issues[0]?.message;
  }
  return errors;
}

export const hasErrors = (errors: SecretFormErrors): boolean =>
  Boolean(errors.name || errors.namespace || errors.form || Object.keys(errors.rows).length > 0);

/** `POST /api/secrets`'s body. */
export function createBodyOf(state: SecretFormState): CreateSecretStoreEntry {
  return {
    kind: state.kind,
    namespace: state.namespace.trim(),
    name: state.name.trim(),
    data: Object.fromEntries(state.rows.map((row) => [row.key, row.value])),
  };
}

/** `PUT /api/secrets/{kind}/{namespace}/{name}`'s body: kept secret values as `null`. */
export function updateBodyOf(state: SecretFormState): UpdateSecretStoreEntry {
  return {
    data: Object.fromEntries(state.rows.map((row) => [row.key, keepsStoredValue(state, row) ? null : row.value])),
  };
}
