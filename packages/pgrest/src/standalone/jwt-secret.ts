import type { JWK } from 'jose';
import { ConfigError } from './config-error.js';

/**
 * `jwt-secret` as PostgREST reads it: `@path` reads the file (one trailing newline dropped),
 * `jwt-secret-is-base64` decodes it, then a JSON Web Key Set (`{"keys": […]}`) or Key
 * (`{"kty": …}`) is a set of keys, and anything else a text secret of at least 32 characters.
 */
export function readJwtSecret(
  value: string | undefined,
  isBase64: boolean,
  readFile: ((path: string) => string) | undefined,
): { secret: Uint8Array | undefined; jwks: JWK[] | undefined } {
  if (value === undefined) return { secret: undefined, jwks: undefined };
  let textValue = value;
  if (value.startsWith('@')) {
    const path = value.slice(1);
    if (!readFile) throw new ConfigError('jwt-secret', `cannot read ${path} here`);
    try {
      textValue = readFile(path).replace(/\n$/, '');
    } catch (error) {
      throw new ConfigError('jwt-secret', `cannot read ${path} (${(error as Error).message})`);
    }
  }
  const bytes = isBase64 ? decodeBase64Secret(textValue) : new TextEncoder().encode(textValue);
  const jwks = jsonWebKeys(new TextDecoder().decode(bytes));
  if (jwks) return { secret: undefined, jwks };
  // PostgREST 13+ refuses to start with a secret shorter than 32 characters.
  if (bytes.length < 32) throw new ConfigError('jwt-secret', 'must be at least 32 characters long');
  return { secret: bytes, jwks: undefined };
}

function isJwk(value: unknown): value is JWK {
  return typeof value === 'object' && value !== null && typeof (value as { kty?: unknown }).kty === 'string';
}

/** The keys of a JSON Web Key Set or of one JSON Web Key; undefined for other text. */
function jsonWebKeys(text: string): JWK[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const keys = (parsed as { keys?: unknown }).keys;
  if (Array.isArray(keys)) {
    if (keys.length === 0 || !keys.every(isJwk))
      throw new ConfigError('jwt-secret', 'a JSON Web Key Set needs at least one key, each with a "kty"');
    return keys;
  }
  return isJwk(parsed) ? [parsed] : undefined;
}

function decodeBase64Secret(text: string): Uint8Array {
  const cleaned = text.replace(/-/g, '+').replace(/_/g, '/').trim();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(cleaned))
    throw new ConfigError('jwt-secret', 'is not valid base64 (jwt-secret-is-base64 = true)');
  return new Uint8Array(Buffer.from(cleaned, 'base64'));
}
