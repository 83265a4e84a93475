import { can, dataApiResource, type Role } from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../data-api/data-api-service.js';
import { guardDataApiWrites } from '../../http/data-api-write-guard.js';
import { validateCanaryWriteBody } from './health-canary-fns.js';

/**
 * Health's rules for writes through /api/db, applied before the data API runs them:
 *
 * - `canaries`: the row's spec (and name, namespace, labels) must pass the same validation as
 *   `POST /api/canary/apply`; a refusal is a PostgREST-style 400 whose message names the field.
 *   The database then derives the checks in the same transaction (trigger), so a canary saved
 *   from the console's form is scheduled at once. Only JSON bodies are accepted, so nothing
 *   reaches the table unvalidated.
 * - `checks`, `check_statuses`, the roll-ups, job history and the health views are derived or
 *   written by the workers: they are read-only here (405, as the data API answers for its
 *   read-only relations), except a check's `silenced_at`.
 *
 * It wraps the data API service rather than living inside it so the data API stays free of
 * per-domain rules; app.ts composes the two.
 */

/** Read-only relations of the health module, with why. */
const READ_ONLY: Record<string, string> = {
  check_statuses: 'check_statuses is written by the check scheduler and is read-only here.',
  check_statuses_1h: 'check_statuses_1h is written by the roll-up job and is read-only here.',
  check_statuses_1d: 'check_statuses_1d is written by the roll-up job and is read-only here.',
  canaries_with_status: 'canaries_with_status is a view; write canaries instead.',
  job_histories: 'job_histories is written by background jobs and is read-only here.',
  job_history_names: 'job_history_names is a view of job history; it is read-only.',
};
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Columns of `checks` that may be changed through /api/db. */
const CHECK_EDITABLE = new Set(['silenced_at']);

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

/**
 * Returns the refusal for a health write, or undefined when the data API may run it. Callers
 * who may not write the relation at all are left to the data API, which answers 403 (or 404).
 */
export function checkHealthWrite(request: PgrestRequest, roles: readonly Role[]): PgrestResponse | undefined {
  if (!WRITES.has(request.method)) return undefined;
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  const resource = dataApiResource(relation);
  if (!resource || !can(roles, resource, 'write')) return undefined;
  const readOnly = Object.hasOwn(READ_ONLY, relation) ? READ_ONLY[relation] : undefined;
  if (readOnly) return refusal(405, 'PGRST117', readOnly);
  if (relation === 'checks') {
    if (request.method !== 'PATCH') {
      return refusal(
        405,
        'PGRST117',
        "checks are derived from their canary's spec; create, change or remove checks by changing the canary.",
      );
    }
    const columns = bodyColumns(request.body === undefined ? undefined : requestBodyText(request.body));
    const locked = columns?.filter((column) => !CHECK_EDITABLE.has(column)) ?? [];
    if (columns === undefined || locked.length > 0) {
      return refusal(
        405,
        'PGRST117',
        `Only silenced_at of a check can be changed here; ${locked.length > 0 ? locked.join(', ') : 'the body'} comes from its canary's spec.`,
      );
    }
    return undefined;
  }
  if (relation !== 'canaries' || request.method === 'DELETE') return undefined;

  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return refusal(415, 'PGRST107', 'canaries accept JSON bodies only, so that their spec can be validated.');
  }
  // A body that is not UTF-8 is refused by the data API before any SQL (PGRST102).
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return undefined;
  const problems = validateCanaryWriteBody(request.method as 'POST' | 'PUT' | 'PATCH', text);
  if (!problems || problems.length === 0) return undefined;
  const messages = problems.map((problem) => problem.message);
  return refusal(400, '23514', `Invalid canary: ${messages.join('; ')}`, messages.join('\n'));
}

function bodyColumns(body: string | undefined): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    const rows = Array.isArray(parsed) ? parsed : [parsed];
    const columns = new Set<string>();
    for (const row of rows) {
      if (typeof row !== 'object' || row === null) return undefined;
      for (const key of Object.keys(row)) columns.add(key);
    }
    return [...columns];
  } catch {
    return undefined;
  }
}

/** The data API with health's write rules in front of it. */
export function guardHealthWrites(dataApi: DataApiService): DataApiService {
  return guardDataApiWrites(dataApi, checkHealthWrite);
}
