import { can, dataApiResource, type Role } from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../data-api/data-api-service.js';
import { guardDataApiWrites } from '../../http/data-api-write-guard.js';
import { ruleBodyProblems } from './notification-rule-fns.js';

/**
 * Notification rules written through /api/db (ui-calls 3.13: POST, PATCH with unset
 * recipients as null, PATCH deleted_at) are validated before the data API runs them: events
 * known, the filter and template valid CEL, the repeat interval a duration, custom services a
 * connection or a service URL, and (on create) a recipient. A refusal is a PostgREST-style 400
 * naming each wrong field. Callers who may not write are left to the data API (403).
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

export function checkNotificationWrite(request: PgrestRequest, roles: readonly Role[]): PgrestResponse | undefined {
  if (!WRITES.has(request.method)) return undefined;
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  if (relation !== 'notifications') return undefined;
  const resource = dataApiResource(relation);
  if (!resource || !can(roles, resource, 'write')) return undefined;
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return refusal(415, 'PGRST107', 'notifications accept JSON bodies only, so that rules can be validated.');
  }
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // the data API answers malformed JSON itself
  }
  const mode = request.method === 'PATCH' ? 'update' : 'create';
  const problems = (Array.isArray(body) ? body : [body]).flatMap((row) => ruleBodyProblems(row, mode));
  if (problems.length === 0) return undefined;
  return refusal(400, '23514', `Invalid notification: ${problems.join('; ')}`, problems.join('\n'));
}

/** The data API with the notification rule check in front of it. */
export function guardNotificationWrites(dataApi: DataApiService): DataApiService {
  return guardDataApiWrites(dataApi, checkNotificationWrite);
}
