import type { PgrestHeaders } from '../engine-types.js';
import { PgrstError } from '../errors/pgrst-error.js';

/** The `[{"Name": "value"}, …]` entries of `response.headers`, in order (PGRST111 when malformed). */
function gucHeaderEntries(gucHeaders: string): [string, string][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(gucHeaders);
  } catch {
    parsed = undefined;
  }
  const invalid = new PgrstError({
    status: 500,
    code: 'PGRST111',
    message: 'response.headers guc must be a JSON array composed of objects with a single key and a string value',
  });
  if (!Array.isArray(parsed)) throw invalid;
  return parsed.map((entry: unknown): [string, string] => {
    if (typeof entry !== 'object' || entry === null) throw invalid;
    const pairs = Object.entries(entry as Record<string, unknown>);
    const pair = pairs[0];
    if (pairs.length !== 1 || !pair || typeof pair[1] !== 'string') throw invalid;
    return [pair[0], pair[1]];
  });
}

/**
 * Applies `response.headers` and `response.status` set by SQL during the request, as
 * PostgREST does: a header the setting names replaces the engine's header of that name
 * (names compare without case), and every entry is sent, so two `Set-Cookie` entries give
 * two `Set-Cookie` headers (one key whose value lists both, under the first entry's spelling).
 */
export function applyResponseGucs(
  status: number,
  headers: PgrestHeaders,
  gucHeaders: string | null | undefined,
  gucStatus: string | null | undefined,
): { status: number; headers: PgrestHeaders } {
  let finalStatus = status;
  if (gucStatus) {
    const parsed = Number(gucStatus);
    if (!Number.isInteger(parsed) || parsed < 100 || parsed > 599) {
      throw new PgrstError({
        status: 500,
        code: 'PGRST112',
        message: 'response.status guc must be a valid status code',
      });
    }
    finalStatus = parsed;
  }
  if (!gucHeaders) return { status: finalStatus, headers: { ...headers } };
  const entries = gucHeaderEntries(gucHeaders);
  const named = new Set(entries.map(([name]) => name.toLowerCase()));
  const finalHeaders: PgrestHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!named.has(name.toLowerCase())) finalHeaders[name] = value;
  const keyOf = new Map<string, string>();
  for (const [name, value] of entries) {
    const key = keyOf.get(name.toLowerCase());
    if (key === undefined) {
      keyOf.set(name.toLowerCase(), name);
      finalHeaders[name] = value;
      continue;
    }
    const earlier = finalHeaders[key] ?? [];
    finalHeaders[key] = [...(typeof earlier === 'string' ? [earlier] : earlier), value];
  }
  return { status: finalStatus, headers: finalHeaders };
}
