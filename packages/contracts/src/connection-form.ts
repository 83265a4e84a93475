/**
 * Converting a connection form into the row the page writes and a stored row back into the
 * form (spec 3 section 4: "saving converts the form into a url plus properties"), and checking
 * a form before it is saved (spec 3 section 5). Pure functions: the web page and the tests use
 * them, and docs/connections.md describes the shapes they produce per type.
 */
import type { ConnectionField, ConnectionFieldColumn, SealedConnectionColumn } from './connection-fields.js';
import { SEALED_CONNECTION_COLUMNS, connectionFormFields, isColumnField } from './connection-fields.js';
import type { ConnectionFormValues } from './connection-service-urls.js';
import { buildServiceUrl } from './connection-service-urls.js';
import type { ConnectionType } from './connections.js';
import {
  CONNECTION_MESSAGES,
  CREDENTIAL_REFERENCE_PATTERN,
  DEFAULT_CONNECTION_NAMESPACE,
  isNotificationConnectionType,
} from './connections.js';
import { SECRET_MASK } from './secret-mask.js';

export type { ConnectionFormValues } from './connection-service-urls.js';

/** A connection row as `GET /api/db/connections` answers it (credentials read as '***' when set). */
export interface StoredConnection {
  name: string;
  namespace?: string | null;
  type: ConnectionType;
  url?: string | null;
  username?: string | null;
  password?: string | null;
  certificate?: string | null;
  insecure_tls?: boolean | null;
  properties?: Record<string, unknown> | null;
}

/**
 * The body of `POST`/`PATCH /api/db/connections` without `id` and `created_by` (ui-calls
 * 3.12). On an update a column set to null is cleared and a column left out keeps its value.
 */
export interface ConnectionWriteBody {
  name: string;
  namespace: string;
  type: ConnectionType;
  url?: string | null;
  username?: string | null;
  password?: string | null;
  certificate?: string | null;
  insecure_tls?: boolean;
  properties: Record<string, string>;
}

/** A form as the page edits it: the values and which sealed credentials are already stored. */
export interface ConnectionFormState {
  values: ConnectionFormValues;
  /**
   * Sealed columns that hold a value the server will not show ('***'). Their field starts
   * empty; left empty, the stored value is kept.
   */
  storedSecrets: readonly SealedConnectionColumn[];
}

const STRING_COLUMNS = [
  'url',
  'username',
  'password',
  'certificate',
] as const satisfies readonly ConnectionFieldColumn[];
type StringColumn = (typeof STRING_COLUMNS)[number];

const isSealed = (key: string): key is SealedConnectionColumn =>
  (SEALED_CONNECTION_COLUMNS as readonly string[]).includes(key);

/** Secrets keep their blanks (a password may start with one); everything else is trimmed. */
function cleaned(field: ConnectionField, value: string | boolean | undefined): string {
  if (typeof value !== 'string') return '';
  return field.kind === 'secret' || field.kind === 'certificate' ? value : value.trim();
}

function defaultValue(field: ConnectionField): string | boolean {
  if (field.kind === 'checkbox') return field.default === true;
  return typeof field.default === 'string' ? field.default : '';
}

/** A new connection's form: name empty, namespace 'default', each field at its default. */
export function connectionFormDefaults(type: ConnectionType): ConnectionFormValues {
  return Object.fromEntries(connectionFormFields(type).map((field) => [field.key, defaultValue(field)]));
}

/** True when a stored credential reads as set but hidden (anything but empty or a reference). */
function isHiddenSecret(value: string | null | undefined): boolean {
  if (value === null || value === undefined || value === '') return false;
  return value === SECRET_MASK || !CREDENTIAL_REFERENCE_PATTERN.test(value);
}

/**
 * The form of a stored connection: columns into their fields, properties into theirs, and a
 * property the row does not fill at its default (unless `fillDefaults` is false: a read-only
 * row from another source shows what it holds, not what a new form would). Sealed credentials
 * that are set start empty and are listed in `storedSecrets`; references are shown as written.
 */
export function connectionRowToForm(
  row: StoredConnection,
  { fillDefaults = true }: { fillDefaults?: boolean } = {},
): ConnectionFormState {
  const values: ConnectionFormValues = {};
  const storedSecrets: SealedConnectionColumn[] = [];
  const properties = row.properties ?? {};
  for (const field of connectionFormFields(row.type)) {
    if (field.key === 'name') values.name = row.name;
    else if (field.key === 'namespace') values.namespace = row.namespace ?? DEFAULT_CONNECTION_NAMESPACE;
    else if (field.key === 'insecure_tls') values.insecure_tls = row.insecure_tls ?? defaultValue(field);
    else if (isColumnField(field.key)) {
      const stored = row[field.key as StringColumn];
      if (isSealed(field.key) && isHiddenSecret(stored)) {
        storedSecrets.push(field.key);
        values[field.key] = '';
      } else values[field.key] = stored ?? '';
    } else {
      const stored = properties[field.key];
      values[field.key] = typeof stored === 'string' ? stored : fillDefaults ? defaultValue(field) : '';
    }
  }
  return { values, storedSecrets };
}

export interface ConnectionWriteOptions {
  /** The row being edited, as it was read; absent when adding a connection. */
  loaded?: StoredConnection;
  storedSecrets?: readonly SealedConnectionColumn[];
}

/**
 * The row a form saves as. Column fields go to their column, the others into `properties`
 * (empty ones left out), and notification types get their service URL. Adding, empty columns
 * are left out. Editing, a cleared column is sent as null, while a stored secret left empty and
 * a column unchanged since it was read are left out: the server keeps them (a url read back
 * with '***' in place of its password must not overwrite the stored one).
 */
export function connectionFormToWrite(
  type: ConnectionType,
  values: ConnectionFormValues,
  options: ConnectionWriteOptions = {},
): ConnectionWriteBody {
  const { loaded, storedSecrets = [] } = options;
  const fields = connectionFormFields(type);
  const body: ConnectionWriteBody = {
    name: typeof values.name === 'string' ? values.name.trim() : '',
    namespace: (typeof values.namespace === 'string' ? values.namespace.trim() : '') || DEFAULT_CONNECTION_NAMESPACE,
    type,
    properties: {},
  };
  const columns: Partial<Record<StringColumn, string>> = {};
  for (const field of fields) {
    if (field.key === 'name' || field.key === 'namespace') continue;
    if (field.key === 'insecure_tls') body.insecure_tls = values.insecure_tls === true;
    else if (isColumnField(field.key)) columns[field.key as StringColumn] = cleaned(field, values[field.key]);
    else {
      const value = cleaned(field, values[field.key]);
      if (value !== '') body.properties[field.key] = value;
    }
  }
  if (isNotificationConnectionType(type)) {
    const serviceUrl = buildServiceUrl(type, values);
    if (serviceUrl !== undefined) columns.url = serviceUrl;
  }
  for (const column of STRING_COLUMNS) {
    if (!(column in columns)) continue;
    const value = columns[column] ?? '';
    if (!loaded) {
      if (value !== '') body[column] = value;
      continue;
    }
    if (value === '' && isSealed(column) && storedSecrets.includes(column)) continue;
    if (value !== '' && value === (loaded[column] ?? '')) continue;
    body[column] = value === '' ? null : value;
  }
  return body;
}

/** Field key → message, for the fields that are not right yet. */
export type ConnectionFormErrors = Record<string, string>;

/** The column limits of connectionWriteSchema, per kind of field. */
const lengthLimit = (field: ConnectionField): number =>
  field.kind === 'certificate' ? 65_536 : field.kind === 'secret' ? 10_000 : 4096;

const PORT_KEYS: ReadonlySet<string> = new Set(['port']);

function numberError(key: string, value: string): string | undefined {
  if (!/^\d+$/.test(value)) return CONNECTION_MESSAGES.wholeNumber;
  const number = Number(value);
  if (PORT_KEYS.has(key) && (number < 1 || number > 65_535)) return CONNECTION_MESSAGES.port;
  return undefined;
}

/**
 * What keeps a form from being saved: required fields left empty ('This field is required';
 * a stored secret counts as filled), ports and numbers that are not whole numbers, choices not
 * on the list, and credential references not written as `secret://<name>/<key>` or
 * `configmap://<name>/<key>`. An empty result means the form can be saved.
 */
export function validateConnectionForm(
  type: ConnectionType,
  values: ConnectionFormValues,
  storedSecrets: readonly SealedConnectionColumn[] = [],
): ConnectionFormErrors {
  const errors: ConnectionFormErrors = {};
  for (const field of connectionFormFields(type)) {
    if (field.kind === 'checkbox') continue;
    const value = cleaned(field, values[field.key]);
    if (value === '' || (field.kind !== 'secret' && field.kind !== 'certificate' && value.trim() === '')) {
      const stored = isSealed(field.key) && storedSecrets.includes(field.key);
      if (field.required && !stored) errors[field.key] = CONNECTION_MESSAGES.required;
      continue;
    }
    if (field.kind === 'number') {
      const error = numberError(field.key, value);
      if (error) errors[field.key] = error;
    } else if (field.kind === 'select' && field.options && !field.options.includes(value)) {
      errors[field.key] = `${CONNECTION_MESSAGES.choose} ${field.options.join(', ')}`;
    } else if (
      (field.kind === 'credential' || field.kind === 'secret' || field.kind === 'certificate') &&
      /^(secret|configmap):\/\//.test(value.trim()) &&
      !CREDENTIAL_REFERENCE_PATTERN.test(value.trim())
    ) {
      errors[field.key] = CONNECTION_MESSAGES.reference;
    } else if (value.length > lengthLimit(field)) {
      errors[field.key] = CONNECTION_MESSAGES.tooLong;
    }
  }
  if (typeof values.name === 'string' && values.name.trim().length > 255) errors.name = CONNECTION_MESSAGES.nameTooLong;
  return errors;
}
