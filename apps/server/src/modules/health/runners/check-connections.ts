import { isConnectionReference, type CanaryCheckEntry, type SecretOrValue } from '@lookout/contracts';
import { errorText } from './runner-fns.js';

/**
 * Checks that name a connection (`connection: connection://<namespace>/<name>`, or a postgres or
 * mysql `url` that is one) get its url and credentials filled in just before they run: the
 * connection is read at use time, so a changed password counts at the next run. The check's
 * own fields win over the connection's. The filled-in check lives only for that run.
 */

/** A connection as a check run needs it: every credential opened and resolved. */
export type CheckConnection = {
  url?: string;
  username?: string;
  password?: string;
  insecureTls: boolean;
  properties: Readonly<Record<string, string>>;
};

/** Reads a connection by its reference (the connections module's `resolve`). */
export type ConnectionResolver = (reference: string) => Promise<CheckConnection>;

/**
 * Reads a connection for a check of a canary in `namespace`: `connection://<name>` means that
 * namespace (the connections module's `resolve`, which app.ts hands the health module).
 */
export type CanaryConnectionResolver = (reference: string, namespace: string) => Promise<CheckConnection>;

/** The `resolveConnection` run option for a check of a canary in `namespace` (none without a resolver). */
export function connectionsFor(
  resolve: CanaryConnectionResolver | undefined,
  namespace: string,
): { resolveConnection?: ConnectionResolver } {
  return resolve ? { resolveConnection: (reference) => resolve(reference, namespace) } : {};
}

/** The connection a check names, if it names one. */
export function connectionReferenceOf(entry: CanaryCheckEntry): string | undefined {
  switch (entry.type) {
    case 'postgres':
    case 'mysql':
      return [entry.check.connection, entry.check.url].find(isConnectionReference);
    case 'redis':
    case 'http':
    case 'prometheus':
    case 'alertmanager':
      return entry.check.connection;
    default:
      return undefined;
  }
}

const given = (value: string | undefined): SecretOrValue | undefined =>
  value === undefined || value === '' ? undefined : { value };

/** The url with the connection's user and password in it, when it has none of its own. */
function withUserInfo(text: string, connection: CheckConnection): string {
  try {
    const url = new URL(text);
    if (!url.username && connection.username) url.username = encodeURIComponent(connection.username);
    if (!url.password && connection.password) url.password = encodeURIComponent(connection.password);
    return url.toString();
  } catch {
    return text;
  }
}

/** `host:port` and the database of a redis connection's url (`redis://host:6379/2`, or `host:6379`). */
function redisAddress(text: string): { addr: string; db?: number } {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `redis://${text}`);
  const db = Number(url.pathname.replace(/^\//, '') || NaN);
  return { addr: `${url.hostname}:${url.port || '6379'}`, ...(Number.isInteger(db) ? { db } : {}) };
}

/** The check with the connection's url and credentials filled in where it sets none. */
export function applyConnection(entry: CanaryCheckEntry, connection: CheckConnection): CanaryCheckEntry {
  const url = connection.url ?? '';
  switch (entry.type) {
    case 'postgres':
    case 'mysql': {
      const { connection: _named, ...check } = entry.check;
      const username = check.username ?? given(connection.username);
      const password = check.password ?? given(connection.password);
      return {
        ...entry,
        check: {
          ...check,
          url: isConnectionReference(check.url) ? url : (check.url ?? url),
          ...(username ? { username } : {}),
          ...(password ? { password } : {}),
        },
      } as CanaryCheckEntry;
    }
    case 'redis': {
      const { connection: _named, ...check } = entry.check;
      const target = redisAddress(url);
      const db = check.db ?? (connection.properties.db ? Number(connection.properties.db) : target.db);
      const username = check.username ?? given(connection.username);
      const password = check.password ?? given(connection.password);
      return {
        ...entry,
        check: {
          ...check,
          addr: check.addr ?? target.addr,
          ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
          ...(username ? { username } : {}),
          ...(password ? { password } : {}),
        },
      };
    }
    case 'http': {
      const { connection: _named, ...check } = entry.check;
      const target = check.url ?? check.endpoint ?? url;
      // A user and password are basic auth; a password alone is a bearer token (as the
      // connection test sends them).
      const authentication =
        check.authentication ??
        (connection.username
          ? { username: { value: connection.username }, password: { value: connection.password ?? '' } }
          : undefined);
      const bearer =
        !check.authentication && !connection.username && connection.password
          ? [{ name: 'Authorization', value: `Bearer ${connection.password}` }]
          : [];
      const headers = [...(check.headers ?? []), ...bearer];
      return {
        ...entry,
        check: {
          ...check,
          url: target,
          ...(authentication ? { authentication } : {}),
          ...(headers.length > 0 ? { headers } : {}),
          ...(check.tlsConfig || !connection.insecureTls ? {} : { tlsConfig: { insecureSkipVerify: true } }),
        },
      };
    }
    case 'prometheus':
    case 'alertmanager': {
      const { connection: _named, ...check } = entry.check;
      // The monitoring runners turn a url's user and password into basic auth.
      return {
        ...entry,
        check: { ...check, url: check.url ?? check.host ?? withUserInfo(url, connection) },
      } as CanaryCheckEntry;
    }
    default:
      return entry;
  }
}

/**
 * The check ready to run: as it is when it names no connection, with the connection applied
 * when it does, or the reason the connection could not be read.
 */
export async function resolveCheckConnection(
  entry: CanaryCheckEntry,
  resolve: ConnectionResolver | undefined,
): Promise<{ ok: true; entry: CanaryCheckEntry } | { ok: false; message: string }> {
  const reference = connectionReferenceOf(entry);
  if (!reference) return { ok: true, entry };
  if (!resolve) return { ok: false, message: `could not read ${reference}: connections are not available here` };
  try {
    const connection = await resolve(reference);
    if (!connection.url && !(entry.type === 'redis' && entry.check.addr)) {
      return { ok: false, message: `${reference} has no URL; set one on the connection` };
    }
    return { ok: true, entry: applyConnection(entry, connection) };
  } catch (error) {
    return { ok: false, message: `could not read ${reference}: ${errorText(error)}` };
  }
}
