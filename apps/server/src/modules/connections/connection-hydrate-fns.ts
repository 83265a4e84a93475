import { isSecretName, maskSecretText, SECRET_MASK } from '@lookout/contracts';
import {
  isCredentialReference,
  openText,
  sealContext,
  SEALED_PREFIX,
  type Sealing,
} from './connection-credentials-fns.js';
import type { StoredConnection } from './connections-repository.js';

/**
 * A connection ready for use: every sealed value opened, every `secret://` / `configmap://`
 * reference resolved and `$(username)` / `$(password)` in its url filled. It lives only for the
 * call that asked for it (a check run, a test) and is never stored, logged or answered.
 */
export type ResolvedConnection = {
  id: string;
  name: string;
  namespace: string;
  type: StoredConnection['type'];
  url?: string;
  username?: string;
  password?: string;
  certificate?: string;
  insecureTls: boolean;
  properties: Record<string, string>;
};

/** Reads `secret://name/key` or `configmap://name/key` in a namespace (the secrets service). */
export type ReferenceResolver = (reference: string, namespace: string) => Promise<string>;

/** A connection that cannot be made ready: the message names the connection and the field. */
export class ConnectionResolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionResolveError';
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens and resolves every credential of a stored row (see {@link ResolvedConnection}). */
export async function hydrateConnection(
  row: StoredConnection,
  deps: { sealing: Pick<Sealing, 'open'>; resolveReference?: ReferenceResolver | undefined },
): Promise<ResolvedConnection> {
  const label = `connection://${row.namespace}/${row.name}`;
  // The reason goes in parentheses: after "password:" the result masking would take its first
  // word for the password itself and hide it.
  const fail = (field: string, error: unknown) =>
    new ConnectionResolveError(`${label}: could not read its ${field} (${errorText(error)})`);

  /** A value stored whole: sealed, a reference, or (written around the data API) plain. */
  const whole = async (value: string | null, field: string, context: string): Promise<string | undefined> => {
    if (value === null) return undefined;
    try {
      if (value.startsWith(SEALED_PREFIX)) return deps.sealing.open(value, context);
      if (isCredentialReference(value)) {
        if (!deps.resolveReference) throw new Error(`${value} cannot be read: this Lookout has no secret store`);
        return await deps.resolveReference(value.trim(), row.namespace);
      }
      return value;
    } catch (error) {
      throw fail(field, error);
    }
  };
  const text = (value: string, field: string, context: string): string => {
    try {
      return openText(value, deps.sealing, context);
    } catch (error) {
      throw fail(field, error);
    }
  };

  const username = await whole(row.username, 'username', 'connections:username');
  const password = await whole(row.password, 'password', sealContext('password'));
  const certificate = await whole(row.certificate, 'certificate', sealContext('certificate'));
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(row.properties ?? {})) {
    properties[key] = isSecretName(key)
      ? ((await whole(value, `properties.${key}`, sealContext('properties'))) ?? '')
      : text(value, `properties.${key}`, sealContext('properties'));
  }
  let url: string | undefined;
  if (row.url !== null) {
    url = isCredentialReference(row.url)
      ? await whole(row.url, 'url', sealContext('url'))
      : text(row.url, 'url', sealContext('url'));
    if (url !== undefined) url = fillPlaceholders(url, username, password);
  }
  return {
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    ...(url !== undefined && url !== '' ? { url } : {}),
    ...(username !== undefined && username !== '' ? { username } : {}),
    ...(password !== undefined && password !== '' ? { password } : {}),
    ...(certificate !== undefined && certificate !== '' ? { certificate } : {}),
    insecureTls: row.insecureTls,
    properties,
  };
}

/** `$(username)` and `$(password)` in a url, filled percent-encoded (empty when unset). */
export function fillPlaceholders(url: string, username?: string, password?: string): string {
  return url
    .replaceAll('$(username)', encodeURIComponent(username ?? ''))
    .replaceAll('$(password)', encodeURIComponent(password ?? ''));
}

/**
 * A message about a connection (a server's error) with the connection's credentials taken out:
 * each opened value, also percent-encoded, reads as '***', and the masking rules run over the
 * rest. Servers rarely quote a password, but a message that did must not carry it further.
 */
export function scrubCredentials(message: string, connection: ResolvedConnection): string {
  const values = new Set<string>();
  const add = (value: string | undefined) => {
    if (value && value.length >= 3) {
      values.add(value);
      values.add(encodeURIComponent(value));
    }
  };
  add(connection.password);
  add(connection.certificate);
  for (const [key, value] of Object.entries(connection.properties)) if (isSecretName(key)) add(value);
  if (connection.url) {
    try {
      add(decodeURIComponent(new URL(connection.url).password));
    } catch {
      // Not a URL: no password of its own.
    }
  }
  let scrubbed = message;
  for (const value of [...values].sort((a, b) => b.length - a.length))
    scrubbed = scrubbed.replaceAll(value, SECRET_MASK);
  return maskSecretText(scrubbed);
}
