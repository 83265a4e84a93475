import { PgrstError } from '../errors/pgrst-error.js';

/**
 * Applies `response.headers` and `response.status` set by SQL during the request, as
 * PostgREST does (headers are added unless the engine already set them... or replaced
 * when the function set the same header).
 */
export function applyResponseGucs(
  status: number,
  headers: Record<string, string>,
  gucHeaders: string | null | undefined,
  gucStatus: string | null | undefined,
): { status: number; headers: Record<string, string> } {
  let finalStatus = status;
  const finalHeaders = { ...headers };
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
  if (gucHeaders) {
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
    for (const entry of parsed) {
      if (typeof entry !== 'object' || entry === null) throw invalid;
      const pairs = Object.entries(entry as Record<string, unknown>);
      const pair = pairs[0];
      if (pairs.length !== 1 || !pair || typeof pair[1] !== 'string') throw invalid;
      const existing = Object.keys(finalHeaders).find((key) => key.toLowerCase() === pair[0].toLowerCase());
      if (existing !== undefined) delete finalHeaders[existing];
      finalHeaders[pair[0]] = pair[1];
    }
  }
  return { status: finalStatus, headers: finalHeaders };
}
