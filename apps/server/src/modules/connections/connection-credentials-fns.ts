import { CONNECTION_SECRET_MARKER, CREDENTIAL_REFERENCE_PATTERN, isSecretName } from '@lookout/contracts';

/**
 * Where the credentials of a connection row are, and how each is sealed, kept or opened. Pure:
 * the sealer comes in as two functions, so these rules are tested without keys or a database.
 *
 * - Credential columns (`password`, `certificate`) and properties under a credential-like key
 *   (isSecretName: `token`, `apiKey`, `client_secret`, ...) are credentials as a whole.
 * - In `url` and every other property value, the credentials are the places the shared
 *   masking rules (maskSecretText, SQL lookout_mask_secret_text) hide: a url's password,
 *   `password=…`-style pairs and bearer tokens. Each is sealed where it stands
 *   (`postgres://app:sealed:v1:…@db/app`), so the rest of the text stays as written and reads
 *   show exactly what the mask shows.
 *
 * A value equal to {@link CONNECTION_SECRET_MARKER} at such a place means "keep what is stored
 * there"; a reference (`secret://name/key`, `configmap://name/key`) in a credential column or
 * property is kept as written.
 */

/** One sealed value as sealed-values.ts writes it (base64url parts). */
export const SEALED_VALUE_PATTERN = /sealed:v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+/g;
/** Text a writer may not send: it would pass for a sealed value. */
export const SEALED_PREFIX = 'sealed:v1:';

/** The columns whose whole value is a credential. */
export const CREDENTIAL_COLUMNS = ['password', 'certificate'] as const;
export type CredentialColumn = (typeof CREDENTIAL_COLUMNS)[number];

/** The stored credential-bearing columns of one connection, as the repository reads them. */
export type StoredCredentials = {
  url: string | null;
  password: string | null;
  certificate: string | null;
  properties: Record<string, string> | null;
};

export type Sealing = {
  seal: (plain: string, context: string) => string;
  open: (sealed: string, context: string) => string;
};

/** A write that cannot be sealed as sent; the message says what to send instead. */
export class CredentialWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialWriteError';
  }
}

/** The associated data a column's values are sealed with: they open in no other column. */
export function sealContext(column: 'url' | CredentialColumn | 'properties'): string {
  return `connections:${column}`;
}

export function isCredentialReference(value: string): boolean {
  return CREDENTIAL_REFERENCE_PATTERN.test(value.trim());
}

// The slot patterns mirror URL_PASSWORD, KEY_VALUE and BEARER_TOKEN of secret-mask.ts; each also
// accepts the marker as a value, so a write that sends a mask back is found where it stands.
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)([^\s@]+)@/gi;
const KEY_VALUE =
  /([a-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|private[_-]?key|access[_-]?key|credentials?|authorization|cookie))(["']?[ \t]*[:=][ \t]*["']?)((?:bearer|basic|token)[ \t]+)?([^\s"'&;,]+)/gi;
const BEARER_TOKEN = /(^|[^a-z0-9_])(bearer[ \t]+)([a-z0-9._~+/-]+=*|\*\*\*)/gi;

/** `$(username)` / `$(password)`: filled from the columns when the connection is used. */
const FILLED_AT_USE = /^\$\((?:username|password)\)$/;

/** Stand-ins for sealed values while a text is scanned, so no pattern looks inside one. */
// eslint-disable-next-line no-control-regex -- NUL cannot occur in stored text, so it marks stand-ins
const HOLDER = /\u0000(\d+)\u0000/g;

type Slot = { id: string; value: string };

/**
 * Calls `rewrite` for every credential place of a text, in order, with an id that names the
 * place across versions of the text (`url#0`, `pair:password#0`, `bearer#1`) and its value;
 * sealed values are handed over as they are stored. Returns the text with each place's value
 * replaced by what `rewrite` returned.
 */
export function rewriteTextCredentials(text: string, rewrite: (slot: Slot) => string): string {
  const held: string[] = [];
  const hold = (value: string) => `\u0000${held.push(value) - 1}\u0000`;
  const release = (value: string) => value.replace(HOLDER, (_all, index: string) => held[Number(index)] ?? '');
  const counts = new Map<string, number>();
  const place = (name: string) => {
    const n = counts.get(name) ?? 0;
    counts.set(name, n + 1);
    return `${name}#${n}`;
  };
  const visit = (name: string, value: string) => hold(rewrite({ id: place(name), value: release(value) }));

  let working = text.replace(SEALED_VALUE_PATTERN, (sealed) => hold(sealed));
  working = working.replace(URL_PASSWORD, (_all, prefix: string, value: string) => `${prefix}${visit('url', value)}@`);
  working = working.replace(
    KEY_VALUE,
    (_all, key: string, separator: string, scheme: string | undefined, value: string) =>
      `${key}${separator}${scheme ?? ''}${visit(`pair:${key.toLowerCase()}`, value)}`,
  );
  working = working.replace(
    BEARER_TOKEN,
    (_all, before: string, bearer: string, value: string) => `${before}${bearer}${visit('bearer', value)}`,
  );
  return release(working);
}

/** The values at each credential place of a (stored) text, by place id. */
function textSlots(text: string | null | undefined): Map<string, string> {
  const slots = new Map<string, string>();
  if (text) {
    rewriteTextCredentials(text, (slot) => {
      slots.set(slot.id, slot.value);
      return slot.value;
    });
  }
  return slots;
}

/**
 * Seals every credential place of a text written to `column`: a sealed value stays, the marker
 * takes the stored value of the same place (`stored`; none is an error), anything else is sealed.
 */
export function sealText(
  text: string,
  options: { sealing: Pick<Sealing, 'seal'>; context: string; stored?: string | null; where: string },
): string {
  const stored = textSlots(options.stored);
  return rewriteTextCredentials(text, (slot) => {
    if (slot.value.startsWith(SEALED_PREFIX) || FILLED_AT_USE.test(slot.value)) return slot.value;
    if (slot.value === CONNECTION_SECRET_MARKER) {
      const kept = stored.get(slot.id);
      if (kept === undefined) throw new CredentialWriteError(markerWithoutValue(options.where));
      return kept;
    }
    return options.sealing.seal(slot.value, options.context);
  });
}

/**
 * A credential written as a whole (password, certificate, a credential property): null and ''
 * as they are, a reference as written (trimmed), the marker as the stored value, else sealed.
 */
export function sealCredential(
  value: string | null,
  options: { sealing: Pick<Sealing, 'seal'>; context: string; stored?: string | null | undefined; where: string },
): string | null {
  if (value === null || value === '') return value;
  if (isCredentialReference(value)) return value.trim();
  if (value === CONNECTION_SECRET_MARKER) {
    if (!options.stored) throw new CredentialWriteError(markerWithoutValue(options.where));
    return options.stored;
  }
  return options.sealing.seal(value, options.context);
}

/** Seals a properties object: credential-like keys as credentials, the rest as texts. */
export function sealProperties(
  properties: Record<string, string>,
  options: { sealing: Pick<Sealing, 'seal'>; stored?: Record<string, string> | null },
): Record<string, string> {
  const context = sealContext('properties');
  const sealed: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) {
    const stored = options.stored && Object.hasOwn(options.stored, key) ? options.stored[key] : undefined;
    const where = `properties.${key}`;
    sealed[key] = isSecretName(key)
      ? (sealCredential(value, { sealing: options.sealing, context, stored, where }) ?? '')
      : sealText(value, { sealing: options.sealing, context, stored: stored ?? null, where });
  }
  return sealed;
}

/** Opens every sealed value inside a text written to `column`. */
export function openText(text: string, sealing: Pick<Sealing, 'open'>, context: string): string {
  return text.replace(SEALED_VALUE_PATTERN, (sealed) => sealing.open(sealed, context));
}

/** Whether a write body value tries to pass for a sealed value (refused: only Lookout seals). */
export function containsSealedText(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(SEALED_PREFIX);
  if (value && typeof value === 'object') return Object.values(value).some(containsSealedText);
  return false;
}

/** Every sealed value a stored text holds. */
export function sealedValuesIn(text: string | null | undefined): string[] {
  return text ? (text.match(SEALED_VALUE_PATTERN) ?? []) : [];
}

function markerWithoutValue(where: string): string {
  return `${where} is '${CONNECTION_SECRET_MARKER}', which keeps a stored value, but this connection has none there; type the value itself.`;
}
