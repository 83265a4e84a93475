import { CONNECTION_TYPES, redactUrl } from '@lookout/contracts';
import {
  containsSealedText,
  CredentialWriteError,
  sealContext,
  sealCredential,
  sealProperties,
  sealText,
  SEALED_PREFIX,
  type Sealing,
  type StoredCredentials,
} from './connection-credentials-fns.js';

/**
 * Checks and seals the rows of a write to `connections` through /api/db (POST, PATCH, PUT with
 * a JSON body), before the engine runs it. Pure: the stored credentials (for '***' sent back)
 * and the sealer are handed in.
 */

const TYPES: ReadonlySet<string> = new Set(CONNECTION_TYPES);
const LIMITS = { name: 255, namespace: 255, url: 4096, username: 4096, password: 10_000, certificate: 65_536 };
const PROPERTY_LIMITS = { count: 200, key: 200, value: 10_000 };
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
// Placeholders the notification service URLs carry (connection-service-urls.ts); filled at use.
const PLACEHOLDERS = /\$\((?:username|password)\)/g;

export type WriteMode = 'create' | 'update';

/** Whatever is wrong with one row of the body, each naming its field. */
export function connectionRowProblems(row: unknown, mode: WriteMode): string[] {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return ['Each connection must be a JSON object of columns.'];
  }
  const problems: string[] = [];
  const has = (key: string) => Object.hasOwn(row, key);
  const value = (key: string) => (row as Record<string, unknown>)[key];

  const text = (key: 'name' | 'namespace', required: boolean) => {
    if (!has(key)) {
      if (required) problems.push(`${key} is required.`);
      return;
    }
    const given = value(key);
    if (typeof given !== 'string' || given.trim() === '') problems.push(`${key} must be a non-empty text.`);
    else if (given.length > LIMITS[key]) problems.push(`${key} must be at most ${LIMITS[key]} characters.`);
  };
  text('name', mode === 'create');
  text('namespace', false);

  if (has('type') || mode === 'create') {
    const type = value('type');
    if (typeof type !== 'string' || !TYPES.has(type)) {
      problems.push(
        `${type === undefined ? 'type is required' : `type ${JSON.stringify(type)} is not a connection type`}; use one of ${CONNECTION_TYPES.join(', ')}.`,
      );
    }
  }
  for (const key of ['username', 'password', 'certificate'] as const) {
    const given = value(key);
    if (given === undefined || given === null) continue;
    if (typeof given !== 'string') problems.push(`${key} must be a text or null.`);
    else if (given.length > LIMITS[key]) problems.push(`${key} must be at most ${LIMITS[key]} characters.`);
  }
  const url = value('url');
  if (url !== undefined && url !== null) {
    const problem = typeof url === 'string' ? urlProblem(url) : 'url must be a text or null.';
    if (problem) problems.push(problem);
  }
  if (has('insecure_tls') && typeof value('insecure_tls') !== 'boolean') {
    problems.push('insecure_tls must be true or false.');
  }
  const properties = value('properties');
  if (properties !== undefined && properties !== null) problems.push(...propertiesProblems(properties));
  for (const key of ['url', 'username', 'password', 'certificate', 'properties']) {
    if (containsSealedText(value(key))) {
      problems.push(
        `${key} holds '${SEALED_PREFIX}', which only Lookout writes (for sealed values); send the value itself.`,
      );
    }
  }
  return problems;
}

/** Why a url cannot be stored, or undefined. Never quotes a password. */
export function urlProblem(url: string): string | undefined {
  if (url.length > LIMITS.url) return `url must be at most ${LIMITS.url} characters.`;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\s\u0000-\u001f\u007f]/.test(url)) {
    return `url '${redactUrl(url.trim())}' holds spaces or line breaks; a URL has none (encode a space as %20).`;
  }
  if (!SCHEME.test(url)) return undefined; // host names, paths, git@host:repo.git, s3:https://…
  try {
    const parsed = new URL(url.replace(PLACEHOLDERS, 'placeholder'));
    if (
      parsed.host === '' &&
      /^(https?|postgres(ql)?|mysql|redis|rediss|ldaps?|mongodb|smtp):$/.test(parsed.protocol)
    ) {
      return `url '${redactUrl(url)}' names no host; write it as ${parsed.protocol}//host:port/...`;
    }
    return undefined;
  } catch {
    return `url '${redactUrl(url)}' is not a valid URL; write it as scheme://user@host:port/path (percent-encode special characters).`;
  }
}

function propertiesProblems(properties: unknown): string[] {
  if (typeof properties !== 'object' || Array.isArray(properties) || properties === null) {
    return ['properties must be an object whose values are texts, e.g. {"region": "eu-west-1"}.'];
  }
  const entries = Object.entries(properties);
  const problems: string[] = [];
  if (entries.length > PROPERTY_LIMITS.count) {
    problems.push(`properties may have at most ${PROPERTY_LIMITS.count} entries.`);
  }
  for (const [key, item] of entries) {
    if (key.length === 0 || key.length > PROPERTY_LIMITS.key) {
      problems.push(`properties keys must have 1 to ${PROPERTY_LIMITS.key} characters.`);
    } else if (typeof item !== 'string') {
      problems.push(
        `properties.${key} must be a text (got ${item === null ? 'null' : Array.isArray(item) ? 'a list' : typeof item}); write numbers and yes/no as text, e.g. "5432" or "true".`,
      );
    } else if (item.length > PROPERTY_LIMITS.value) {
      problems.push(`properties.${key} must be at most ${PROPERTY_LIMITS.value} characters.`);
    }
  }
  return problems;
}

/** Whether a row sends a '***' back that only the stored row can fill. */
export function rowNeedsStored(row: Record<string, unknown>): boolean {
  const marker = (text: unknown) => typeof text === 'string' && text.includes('***');
  const properties = row.properties;
  return (
    marker(row.url) ||
    marker(row.password) ||
    marker(row.certificate) ||
    (typeof properties === 'object' && properties !== null && Object.values(properties).some(marker))
  );
}

/**
 * The row with its credentials sealed: password and certificate whole, the credential places
 * of url, and properties (credential-like keys whole, other values by place). A '***' takes
 * the stored value of the same place; references are kept as written.
 */
export function sealConnectionRow(
  row: Record<string, unknown>,
  sealing: Pick<Sealing, 'seal'>,
  stored?: StoredCredentials,
): Record<string, unknown> {
  const sealed: Record<string, unknown> = { ...row };
  if (typeof row.url === 'string') {
    sealed.url = sealText(row.url, { sealing, context: sealContext('url'), stored: stored?.url ?? null, where: 'url' });
  }
  for (const column of ['password', 'certificate'] as const) {
    const value = row[column];
    if (typeof value !== 'string') continue;
    sealed[column] = sealCredential(value, {
      sealing,
      context: sealContext(column),
      stored: stored?.[column],
      where: column,
    });
  }
  if (typeof row.properties === 'object' && row.properties !== null) {
    sealed.properties = sealProperties(row.properties as Record<string, string>, {
      sealing,
      stored: stored?.properties ?? null,
    });
  }
  return sealed;
}

export { CredentialWriteError };
