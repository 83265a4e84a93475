/**
 * Masking of credentials inside documents (canary specs today; connections and other specs
 * later) for readers who may not edit them. The data API applies the same rules in SQL
 * (`lookout_mask_secrets` and `lookout_mask_secret_text`, migration 8), so that filters, casts
 * and JSON paths see masked values too; a server test feeds both the same inputs and expects
 * the same outputs. Change one, change the other.
 *
 * What is masked:
 * - values under a key named like a credential (`password`, `token`, `apiKey`,
 *   `client_secret`, `Authorization`, `Cookie`, ...; see {@link isSecretName}), whole: a
 *   string or number becomes {@link SECRET_MASK}, an object or array is masked inside;
 * - the `value` of a named entry (`{name, value}`: canary-checker's http headers and exec
 *   environment) whose name is such a name (`Authorization`, `X-Api-Key`, `DB_PASSWORD`);
 * - inside every other string: the password of a URL (`scheme://user:pass@host`), the value of
 *   `key=value` and `key: value` pairs whose key is such a name (DSNs, query strings, scripts,
 *   JSON or YAML text), and `Bearer <token>`.
 *
 * What stays: `valueFrom` references (`secretKeyRef`, `configMapKeyRef` name and key), which
 * say where a credential lives without holding it, user names, host names, empty strings and
 * nulls.
 */

/** What a masked value reads as (also in the `endpoint` of checks and in logs). */
export const SECRET_MASK = '***';

/**
 * A URL with its password replaced by {@link SECRET_MASK}, so it can be logged, shown in a
 * message or stored as a check's endpoint (`postgres://app:***@db/app`). Text that is no valid
 * URL still loses what stands between `scheme://user:` and `@`.
 */
export function redactUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value.replace(/(:\/\/[^:/@]*:)[^@]*@/, `$1${SECRET_MASK}@`);
  }
  if (url.password) url.password = SECRET_MASK;
  return url.toString();
}

/**
 * Key and header names that hold credentials, compared lower-cased with everything but letters
 * and digits removed (`X-Api-Key` → `xapikey`), by ending: `DB_PASSWORD`, `accessToken`,
 * `client_secret` and `Proxy-Authorization` all count; `tokenUrl` and `secretKeyRef` do not.
 */
export const SECRET_NAME_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secretkey',
  'token',
  'apikey',
  'privatekey',
  'accesskey',
  'credential',
  'credentials',
  'bearer',
  'authorization',
  'cookie',
] as const;

/** The key under which canary-checker documents reference a secret; kept as it is. */
export const SECRET_REFERENCE_KEY = 'valueFrom';

/** True when a key or header name holds a credential (see {@link SECRET_NAME_ENDINGS}). */
export function isSecretName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAME_ENDINGS.some((ending) => normalized.endsWith(ending));
}

// The three text rules. The SQL twins in migration 8 spell the same patterns in PostgreSQL's
// regular expression dialect (no \b there; [:space:] instead of \s in brackets).

/** `scheme://user:password@` → `scheme://user:***@` (an empty user, as in `redis://:pw@`, too). */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@]+@/gi;
/**
 * `password=…`, `PGPASSWORD=…`, `access_token=…`, `"client_secret": "…"`, `Authorization:
 * Bearer …`: a credential-like key, a `=` or `:` (quotes and blanks around it allowed), an
 * optional auth scheme word, then the value up to a blank, quote, `&`, `;` or `,`.
 */
const KEY_VALUE =
  /([a-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|private[_-]?key|access[_-]?key|credentials?|authorization|cookie))(["']?[ \t]*[:=][ \t]*["']?)((?:bearer|basic|token)[ \t]+)?[^\s"'&;,]+/gi;
/** `Bearer <token>` on its own (a curl line, a message). */
const BEARER_TOKEN = /(^|[^a-z0-9_])(bearer[ \t]+)[a-z0-9._~+/-]+=*/gi;

/** Masks the credentials written inside a text: URL passwords, `key=value` pairs, bearer tokens. */
export function maskSecretText(text: string): string {
  return text
    .replace(URL_PASSWORD, `$1${SECRET_MASK}@`)
    .replace(KEY_VALUE, `$1$2$3${SECRET_MASK}`)
    .replace(BEARER_TOKEN, `$1$2${SECRET_MASK}`);
}

/**
 * A JSON value with its credentials masked (see the rules at the top of this file). The input
 * is not changed; objects keep their keys and order.
 */
export function maskSecrets(value: unknown, underSecret = false): unknown {
  if (typeof value === 'string') {
    if (!underSecret) return maskSecretText(value);
    return value === '' ? value : SECRET_MASK;
  }
  if (typeof value === 'number') return underSecret ? SECRET_MASK : value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, underSecret));
  if (typeof value !== 'object' || value === null) return value;
  const entry = value as Record<string, unknown>;
  const secretEntry = typeof entry.name === 'string' && isSecretName(entry.name);
  const masked: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(entry)) {
    masked[key] =
      key === SECRET_REFERENCE_KEY
        ? item
        : maskSecrets(item, underSecret || isSecretName(key) || (secretEntry && key === 'value'));
  }
  return masked;
}
